// Running totals of what requests cost, persisted across reloads (globalState). Holds figures
// only: model and channel ids, token counts and USD; never prompt text, never the key.
// Pure, unit-tested in plain Node.
import { formatUsd } from './cost';
import { l10n } from '../l10n';

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

/** What the user reads for a count: "1 request", "3 requests", "1 image", … (translated as whole phrases). */
export function counted(n: number, what: 'request' | 'image' | 'error' | 'warning' | 'file'): string {
  switch (what) {
    case 'request':
      return n === 1 ? l10n.t('1 request') : l10n.t('{0} requests', n);
    case 'image':
      return n === 1 ? l10n.t('1 image') : l10n.t('{0} images', n);
    case 'error':
      return n === 1 ? l10n.t('1 error') : l10n.t('{0} errors', n);
    case 'warning':
      return n === 1 ? l10n.t('1 warning') : l10n.t('{0} warnings', n);
    case 'file':
      return n === 1 ? l10n.t('1 file') : l10n.t('{0} files', n);
  }
}

/** "$0.0123", "$0.0123 + 2 requests without a price": an unknown price is never shown as $0. */
export function pricedCost(cost: number, unpriced: number): string {
  return unpriced ? l10n.t('{0} + {1} without a price', formatUsd(cost), counted(unpriced, 'request')) : formatUsd(cost);
}

/** "Since 23 Nov, 14:02: 3 requests · $0.0123 (+1 without a price)": an unknown price is never shown as $0. */
export function totalsLine(t: UsageTotals): string {
  const since = new Date(t.since).toLocaleString('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  const priced = t.requests - t.unpriced;
  const cost = priced === 0 ? l10n.t('cost unknown (no price configured)') : pricedCost(t.cost, t.unpriced);
  return l10n.t('Since {0}: {1} · {2}', since, counted(t.requests, 'request'), cost);
}
