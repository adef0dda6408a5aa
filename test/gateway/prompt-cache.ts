// A prefix cache that behaves like the real ones: per (key, model, channel) it remembers the
// prompts it has seen; a new prompt reads from cache the longest prefix it shares with one of
// them, counted in whole 128-token blocks, and only once that prefix reaches 1024 tokens.
import { CHARS_PER_TOKEN } from './tokens';

export const CACHE_MIN_TOKENS = 1024;
export const CACHE_BLOCK_TOKENS = 128;
/** prompts remembered per bucket; older ones are forgotten (real caches expire after minutes) */
const MAX_PROMPTS_PER_BUCKET = 32;

export class PromptCache {
  private readonly buckets = new Map<string, string[]>();

  /** Tokens of `prompt` served from cache; then remembers `prompt` for later requests. */
  lookupAndStore(bucket: string, prompt: string): number {
    const seen = this.buckets.get(bucket) ?? [];
    let longest = 0;
    for (const earlier of seen) longest = Math.max(longest, commonPrefixLength(earlier, prompt));
    const prefixTokens = Math.floor(longest / CHARS_PER_TOKEN);
    const cached = prefixTokens < CACHE_MIN_TOKENS ? 0 : Math.floor(prefixTokens / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS;
    if (!seen.includes(prompt)) seen.push(prompt);
    if (seen.length > MAX_PROMPTS_PER_BUCKET) seen.shift();
    this.buckets.set(bucket, seen);
    return cached;
  }

  clear(): void {
    this.buckets.clear();
  }
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
