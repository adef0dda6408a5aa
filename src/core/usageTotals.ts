// Running totals of what requests cost, persisted across reloads (globalState). Holds figures
// only: model and channel ids, token counts and USD; never prompt text, never the key.
// Pure, unit-tested in plain Node.
import { formatUsd } from './cost';

export interface UsageTotals {
  /** when counting started (ms since epoch) */
  since: number;
  requests: number;
  /** USD of the requests that had a price */
  cost: number;
  /** requests with no known price (counted apart, never as $0) */
  unpriced: number;
}

export function emptyTotals(now: number): UsageTotals {
  return { since: now, requests: 0, cost: 0, unpriced: 0 };
}

export function addToTotals(t: UsageTotals, cost: number | undefined): UsageTotals {
  const priced = typeof cost === 'number' && Number.isFinite(cost);
  return { since: t.since, requests: t.requests + 1, cost: t.cost + (priced ? cost : 0), unpriced: t.unpriced + (priced ? 0 : 1) };
}

const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** Reads stored totals; anything malformed starts afresh rather than showing a wrong figure. */
export function parseTotals(raw: unknown, now: number): UsageTotals {
  if (!raw || typeof raw !== 'object') return emptyTotals(now);
  const r = raw as Record<string, unknown>;
  if (!count(r.requests) || !count(r.unpriced) || r.unpriced > r.requests) return emptyTotals(now);
  if (typeof r.cost !== 'number' || !Number.isFinite(r.cost) || r.cost < 0) return emptyTotals(now);
  if (typeof r.since !== 'number' || !Number.isFinite(r.since) || r.since > now) return emptyTotals(now);
  return { since: r.since, requests: r.requests, cost: r.cost, unpriced: r.unpriced };
}

/** "1 request", "2 requests" */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "Since 23 Nov, 14:02: 3 requests · $0.0123 (+1 without a price)": an unknown price is never shown as $0. */
export function totalsLine(t: UsageTotals): string {
  const since = new Date(t.since).toLocaleString('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  const priced = t.requests - t.unpriced;
  const cost = priced === 0 ? 'cost unknown (no price configured)' : `${formatUsd(t.cost)}${t.unpriced ? ` + ${plural(t.unpriced, 'request')} without a price` : ''}`;
  return `Since ${since}: ${plural(t.requests, 'request')} · ${cost}`;
}
