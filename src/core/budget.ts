// Budgets (modelgate.budget.dailyUsd / monthlyUsd): how much of each was spent in the current
// local day or month, when to warn (80 %, once per period) and when a request must be asked
// for (100 %). Requests without a known price cannot be counted in dollars: they are reported
// next to the figure ("+ 2 requests without a price"), never as $0. Pure, unit-tested.
import { formatUsd } from './cost';
import { localDay, summarizePeriod, type SpendState } from './spendBook';
import { plural } from './usageTotals';

export type BudgetKind = 'daily' | 'monthly';

export interface Budgets {
  dailyUsd?: number;
  monthlyUsd?: number;
}

export interface BudgetStatus {
  kind: BudgetKind;
  limit: number;
  /** USD of the priced requests in the period */
  spent: number;
  /** requests in the period without a known price */
  unpriced: number;
  /** spent / limit */
  ratio: number;
  /** identifies the period, so a warning is given once per day or month: "daily:2026-11-23" */
  periodKey: string;
}

export const WARN_RATIO = 0.8;

export const BUDGET_SETTING: Record<BudgetKind, string> = { daily: 'modelgate.budget.dailyUsd', monthly: 'modelgate.budget.monthlyUsd' };

/** Reads one budget setting: undefined/null = no budget; anything else must be a positive number. */
export function parseBudgetSetting(raw: unknown, name: string): { value?: number; problem?: string } {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw <= 0) {
    return { problem: `"${name}" must be a positive amount in US dollars (for example 5), or unset for no budget; it is ${JSON.stringify(raw)}. No ${name.endsWith('dailyUsd') ? 'daily' : 'monthly'} budget applies until it is fixed.` };
  }
  return { value: raw };
}

export function budgetStatuses(budgets: Budgets, state: SpendState, now: number): BudgetStatus[] {
  const out: BudgetStatus[] = [];
  const one = (kind: BudgetKind, limit: number | undefined) => {
    if (limit === undefined) return;
    const s = summarizePeriod(state, kind === 'daily' ? 'day' : 'month', now);
    out.push({ kind, limit, spent: s.cost, unpriced: s.unpriced, ratio: s.cost / limit, periodKey: `${kind}:${kind === 'daily' ? localDay(now) : localDay(now).slice(0, 7)}` });
  };
  one('daily', budgets.dailyUsd);
  one('monthly', budgets.monthlyUsd);
  return out;
}

/** The first budget that is used up (spent >= limit), if any. */
export function exhausted(statuses: BudgetStatus[]): BudgetStatus | undefined {
  return statuses.find((s) => s.spent >= s.limit);
}

/** What to warn about now: each budget past 80 % (or 100 %) whose warning was not given in this period. */
export function dueWarnings(statuses: BudgetStatus[], warned: ReadonlySet<string>): { status: BudgetStatus; key: string }[] {
  const out: { status: BudgetStatus; key: string }[] = [];
  for (const s of statuses) {
    const level = s.ratio >= 1 ? 100 : s.ratio >= WARN_RATIO ? 80 : 0;
    if (!level) continue;
    const key = `${s.periodKey}:${level}`;
    if (!warned.has(key)) out.push({ status: s, key });
  }
  return out;
}

const periodWord = (k: BudgetKind) => (k === 'daily' ? 'today' : 'this month');

/** "$0.0123 spent today (+ 2 requests without a price)" */
export function spentLine(s: BudgetStatus): string {
  return `${formatUsd(s.spent)} spent ${periodWord(s.kind)}${s.unpriced ? ` (+ ${plural(s.unpriced, 'request')} without a price, not counted)` : ''}`;
}

/** "Daily budget of $1.00 (modelgate.budget.dailyUsd) reached: $1.02 spent today." */
export function budgetMessage(s: BudgetStatus): string {
  const name = `${s.kind === 'daily' ? 'Daily' : 'Monthly'} budget of ${formatUsd(s.limit)} (${BUDGET_SETTING[s.kind]})`;
  if (s.ratio >= 1) return `${name} reached: ${spentLine(s)}.`;
  return `${name} is ${Math.floor(s.ratio * 100)} % used: ${spentLine(s)}.`;
}
