// Cheap token estimates, good enough to show how full the context window is and to warn before
// a request that cannot fit. No tokenizer is bundled on purpose: the gateway serves models of
// several makers with different tokenizers, and a 2-5 MB vocabulary would slow activation for a
// number that only needs to be roughly right.
//
// The rule (documented so the numbers can be checked by hand):
//   - ASCII letters, digits and whitespace: 1/4 token each (the usual "4 characters per token"
//     of English prose; runs of indentation merge the same way);
//   - ASCII punctuation and symbols: 1/2 token each. Code is dense in them and tokenizers split
//     them off (`foo(a, b);` is 6-7 tokens, not 2.5), so this is the "adjustment for code";
//   - any other character (accented letters, CJK, emoji): 1 token per code point;
//   - each chat message: 4 tokens of framing (role, separators);
//   - each image part: a flat IMAGE_TOKENS, whatever its encoded size (services bill images by
//     tiles, not by the length of their base64).
// It leans towards over-estimating, so the "will not fit" warning errs on the safe side.
import type { ChatMessage, ContentPart, ToolDefinition } from '../client/types';

export const MESSAGE_OVERHEAD_TOKENS = 4;
export const IMAGE_TOKENS = 1_000;

export function estimateTokens(text: string): number {
  let quarters = 0; // in units of 1/4 token, to stay in integers
  // by UTF-16 unit, a surrogate pair counted once as one code point (as `for (const ch of text)`
  // counts, at a fraction of its cost: this runs over whole conversations)
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) {
      quarters += 4;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) i++;
      }
    } else if (isPlainAscii(c)) quarters += 1;
    else quarters += 2;
  }
  return Math.ceil(quarters / 4);
}

function isPlainAscii(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || // 0-9
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x61 && c <= 0x7a) || // a-z
    c === 0x20 ||
    c === 0x09 ||
    c === 0x0a ||
    c === 0x0d
  );
}

function partTokens(part: ContentPart): number {
  return part.type === 'text' ? estimateTokens(part.text) : IMAGE_TOKENS;
}

export function estimateMessageTokens(message: ChatMessage): number {
  let n = MESSAGE_OVERHEAD_TOKENS;
  if (typeof message.content === 'string') n += estimateTokens(message.content);
  else if (Array.isArray(message.content)) for (const p of message.content) n += partTokens(p);
  for (const call of message.tool_calls ?? []) n += estimateTokens(call.function.name) + estimateTokens(call.function.arguments) + 4;
  return n;
}

/** Estimated prompt tokens of a whole request: its messages and the tool definitions it offers. */
export function estimateRequestTokens(messages: readonly ChatMessage[], tools?: readonly ToolDefinition[]): number {
  let n = 0;
  for (const m of messages) n += estimateMessageTokens(m);
  if (tools?.length) n += estimateTokens(JSON.stringify(tools));
  return n;
}

/**
 * Tokens to keep free for the answer when checking that a request fits: the model's maximum
 * output, but never more than 8K nor more than a quarter of the window (a model whose max
 * output equals its window would otherwise never accept any prompt).
 */
export function outputReserve(contextWindow: number, maxOutput: number): number {
  return Math.max(0, Math.min(maxOutput, 8_192, Math.floor(contextWindow / 4)));
}
