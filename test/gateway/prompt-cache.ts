// The prompt cache of the simulator's OpenAI-style models, after OpenAI's "Prompt caching" guide
// (developers.openai.com/api/docs/guides/prompt-caching): caching is automatic for prompts of
// 1,024 tokens or more; a request reads from cache the longest prefix it shares with a recent
// prompt, in 128-token increments; a cached prefix stays for 5 to 10 minutes of inactivity (the
// simulator: IDLE_MS, the lower bound, measured on the simulator's clock so tests can move time).
// Per (key, model, channel) it remembers the prompts it has seen; a prompt that is read from (or
// stored) is active again.
import { CHARS_PER_TOKEN, IMAGE_INPUT_TOKENS, IMAGE_PLACEHOLDER } from './tokens';

export const CACHE_MIN_TOKENS = 1024;
export const CACHE_BLOCK_TOKENS = 128;
/** "generally remain active for 5 to 10 minutes of inactivity": the simulator forgets after 5 */
export const CACHE_IDLE_MS = 5 * 60_000;
/** prompts remembered per bucket; older ones are forgotten */
const MAX_PROMPTS_PER_BUCKET = 32;

interface Entry {
  prompt: string;
  usedAt: number;
}

export class PromptCache {
  private readonly buckets = new Map<string, Entry[]>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly idleMs = CACHE_IDLE_MS,
  ) {}

  /** Tokens of `prompt` served from cache; then remembers `prompt` for later requests. */
  lookupAndStore(bucket: string, prompt: string): number {
    const now = this.now();
    const seen = (this.buckets.get(bucket) ?? []).filter((e) => now - e.usedAt <= this.idleMs);
    let longest = 0;
    let source: Entry | undefined;
    for (const earlier of seen) {
      const n = commonPrefixLength(earlier.prompt, prompt);
      if (n > longest) [longest, source] = [n, earlier];
    }
    // the images inside the shared prefix are part of it ("images ... must be identical between requests")
    const prefixTokens = Math.floor(longest / CHARS_PER_TOKEN) + imagesIn(prompt, longest) * IMAGE_INPUT_TOKENS;
    const cached = prefixTokens < CACHE_MIN_TOKENS ? 0 : Math.floor(prefixTokens / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS;
    if (source && cached > 0) source.usedAt = now;
    const same = seen.find((e) => e.prompt === prompt);
    if (same) same.usedAt = now;
    else seen.push({ prompt, usedAt: now });
    if (seen.length > MAX_PROMPTS_PER_BUCKET) seen.shift();
    this.buckets.set(bucket, seen);
    return cached;
  }

  clear(): void {
    this.buckets.clear();
  }
}

/** Images whose placeholder lies wholly within the first `end` characters of `prompt`. */
function imagesIn(prompt: string, end: number): number {
  // as JSON writes it: a user's text with these characters has its quotes escaped
  const mark = `"url":"${IMAGE_PLACEHOLDER}`;
  let n = 0;
  for (let i = prompt.indexOf(mark); i >= 0 && i < end; i = prompt.indexOf(mark, i + 1)) {
    if (prompt.indexOf('>', i) < end) n++;
  }
  return n;
}

export function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  // Compare in slices first: prompts of benchmarks run to megabytes.
  let i = 0;
  const step = 4096;
  while (i + step <= max && a.slice(i, i + step) === b.slice(i, i + step)) i += step;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
