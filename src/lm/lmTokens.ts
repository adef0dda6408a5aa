// Token counts for vscode.lm's countTokens: with the model's public tokenizer where it has one
// (tokenizerChoice.ts, given as `count`), else with the same estimate as the chat panel
// (src/core/prompt/tokens.ts). Pure.
import { estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from '../core/prompt/tokens';
import { dataKind, toolResultText, type LmMessage } from './lmMessages';

const utf8 = new TextDecoder('utf-8');

/**
 * Counted without building the wire message: images are a flat IMAGE_TOKENS, never encoded.
 * `count` counts a text (default: the estimate), `overhead` is the message's framing.
 */
export function estimateLmMessageTokens(message: LmMessage, count: (text: string) => number = estimateTokens, overhead = MESSAGE_OVERHEAD_TOKENS): number {
  let n = overhead;
  for (const p of message.parts) {
    switch (p.kind) {
      case 'text':
        n += count(p.text);
        break;
      case 'toolCall': {
        let args = '';
        try {
          args = JSON.stringify(p.input ?? {}) ?? '';
        } catch {
          // Input that cannot be serialised is refused when the request is made; count nothing.
        }
        n += count(p.name) + count(args) + 4;
        break;
      }
      case 'toolResult':
        n += overhead + count(toolResultText(p.content));
        break;
      case 'data': {
        const kind = dataKind(p.mimeType);
        if (kind === 'image') n += IMAGE_TOKENS;
        else if (kind === 'text') n += count(utf8.decode(p.data));
        break;
      }
      case 'thinking': // sent back only within a tool loop; rarely large enough to matter
      case 'ignored':
        break;
    }
  }
  return n;
}
