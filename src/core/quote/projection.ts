// What a series of requests costs: each request resends the context of the one before plus what
// was added (a round's calls and results, or a turn's answer and the next question), and reads
// from the cache what the one before put there while the cache lives. One function for an agent
// answer's rounds (the quote) and for the next turns of a conversation (whether compacting pays:
// "the next N requests with this history, on this channel, cached or not"). Pure.
import type { Price } from '../catalogue/modelCatalogue';
import { cacheableTokens, cacheLifetimes, cacheOff, type CacheFacts } from './cachePrediction';

/** One request of a plan. */
export interface PlannedRequest {
  promptTokens: number;
  cachedTokens: number;
  outputTokens: number;
}

/** USD of one request: cached tokens at the cache price (the input price when there is none), the rest at the input price. */
export function requestCost(r: PlannedRequest, price: Price): number {
  const cached = Math.min(Math.max(0, r.cachedTokens), Math.max(0, r.promptTokens));
  const uncached = Math.max(0, r.promptTokens) - cached;
  return (uncached * price.input + cached * (price.cacheRead ?? price.input) + Math.max(0, r.outputTokens) * price.output) / 1_000_000;
}

export function planCost(plan: readonly PlannedRequest[], price: Price): number {
  return plan.reduce((usd, r) => usd + requestCost(r, price), 0);
}

export interface SeriesInput {
  /** prompt tokens of the first request */
  promptTokens: number;
  /** of those, read from the cache */
  cachedTokens: number;
  /** requests in the series */
  requests: number;
  /** prompt tokens each later request has more than the one before (the output of the one before as it is resent, and what was added) */
  growth: number;
  /** completion tokens of each request but the last */
  stepOutput: number;
  /** completion tokens of the last request */
  lastOutput: number;
  /** how the route caches; `null`: no cache at all */
  cache: CacheFacts | undefined | null;
  /** pause between requests (ms): 0 within an answer; a turn's pace between turns */
  gapMs?: number;
  /** whether the route is believed to cache before it was seen to (the catalogue's word) */
  assumeCaching?: boolean;
}

/**
 * The requests of a series. Request k+1 sends request k's prompt and `growth` more (its output among them);
 * it reads from the cache request k's prompt (and its output where the route caches answers), in
 * the route's units, unless the pause outlives the cache.
 */
export function requestSeries(s: SeriesInput): PlannedRequest[] {
  const out: PlannedRequest[] = [];
  const n = Math.max(1, Math.round(s.requests));
  const facts = s.cache ?? undefined;
  const learned = !!facts && facts.hits > 0;
  const caches = s.cache !== null && !cacheOff(facts) && (learned || s.assumeCaching !== false);
  const warm = caches && (s.gapMs ?? 0) <= cacheLifetimes(facts).alive;
  let prompt = Math.max(0, s.promptTokens);
  let cached = Math.min(prompt, Math.max(0, s.cachedTokens));
  for (let k = 0; k < n; k++) {
    const output = k === n - 1 ? s.lastOutput : s.stepOutput;
    out.push({ promptTokens: Math.round(prompt), cachedTokens: Math.round(cached), outputTokens: Math.round(output) });
    const next = prompt + Math.max(0, s.growth);
    cached = warm ? Math.min(next, cacheableTokens(facts?.withOutput ? prompt + output : prompt, facts)) : 0;
    prompt = next;
  }
  return out;
}

/** A series' cost, and what it would cost without any cache (the cached vs uncached split). */
export function seriesCost(
  s: SeriesInput,
  price: Price,
): { usd: number; uncachedUsd: number; promptTokens: number; cachedTokens: number; outputTokens: number } {
  const plan = requestSeries(s);
  const promptTokens = plan.reduce((n, r) => n + r.promptTokens, 0);
  const cachedTokens = plan.reduce((n, r) => n + r.cachedTokens, 0);
  const outputTokens = plan.reduce((n, r) => n + r.outputTokens, 0);
  return {
    usd: planCost(plan, price),
    uncachedUsd: planCost(
      plan.map((r) => ({ ...r, cachedTokens: 0 })),
      price,
    ),
    promptTokens,
    cachedTokens,
    outputTokens,
  };
}
