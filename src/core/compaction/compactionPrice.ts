// Whether to compact before the next request: by room, and by price.
//   - Room: the next request as it stands, plus what is kept free for the answer, would not fit
//     the model's window. Then compacting is necessary, whatever it costs.
//   - Price: over the turns that count, the requests with the history as it stands cost more than
//     the summary plus the same requests with the compacted history. Both series are projected with
//     the quote's own model (`requestSeries`: each request resends the one before and what a turn
//     adds, and reads from the cache what the one before left there while the cache lives), at this
//     channel's input and cache prices; the summary is priced at its own channel's prices.
//     A warm cache is never thrown away while there is room: the next request would read most of the
//     history at the cache price, and compacting it would make that request pay the summary and the
//     kept turns at the input price. The rule waits until the cache is cold (a pause longer than the
//     cache lives), when the next request pays the input price for everything anyway.
// Pure.
import type { Price } from '../catalogue/modelCatalogue';
import { cacheableTokens, cacheLifetimes, type CacheFacts } from '../quote/cachePrediction';
import { requestCost, seriesCost } from '../quote/projection';

export interface CompactionPriceInput {
  /** prompt tokens of the next request with the history as it stands */
  promptTokens: number;
  /** of those, what the cache is expected to serve (the quote's prediction) */
  cachedTokens: number;
  /** tokens of the stable prefix (system prompt, rules, tools, files pinned first): cached after compaction too, while the cache lives */
  prefixTokens: number;
  /** prompt tokens of the next request after compaction (prefix, summary, kept turns) */
  compactedTokens: number;
  /** the summary request: prompt tokens and expected output */
  summaryPromptTokens: number;
  summaryOutputTokens: number;
  /** the model's window and the tokens kept free for the answer */
  contextWindow: number;
  outputReserve: number;
  /** this channel's price; absent: no price is known, only room decides */
  price?: Price;
  /** the summary's channel's price (default: `price`) */
  summaryPrice?: Price;
  /** what the gateway's reports taught about this route's cache */
  cache?: CacheFacts;
  /** whether the catalogue says the model caches (until the gateway's reports say) */
  assumeCaching: boolean;
  /** the conversation's pace: the usual pause between its turns (ms) */
  paceMs: number;
  /** prompt tokens each turn adds (the answer and the next question), and completion tokens per turn */
  growthPerTurn: number;
  outputPerTurn: number;
  /** turns the conversation is expected to go on for (see `turnsThatCount`) */
  turns: number;
}

export type CompactionVerdict =
  | { compact: true; reason: 'room'; withoutUsd?: number; withUsd?: number; summaryUsd?: number }
  | { compact: true; reason: 'price'; withoutUsd: number; withUsd: number; summaryUsd: number }
  | { compact: false; reason: 'warm' | 'notWorth' | 'noPrice'; withoutUsd?: number; withUsd?: number; summaryUsd?: number };

/** Share of the next request the cache must serve for it to count as warm. */
export const WARM_SHARE = 0.5;

/** At most this many turns ahead count: a projection further out is a guess. */
export const MAX_TURNS_AHEAD = 20;
/** The working session the turns ahead are counted in (ms). */
export const SESSION_MS = 60 * 60_000;

/**
 * How many turns ahead count: the turns the conversation's pace fits in the next hour of work
 * (at least one, at most MAX_TURNS_AHEAD), and no more than it has had so far (a conversation of
 * three turns is not assumed to go on for twenty).
 */
export function turnsThatCount(paceMs: number, turnsSoFar: number): number {
  const byPace = Math.floor(SESSION_MS / Math.max(1_000, paceMs));
  return Math.max(1, Math.min(MAX_TURNS_AHEAD, byPace, Math.max(1, turnsSoFar)));
}

/** The usual pause between a conversation's turns (the median of the gaps; `fallback` without two turns). */
export function paceOf(turnTimes: readonly number[], fallback: number): number {
  const gaps: number[] = [];
  for (let i = 1; i < turnTimes.length; i++) gaps.push(Math.max(0, turnTimes[i]! - turnTimes[i - 1]!));
  if (gaps.length === 0) return fallback;
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)]!;
}

/** Whether the next request does not fit: its prompt and the answer's reserve pass the window. */
export const overflows = (promptTokens: number, outputReserve: number, contextWindow: number): boolean =>
  contextWindow > 0 && promptTokens + outputReserve > contextWindow;

export function decideCompaction(i: CompactionPriceInput): CompactionVerdict {
  const room = overflows(i.promptTokens, i.outputReserve, i.contextWindow);
  if (!i.price) return room ? { compact: true, reason: 'room' } : { compact: false, reason: 'noPrice' };
  const price = i.price;
  const turns = Math.max(1, Math.round(i.turns));
  const alive = cacheLifetimes(i.cache).alive;
  const series = {
    requests: turns,
    growth: i.growthPerTurn,
    stepOutput: i.outputPerTurn,
    lastOutput: i.outputPerTurn,
    cache: i.cache,
    gapMs: i.paceMs,
    assumeCaching: i.assumeCaching,
  };
  const withoutUsd = seriesCost({ ...series, promptTokens: i.promptTokens, cachedTokens: i.cachedTokens }, price).usd;
  // after compaction the prefix is still cached when the cache is alive now; the rest is new
  const prefixCached = i.cachedTokens > 0 ? Math.min(i.cachedTokens, cacheableTokens(i.prefixTokens, i.cache)) : 0;
  const withUsd = seriesCost({ ...series, promptTokens: i.compactedTokens, cachedTokens: prefixCached }, price).usd;
  const summaryUsd = requestCost({ promptTokens: i.summaryPromptTokens, cachedTokens: 0, outputTokens: i.summaryOutputTokens }, i.summaryPrice ?? price);
  const figures = { withoutUsd, withUsd, summaryUsd };
  if (room) return { compact: true, reason: 'room', ...figures };
  const warm = i.cachedTokens >= i.promptTokens * WARM_SHARE && i.paceMs <= alive;
  if (warm) return { compact: false, reason: 'warm', ...figures };
  if (withoutUsd - withUsd > summaryUsd) return { compact: true, reason: 'price', ...figures };
  return { compact: false, reason: 'notWorth', ...figures };
}

/** What the panel knows before a send, for the price rule (token counts in the panel's estimate). */
export interface SendOutlook {
  /** the next request as it stands: its prompt tokens, and what the cache is expected to serve of them */
  promptTokens: number;
  cachedTokens: number;
  /** the stable prefix (system message and tools) */
  prefixTokens: number;
  /** tokens of the turns a compaction would summarise, and of what it keeps verbatim (recent turns, edits, the new message) */
  summarisedTokens: number;
  keptTokens: number;
  /** the summary: expected length, and the most of the transcript its request carries */
  summaryOutputTokens: number;
  summaryInputCap: number;
  /** when each of the conversation's user turns was sent (ms), oldest first */
  turnTimes: readonly number[];
  /** completion tokens an answer of this conversation takes */
  outputPerTurn: number;
  contextWindow: number;
  outputReserve: number;
  price?: Price;
  summaryPrice?: Price;
  cache?: CacheFacts;
  assumeCaching: boolean;
}

/** The pace assumed for a conversation with fewer than two turns. */
export const DEFAULT_PACE_MS = 5 * 60_000;

/**
 * The price rule's input from what the panel knows before a send: the conversation's pace is the
 * usual pause between its turns, each turn adds to the history what its turns so far added on
 * average, and the turns that count are those the pace fits in the next hour (see turnsThatCount).
 */
export function priceRuleInput(o: SendOutlook): CompactionPriceInput {
  const turnsSoFar = o.turnTimes.length;
  const paceMs = paceOf(o.turnTimes, DEFAULT_PACE_MS);
  const history = Math.max(0, o.promptTokens - o.prefixTokens);
  return {
    promptTokens: o.promptTokens,
    cachedTokens: Math.min(o.cachedTokens, o.promptTokens),
    prefixTokens: o.prefixTokens,
    compactedTokens: o.prefixTokens + o.summaryOutputTokens + o.keptTokens,
    summaryPromptTokens: Math.min(o.summarisedTokens, o.summaryInputCap),
    summaryOutputTokens: o.summaryOutputTokens,
    contextWindow: o.contextWindow,
    outputReserve: o.outputReserve,
    ...(o.price ? { price: o.price } : {}),
    ...(o.summaryPrice ? { summaryPrice: o.summaryPrice } : {}),
    ...(o.cache ? { cache: o.cache } : {}),
    assumeCaching: o.assumeCaching,
    paceMs,
    growthPerTurn: turnsSoFar > 0 ? Math.round(history / turnsSoFar) : history,
    outputPerTurn: o.outputPerTurn,
    turns: turnsThatCount(paceMs, turnsSoFar),
  };
}
