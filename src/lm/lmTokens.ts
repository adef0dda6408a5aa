// Token estimates for vscode.lm's countTokens, with the same rule as the chat panel
// (src/core/prompt/tokens.ts): no tokenizer is bundled. Pure.
import { estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from '../core/prompt/tokens';
import { dataKind, toolResultText, type LmMessage } from './lmMessages';

const utf8 = new TextDecoder('utf-8');

/** Counted without building the wire message: images are a flat IMAGE_TOKENS, never encoded. */
export function estimateLmMessageTokens(message: LmMessage): number {
  let n = MESSAGE_OVERHEAD_TOKENS;
  for (const p of message.parts) {
    switch (p.kind) {
      case 'text':
        n += estimateTokens(p.text);
        break;
      case 'toolCall': {
        let args = '';
        try {
          args = JSON.stringify(p.input ?? {}) ?? '';
        } catch {
          // Input that cannot be serialised is refused when the request is made; count nothing.
        }
        n += estimateTokens(p.name) + estimateTokens(args) + 4;
        break;
      }
      case 'toolResult':
        n += MESSAGE_OVERHEAD_TOKENS + estimateTokens(toolResultText(p.content));
        break;
      case 'data': {
        const kind = dataKind(p.mimeType);
        if (kind === 'image') n += IMAGE_TOKENS;
        else if (kind === 'text') n += estimateTokens(utf8.decode(p.data));
        break;
      }
      case 'thinking': // sent back only within a tool loop; rarely large enough to matter
      case 'ignored':
        break;
    }
  }
  return n;
}
