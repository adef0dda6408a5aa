// What completions cost: the estimate the pickers show before the user turns them on (per hour of
// typing), what they cost today (the status bar's tooltip), and whether a budget stops them. A
// budget that is used up stops completions without asking: there is no dialog per keystroke, the
// status bar shows a sign instead. Pure, unit-tested.
import type { Price } from '../catalogue/modelCatalogue';
import type { Usage } from '../client/types';
import { costOf } from '../spend/cost';
import { exhausted, type BudgetStatus } from '../spend/budget';
import { periodRange, type SpendState } from '../spend/spendBook';

/**
 * An hour of steady typing, as `npm run bench -- completions` measured it on 2026-11-29 (a 200-line
 * file typed at 8 characters per second with the pauses people make, against the simulator):
 * 1,454 requests an hour on the economical channel and 1,875 on direct, about 870 prompt tokens
 * each, half of them from the prompt cache, and 1 to 12 completion tokens on average (most
 * requests are closed by the next keystroke). Between the two runs; docs/performance.md.
 */
export const TYPING_HOUR = {
  requests: 1_650,
  promptTokens: 880,
  /** share of prompt tokens read from the prompt cache on consecutive requests in one file */
  cachedShare: 0.5,
  completionTokens: 12,
} as const;

export type TypingProfile = { [K in keyof typeof TYPING_HOUR]: number };

/** USD per hour of typing on `price`; undefined without a price. */
export function hourlyCostEstimate(price: Price | undefined, profile: TypingProfile = TYPING_HOUR): number | undefined {
  if (!price) return undefined;
  const cached = Math.round(profile.promptTokens * profile.cachedShare);
  return profile.requests * costOf({ promptTokens: profile.promptTokens, cachedTokens: cached, completionTokens: profile.completionTokens }, price);
}

export interface CompletionSpend {
  /** USD of the priced completion requests today */
  cost: number;
  requests: number;
  /** completion requests today without a known price */
  unpriced: number;
}

/** Today's completion requests (local day) in the ledger, raw entries and folded days together. */
export function completionSpendToday(state: SpendState, now: number): CompletionSpend {
  const { start, end } = periodRange('day', now);
  const out: CompletionSpend = { cost: 0, requests: 0, unpriced: 0 };
  for (const e of state.entries) {
    if (e.source !== 'completions' || e.at < start || e.at >= end) continue;
    out.requests++;
    if (e.cost === undefined) out.unpriced++;
    else out.cost += e.cost;
  }
  for (const d of state.days) {
    if (d.source !== 'completions') continue;
    const [y, m, day] = d.day.split('-').map(Number);
    const t = new Date(y!, m! - 1, day!).getTime();
    if (t < start || t >= end) continue;
    out.requests += d.requests;
    out.unpriced += d.unpriced;
    out.cost += d.cost;
  }
  return out;
}

/** Why completions are stopped by money, for the status bar's sign and tooltip. */
export type CompletionStop =
  | { kind: 'budget'; status: BudgetStatus }
  | { kind: 'dailyCap'; cap: number; spent: number }
  /** a budget or the cap is set and the completion model has no known price: it could not be counted */
  | { kind: 'unpriced'; model: string };

export interface MoneyFacts {
  /** the budgets' statuses (modelgate.budget.*), reservations included */
  budgets: BudgetStatus[];
  /** modelgate.completions.dailyUsd; undefined = no cap */
  cap: number | undefined;
  /** today's completion spend plus what completion requests in flight reserved */
  spentToday: number;
  model: string;
  priced: boolean;
}

export function completionStop(f: MoneyFacts): CompletionStop | undefined {
  const over = exhausted(f.budgets);
  if (over) return { kind: 'budget', status: over };
  if (f.cap !== undefined && f.spentToday >= f.cap) return { kind: 'dailyCap', cap: f.cap, spent: f.spentToday };
  if (!f.priced && (f.budgets.length > 0 || f.cap !== undefined)) return { kind: 'unpriced', model: f.model };
  return undefined;
}

/** A request's cost from the gateway's usage, else from what the client knows (the prompt it sent, the text it got). */
export function requestCost(price: Price | undefined, usage: Usage): number | undefined {
  return price ? costOf(usage, price) : undefined;
}

/** What a request may cost, reserved while it runs: the prompt uncached plus the most it may answer (max_tokens is small). */
export function requestEstimate(price: Price | undefined, promptTokens: number, maxTokens: number): number {
  if (!price) return 0;
  return costOf({ promptTokens, cachedTokens: 0, completionTokens: maxTokens }, price);
}
