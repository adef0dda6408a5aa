// The prompt cache of the simulator's DeepSeek-style model, after DeepSeek's "Context Caching"
// guide (api-docs.deepseek.com/guides/kv_cache): the cache is on for everyone; what is cached are
// "cache prefix units", and a request hits only a unit it matches whole. Units are kept
//   1. at the end of each request's input and at the end of the model's output (so the next
//      turn, which resends the conversation with the answer, reads both from cache);
//   2. at a common prefix the system detects between requests (request A+B, then A+C: no hit, but
//      A becomes a unit, and a third request A+D hits A);
//   3. at fixed token intervals along long inputs and outputs (the document gives no interval;
//      the simulator: UNIT_INTERVAL_TOKENS).
// The usage reports `prompt_cache_hit_tokens` and `prompt_cache_miss_tokens`. The document's
// earlier wording says unused caches are cleared "usually within a few hours to a few days"; the
// simulator forgets a unit after UNITS_IDLE_MS without use, on its own clock.
// Prompts are compared in their rendered form (tokens.ts renderPrompt), as the model reads them.
import { commonPrefixLength } from './prompt-cache';
import { deepseekTokens } from './tokens';

export const UNIT_INTERVAL_TOKENS = 1_024;
export const UNITS_IDLE_MS = 4 * 60 * 60_000;
/** texts remembered per bucket; the least recently used go first */
const MAX_TEXTS_PER_BUCKET = 32;

interface Stored {
  text: string;
  /** unit ends, in characters of `text` */
  units: Set<number>;
  usedAt: number;
}

/** Character positions of `text` where its tokens pass each multiple of `interval`. */
function intervalEnds(text: string, interval: number): number[] {
  const out: number[] = [];
  let tenths = 0;
  let next = interval * 10;
  let i = 0;
  for (const ch of text) {
    tenths += (ch.codePointAt(0) as number) < 0x80 ? 3 : 6;
    i += ch.length;
    if (tenths >= next) {
      out.push(i);
      next += interval * 10;
    }
  }
  return out;
}

export class PrefixUnits {
  private readonly buckets = new Map<string, Stored[]>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly idleMs = UNITS_IDLE_MS,
  ) {}

  private alive(bucket: string): Stored[] {
    const now = this.now();
    const list = (this.buckets.get(bucket) ?? []).filter((s) => now - s.usedAt <= this.idleMs);
    this.buckets.set(bucket, list);
    return list;
  }

  /** Tokens of `prompt` served from cache: the longest unit it matches whole. Notes common prefixes for later requests. */
  lookup(bucket: string, prompt: string): number {
    let best = 0;
    let source: Stored | undefined;
    for (const s of this.alive(bucket)) {
      const shared = commonPrefixLength(s.text, prompt);
      for (const end of s.units) {
        if (end <= shared && end > best) [best, source] = [end, s];
      }
      // a common prefix that is no unit yet becomes one (the document's example: A+B, A+C, then A+D hits A)
      if (shared > 0 && shared < s.text.length && shared < prompt.length) s.units.add(shared);
    }
    if (source) source.usedAt = this.now();
    return best > 0 ? deepseekTokens(prompt.slice(0, best)) : 0;
  }

  /** After the answer: units at the end of the input and of the output, and along both. */
  store(bucket: string, prompt: string, output: string): void {
    const text = prompt + output;
    const units = new Set<number>([prompt.length, text.length, ...intervalEnds(text, UNIT_INTERVAL_TOKENS)]);
    const list = this.alive(bucket);
    const same = list.find((s) => s.text === text);
    if (same) {
      for (const u of units) same.units.add(u);
      same.usedAt = this.now();
      return;
    }
    list.push({ text, units, usedAt: this.now() });
    if (list.length > MAX_TEXTS_PER_BUCKET) {
      list.sort((a, b) => a.usedAt - b.usedAt);
      list.shift();
    }
  }

  clear(): void {
    this.buckets.clear();
  }
}
