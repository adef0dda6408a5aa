// Which part of the next request the gateway will bill at the cache price. A prompt cache keeps
// what a model on a channel recently read, per key; the next request gets the cache price for the
// prefix it shares with that, in the provider's units, while the cache lives. Modelgate does not
// know which provider is behind a model, so it learns from the gateway's own reports
// (`cached_tokens` and its other names): whether the route caches at all, in what units (the
// greatest common divisor of the cached counts: 128 for OpenAI's "Prompt caching", 64 or less for
// DeepSeek's "Context Caching"), whether the answer itself is cached with the prompt (DeepSeek
// keeps a unit at the end of the model's output), and how long a cache was seen to live. Until it
// has learned, it assumes OpenAI's documented rules, which are the strictest: at least 1,024
// tokens, 128-token increments, 5 minutes of inactivity (up to an hour off-peak). Pure.
import type { CountedPrompt, PromptFingerprint } from './promptCount';
import { sharedPrefix } from './promptCount';

/** OpenAI's documented rules, assumed until the gateway's reports say otherwise. */
export const CACHE_DEFAULTS = {
  minTokens: 1_024,
  blockTokens: 128,
  /** "Cached prefixes generally remain active for 5 to 10 minutes of inactivity" */
  surelyAliveMs: 5 * 60_000,
  /** "up to a maximum of one hour during off-peak periods": after this, nothing is expected from the cache */
  maybeAliveMs: 60 * 60_000,
} as const;

/**
 * A route seen to cache its answers too keeps units, as DeepSeek's "Context Caching" does, and
 * such caches are cleared "usually within a few hours to a few days": an hour is taken as sure,
 * a day as the most.
 */
export const UNIT_CACHE_LIFETIMES = { surelyAliveMs: 60 * 60_000, maybeAliveMs: 24 * 60 * 60_000 } as const;

/** How long the route's cache surely lives, and after how long nothing is expected of it (ms). */
export function cacheLifetimes(facts: CacheFacts | undefined): { alive: number; gone: number } {
  const learned = !!facts && facts.hits > 0;
  const base = learned && facts.withOutput ? UNIT_CACHE_LIFETIMES : CACHE_DEFAULTS;
  const alive = Math.max(base.surelyAliveMs, learned ? facts.aliveMs : 0);
  return { alive, gone: facts?.goneMs ?? Math.max(base.maybeAliveMs, alive) };
}

/** What the gateway's reports taught about one model on one channel. */
export interface CacheFacts {
  /** requests that reported cached tokens */
  hits: number;
  /** requests that shared a cacheable prefix within the cache's lifetime and reported none */
  misses: number;
  /** greatest common divisor of the cached counts (the provider's unit) */
  block: number;
  /** smallest cached count seen */
  minHit: number;
  /** a hit was larger than the shared prompt: the previous answer was cached too */
  withOutput: boolean;
  /** longest pause after which a hit came (ms) */
  aliveMs: number;
  /** shortest pause after which a hit was expected and none came (ms) */
  goneMs?: number;
}

/** One request's outcome, for learning: what it shared with the route's previous request, and what the gateway reported. */
export interface CacheObservation {
  /** pause since the previous request on the route */
  gapMs: number;
  /** tokens shared with the previous request's prompt (in the gateway's tokens) */
  sharedTokens: number;
  /** the same plus the previous request's answer when it follows the shared prompt whole */
  sharedWithOutputTokens: number;
  /** what the gateway reported as cached */
  cachedTokens: number;
}

const gcd = (a: number, b: number): number => {
  while (b) [a, b] = [b, a % b];
  return a;
};

/** The facts with one more observation. */
export function learnCache(facts: CacheFacts | undefined, o: CacheObservation): CacheFacts {
  const f: CacheFacts = facts ? { ...facts } : { hits: 0, misses: 0, block: 0, minHit: 0, withOutput: false, aliveMs: 0 };
  const cached = Math.max(0, Math.round(o.cachedTokens));
  if (cached > 0) {
    f.hits++;
    f.block = f.block ? gcd(f.block, cached) : cached;
    f.minHit = f.minHit ? Math.min(f.minHit, cached) : cached;
    f.aliveMs = Math.max(f.aliveMs, o.gapMs);
    // more than the shared prompt (past one unit of rounding): the answer was cached too
    if (cached > o.sharedTokens + Math.max(64, f.block) && o.sharedWithOutputTokens > o.sharedTokens) f.withOutput = true;
    if (f.goneMs !== undefined && f.goneMs <= o.gapMs) delete f.goneMs;
  } else if (o.sharedTokens >= Math.max(CACHE_DEFAULTS.minTokens, f.minHit || 0) * 2) {
    // a long shared prefix and nothing cached: the cache was gone, or the route does not cache
    f.misses++;
    if (f.hits > 0 && o.gapMs > f.aliveMs) f.goneMs = f.goneMs === undefined ? o.gapMs : Math.min(f.goneMs, o.gapMs);
  }
  return f;
}

/** The previous request of a conversation, as the quote needs it. */
export interface PreviousRequest {
  model: string;
  channel: string;
  /** when it was sent (ms) */
  at: number;
  fingerprint: PromptFingerprint;
  /** the prompt tokens the gateway billed for it */
  promptTokens?: number;
}

/**
 * What the next request shares with the previous one, in the gateway's tokens: the shared prefix
 * (the previous prompt's billed tokens when it is shared whole), and the segment after it (the
 * previous answer as it is sent back, when the whole previous prompt is shared).
 */
export function sharedWith(previous: PreviousRequest, next: CountedPrompt, ratio: number): { shared: number; answer: number; whole: boolean } {
  const prefix = sharedPrefix(previous.fingerprint, next);
  const whole = prefix.whole && prefix.tokens > 0;
  const shared = whole && previous.promptTokens !== undefined ? previous.promptTokens : Math.round(prefix.tokens * ratio);
  const answer = whole ? Math.round((next.sizes[prefix.segments] ?? 0) * ratio) : 0;
  return { shared, answer, whole };
}

/** The conversation's own ratio of billed to counted tokens (its previous request on the model), else `fallback`. */
export function conversationRatio(previous: PreviousRequest | undefined, model: string, rule: string, fallback: number): number {
  const p = previous;
  if (!p || p.model !== model || p.fingerprint.rule !== rule || !p.promptTokens || !(p.fingerprint.tokens > 0)) return fallback;
  const r = p.promptTokens / p.fingerprint.tokens;
  return r > 0.2 && r < 5 ? r : fallback;
}

/** The next request's prompt in the gateway's tokens: the previous request's billed prompt plus what was added, where it extends it. */
export function gatewayPromptTokens(previous: PreviousRequest | undefined, model: string, next: CountedPrompt, ratio: number): number {
  const p = previous;
  if (p && p.model === model && p.promptTokens !== undefined && p.fingerprint.rule === next.rule && sharedPrefix(p.fingerprint, next).whole) {
    return Math.max(0, Math.round(p.promptTokens + (next.tokens - p.fingerprint.tokens) * ratio));
  }
  return Math.round(next.tokens * ratio);
}

export type CacheReason =
  /** no earlier request in this conversation */
  | 'first'
  /** the model or the channel differs from the previous request's: caches are per model and channel */
  | 'switch'
  /** the previous request is older than the cache lives */
  | 'expired'
  /** the route was seen not to cache */
  | 'noCache'
  /** the shared prefix is shorter than the smallest cacheable prefix */
  | 'short'
  /** nothing is shared (the system prompt, the tools or the first message changed) */
  | 'changed'
  /** the shared prefix is expected from the cache */
  | 'warm'
  /** the pause is past what the route was seen to keep: the cache may or may not be there */
  | 'maybe';

/** Cached tokens of the next request: the likely figure and the bounds it may fall between. */
export interface CachedPart {
  likely: number;
  /** the least it may be (the quote's highest cost) */
  least: number;
  /** the most it may be (the quote's lowest cost) */
  most: number;
  reason: CacheReason;
  /** tokens the next request shares with the previous one (before units and lifetime) */
  shared: number;
  gapMs?: number;
}

export interface CachePredictionInput {
  previous?: PreviousRequest;
  model: string;
  channel: string;
  /** the next request, counted with the same rule as the fingerprint */
  next: CountedPrompt;
  /** counted tokens to the gateway's (calibration) */
  ratio: number;
  facts?: CacheFacts;
  /** whether the catalogue says the model caches (used until the gateway's reports say) */
  catalogueCaches: boolean;
  now: number;
}

const floorTo = (n: number, unit: number): number => Math.floor(n / unit) * unit;

/** Cached tokens of a prefix of `tokens`, in the route's units, or 0 below its minimum. */
export function cacheableTokens(tokens: number, facts: CacheFacts | undefined): number {
  const learned = facts && facts.hits > 0;
  const unit = learned ? Math.max(1, facts.block) : CACHE_DEFAULTS.blockTokens;
  const min = learned ? Math.min(CACHE_DEFAULTS.minTokens, facts.minHit) : CACHE_DEFAULTS.minTokens;
  return tokens < min ? 0 : floorTo(tokens, unit);
}

/** Whether a route's cache is known to be off: long shared prefixes, repeatedly, and never a hit. */
export const cacheOff = (facts: CacheFacts | undefined): boolean => !!facts && facts.hits === 0 && facts.misses >= 2;

/** The cached part of the next request, predicted from the previous request of the conversation. */
export function predictCached(i: CachePredictionInput): CachedPart {
  const none = (reason: CacheReason, shared = 0, gapMs?: number): CachedPart => ({
    likely: 0,
    least: 0,
    most: 0,
    reason,
    shared,
    ...(gapMs !== undefined ? { gapMs } : {}),
  });
  const p = i.previous;
  if (!p) return none('first');
  if (p.model !== i.model || p.channel !== i.channel) return none('switch');
  const gapMs = Math.max(0, i.now - p.at);
  const { shared, answer: answerTokens, whole } = sharedWith(p, i.next, i.ratio);
  // the tools block is segment 0: sharing only an empty tools block shares nothing
  if (shared === 0) return none('changed', 0, gapMs);
  const f = i.facts;
  if (cacheOff(f)) return none('noCache', shared, gapMs);
  const learned = !!f && f.hits > 0;
  // DeepSeek keeps a unit at the end of the answer: the next request reads that too
  const answer = whole ? answerTokens : 0;
  const cached = cacheableTokens(shared + (f?.withOutput ? answer : 0), f);
  // the most a cache of unknown rules may serve: everything shared, the answer included
  const most = learned ? cached : shared + answer;
  const { alive, gone } = cacheLifetimes(f);
  if (gapMs >= gone) return none('expired', shared, gapMs);
  if (gapMs > alive) return { likely: 0, least: 0, most, reason: 'maybe', shared, gapMs };
  if (cached === 0) return { likely: 0, least: 0, most, reason: 'short', shared, gapMs };
  // seen to cache (or said to by the catalogue): expected; else possible
  const believed = learned || i.catalogueCaches;
  return { likely: believed ? cached : 0, least: learned ? cached : 0, most, reason: believed ? 'warm' : 'maybe', shared, gapMs };
}
