// Budgets (modelgate.budget.dailyUsd / monthlyUsd): how much of each was spent in the current
// local day or month, when to warn (80 %, once per period) and when a request must be asked
// for (100 %). Requests without a known price cannot be counted in dollars: they are reported
// next to the figure ("+ 2 requests without a price"), never as $0. Pure, unit-tested.
import { formatUsd } from './cost';
import { localDay, summarizePeriod, type SpendState } from './spendBook';
import { l10n } from '../l10n';

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
    const value = JSON.stringify(raw) ?? String(raw);
    return {
      problem: name.endsWith('dailyUsd')
        ? l10n.t(
            '"{0}" must be a positive amount in US dollars (for example 5), or unset for no budget; it is {1}. No daily budget applies until it is fixed.',
            name,
            value,
          )
        : l10n.t(
            '"{0}" must be a positive amount in US dollars (for example 5), or unset for no budget; it is {1}. No monthly budget applies until it is fixed.',
            name,
            value,
          ),
    };
  }
  return { value: raw };
}

export function budgetStatuses(budgets: Budgets, state: SpendState, now: number): BudgetStatus[] {
  const out: BudgetStatus[] = [];
  const one = (kind: BudgetKind, limit: number | undefined) => {
    if (limit === undefined) return;
    const s = summarizePeriod(state, kind === 'daily' ? 'day' : 'month', now);
    out.push({
      kind,
      limit,
      spent: s.cost,
      unpriced: s.unpriced,
      ratio: s.cost / limit,
      periodKey: `${kind}:${kind === 'daily' ? localDay(now) : localDay(now).slice(0, 7)}`,
    });
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

/** "$0.0123 spent today (+ 2 requests without a price, not counted)" */
export function spentLine(s: BudgetStatus): string {
  const spent = s.kind === 'daily' ? l10n.t('{0} spent today', formatUsd(s.spent)) : l10n.t('{0} spent this month', formatUsd(s.spent));
  if (!s.unpriced) return spent;
  const unpriced =
    s.unpriced === 1 ? l10n.t('(+ 1 request without a price, not counted)') : l10n.t('(+ {0} requests without a price, not counted)', s.unpriced);
  return `${spent} ${unpriced}`;
}

/** "Daily budget of $1.00 (modelgate.budget.dailyUsd) reached: $1.02 spent today." */
export function budgetMessage(s: BudgetStatus): string {
  const limit = formatUsd(s.limit);
  const setting = BUDGET_SETTING[s.kind];
  const spent = spentLine(s);
  if (s.ratio >= 1) {
    return s.kind === 'daily'
      ? l10n.t('Daily budget of {0} ({1}) reached: {2}.', limit, setting, spent)
      : l10n.t('Monthly budget of {0} ({1}) reached: {2}.', limit, setting, spent);
  }
  const used = Math.floor(s.ratio * 100);
  return s.kind === 'daily'
    ? l10n.t('Daily budget of {0} ({1}) is {2} % used: {3}.', limit, setting, used, spent)
    : l10n.t('Monthly budget of {0} ({1}) is {2} % used: {3}.', limit, setting, used, spent);
}
