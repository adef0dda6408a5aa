// Prompt tokens of a request as it will be sent, counted incrementally: every text piece (a
// message's content, a tool call's arguments, the tools' JSON) is counted once and remembered by
// its text, so a keystroke in a conversation of 100K tokens counts only the composer's text, and
// the laid-out copies of earlier messages (promptLayout's canonical copies share the strings) hit
// the memo. Each segment (the tools block first, then each message) also gets a hash: the
// fingerprint of a sent request, whose common prefix with the next one is what a prompt cache can
// serve. Pure: the counting rule is given (the estimate, or a public tokenizer from the host).
import type { ChatMessage, ToolDefinition } from '../client/types';
import { estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from '../prompt/tokens';

/** How a model's tokens are counted. */
export interface TokenRule {
  /** 'estimate', or the tokenizer's name ('o200k_base', 'cl100k_base') */
  readonly id: string;
  /** tokens of a text */
  count(text: string): number;
  /** framing per message (role, separators) */
  readonly messageTokens: number;
  /** framing per request (the reply's priming) */
  readonly requestTokens: number;
  /** one image input, whatever its size */
  readonly imageTokens: number;
}

/** The estimate of src/core/prompt/tokens.ts: what the context meter shows, for a model without a known tokenizer. */
export const ESTIMATE_RULE: TokenRule = {
  id: 'estimate',
  count: estimateTokens,
  messageTokens: MESSAGE_OVERHEAD_TOKENS,
  requestTokens: 0,
  imageTokens: IMAGE_TOKENS,
};

/**
 * A public tokenizer, counted as OpenAI's Cookbook counts chat messages ("How to count tokens with
 * tiktoken"): 3 tokens per message plus the tokens of its role and content (a name: its tokens
 * plus 1), and 3 per request for the reply's priming. `count` should be bounded (boundedCount).
 */
export function tokenizerRule(id: string, count: (text: string) => number): TokenRule {
  return { id, count, messageTokens: 3, requestTokens: 3, imageTokens: 765 };
}

/** Longest run of characters without white space given to a tokenizer in one piece. */
export const TOKENIZER_RUN_CHARS = 128;

/**
 * A tokenizer's count that cannot stall: byte-pair encoding is quadratic in the length of one
 * pre-token, so 100,000 characters without white space (a minified line, a base64 blob) took 46 s
 * with o200k_base. Runs longer than TOKENIZER_RUN_CHARS are counted in pieces of that length (the
 * pieces' tokens add up to within a token per piece of the whole).
 */
export function boundedCount(count: (text: string) => number): (text: string) => number {
  const longRun = new RegExp(`\\S{${TOKENIZER_RUN_CHARS + 1},}`, 'g');
  return (text) => {
    if (text.length <= TOKENIZER_RUN_CHARS) return count(text);
    let total = 0;
    let from = 0;
    longRun.lastIndex = 0;
    for (let m = longRun.exec(text); m; m = longRun.exec(text)) {
      if (m.index > from) total += count(text.slice(from, m.index));
      for (let i = 0; i < m[0].length; i += TOKENIZER_RUN_CHARS) total += count(m[0].slice(i, i + TOKENIZER_RUN_CHARS));
      from = m.index + m[0].length;
    }
    if (from === 0) return count(text);
    if (from < text.length) total += count(text.slice(from));
    return total;
  };
}

/** A request counted: its tokens and, per segment (tools, then each message), a hash and the tokens. */
export interface CountedPrompt {
  /** the rule's id */
  rule: string;
  tokens: number;
  hashes: number[];
  sizes: number[];
}

/** What a sent request is remembered by: its segments' hashes and tokens (in the rule it was counted with). */
export type PromptFingerprint = CountedPrompt;

interface Piece {
  tokens: number;
  hash: number;
  /** the last count() that used it */
  used: number;
}

/** FNV-1a over UTF-16 code units, folded with a seed: one 32-bit hash per text piece. */
export function hashText(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const mix = (h: number, v: number): number => Math.imul(h ^ v, 0x01000193) >>> 0;

/** Remembered pieces beyond this are dropped when not used by the last two counts. */
const MAX_PIECES = 4_096;

export class PromptCounter {
  private readonly pieces = new Map<string, Piece>();
  private readonly images = new Map<string, Piece>();
  private generation = 0;

  constructor(readonly rule: TokenRule) {}

  /** Counts a whole request: the tools block, then each message. */
  count(messages: readonly ChatMessage[], tools?: readonly ToolDefinition[]): CountedPrompt {
    this.generation++;
    const out: CountedPrompt = { rule: this.rule.id, tokens: this.rule.requestTokens, hashes: [], sizes: [] };
    const t = tools?.length ? this.piece(JSON.stringify(tools)) : { tokens: 0, hash: 0 };
    out.hashes.push(t.hash);
    out.sizes.push(t.tokens);
    out.tokens += t.tokens;
    this.append(out, messages);
    this.sweep();
    return out;
  }

  /**
   * `count`, in slices: after about `sliceMs` of counting it awaits `pause()` (the host's next
   * turn), so counting a long conversation for the first time (330 ms for 90K tokens with
   * o200k_base) never holds the extension host in one task. `now` is the clock (performance.now).
   */
  async countInSlices(
    messages: readonly ChatMessage[],
    tools: readonly ToolDefinition[] | undefined,
    pause: () => Promise<void>,
    now: () => number,
    sliceMs = 8,
  ): Promise<CountedPrompt> {
    this.generation++;
    const out: CountedPrompt = { rule: this.rule.id, tokens: this.rule.requestTokens, hashes: [], sizes: [] };
    let since = now();
    const t = tools?.length ? this.piece(JSON.stringify(tools)) : { tokens: 0, hash: 0 };
    out.hashes.push(t.hash);
    out.sizes.push(t.tokens);
    out.tokens += t.tokens;
    for (const m of messages) {
      if (now() - since > sliceMs) {
        await pause();
        since = now();
      }
      this.append(out, [m]);
    }
    this.sweep();
    return out;
  }

  /**
   * `base` with more messages after it: the composer's message on top of the conversation. Their
   * texts change with every keystroke, so they are counted without being remembered.
   */
  extend(base: CountedPrompt, messages: readonly ChatMessage[]): CountedPrompt {
    const out: CountedPrompt = { rule: base.rule, tokens: base.tokens, hashes: [...base.hashes], sizes: [...base.sizes] };
    this.append(out, messages, false);
    return out;
  }

  /** Tokens and hash of one message (`remember`: keep its pieces for the next count). */
  message(m: ChatMessage, remember = true): { tokens: number; hash: number } {
    const r = this.rule;
    let tokens = r.messageTokens;
    let hash = hashText(m.role);
    const add = (text: string) => {
      const p = remember ? this.piece(text) : (this.pieces.get(text) ?? { tokens: r.count(text), hash: hashText(text) });
      tokens += p.tokens;
      hash = mix(hash, p.hash);
    };
    if (r.id !== 'estimate') tokens += r.count(m.role);
    if (typeof m.content === 'string') add(m.content);
    else if (Array.isArray(m.content)) {
      for (const part of m.content) {
        if (part.type === 'text') add(part.text);
        else {
          tokens += r.imageTokens;
          hash = mix(hash, this.imageHash(part.image_url.url));
        }
      }
    }
    for (const call of m.tool_calls ?? []) {
      add(call.function.name);
      add(call.function.arguments);
      tokens += r.id === 'estimate' ? 4 : 3;
      hash = mix(hash, hashText(call.id));
    }
    if (m.tool_call_id !== undefined) hash = mix(hash, hashText(m.tool_call_id));
    if (m.name !== undefined) {
      add(m.name);
      tokens += 1;
    }
    // Reasoning passed back within a tool loop is left out, of the hash and of the count: the next
    // turn sends that message without it (so a fingerprint that kept it would never match), and
    // what it adds within a loop is in the growth per round learned from the billed prompts.
    return { tokens, hash };
  }

  private append(out: CountedPrompt, messages: readonly ChatMessage[], remember = true): void {
    for (const m of messages) {
      const { tokens, hash } = this.message(m, remember);
      out.hashes.push(hash);
      out.sizes.push(tokens);
      out.tokens += tokens;
    }
  }

  /** An image's data URL is hashed, never run through a tokenizer: its tokens are the rule's flat figure. */
  private imageHash(url: string): number {
    let p = this.images.get(url);
    if (!p) {
      p = { tokens: 0, hash: hashText(url), used: this.generation };
      this.images.set(url, p);
    } else p.used = this.generation;
    return p.hash;
  }

  private piece(text: string): Piece {
    let p = this.pieces.get(text);
    if (!p) {
      p = { tokens: this.rule.count(text), hash: hashText(text), used: this.generation };
      this.pieces.set(text, p);
    } else p.used = this.generation;
    return p;
  }

  private sweep(): void {
    for (const map of [this.pieces, this.images]) {
      if (map.size <= MAX_PIECES) continue;
      for (const [text, p] of map) if (p.used < this.generation - 1) map.delete(text);
    }
  }

  /** How many text pieces are remembered (for tests and the bench). */
  get remembered(): number {
    return this.pieces.size;
  }
}

/** The common prefix of a sent request and the next one: whole segments, and their tokens in `next`'s count. */
export function sharedPrefix(sent: PromptFingerprint, next: CountedPrompt): { segments: number; tokens: number; whole: boolean } {
  if (sent.rule !== next.rule) return { segments: 0, tokens: 0, whole: false };
  const n = Math.min(sent.hashes.length, next.hashes.length);
  let i = 0;
  let tokens = 0;
  while (i < n && sent.hashes[i] === next.hashes[i]) tokens += next.sizes[i++]!;
  return { segments: i, tokens, whole: i === sent.hashes.length };
}
