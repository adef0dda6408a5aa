// Whether money stops completions now, from the live services: the budgets (with what requests
// in flight reserved), the completions' own daily cap, and whether the completion model has a
// price on its channel. The completions feature asks before each request; the status bar asks
// when it redraws, so its sign changes when a budget is raised or a new day begins.
import * as vscode from 'vscode';
import { completionSpendToday, completionStop, hourlyCostEstimate, type CompletionStop } from '../core/completions/completionCost';
import { CHANNEL_INFO, type ChannelChoice, type Price } from '../core/catalogue/modelCatalogue';
import { budgetMessage } from '../core/spend/budget';
import { formatUsd } from '../core/spend/cost';
import type { Services } from '../services/serviceContainer';

export interface CompletionMoney {
  stop: CompletionStop | undefined;
  model: string;
  price: Price | undefined;
  /** USD spent on completions today (priced requests) */
  spentToday: number;
  requestsToday: number;
  unpricedToday: number;
}

/** `reserved`: what completion requests in flight reserved (they count against the daily cap). */
export function completionMoney(services: Pick<Services, 'settings' | 'catalogue' | 'usage' | 'budget'>, reserved = 0, now = Date.now()): CompletionMoney {
  const c = services.settings().completions;
  const price = services.catalogue().price(c.model, c.channel);
  const today = completionSpendToday(services.usage.spend(), now);
  const stop = completionStop({
    budgets: services.budget.statuses(now),
    cap: c.dailyUsd,
    spentToday: today.cost + reserved,
    model: c.model,
    priced: !!price,
  });
  return { stop, model: c.model, price, spentToday: today.cost, requestsToday: today.requests, unpricedToday: today.unpriced };
}

/** "about $2.59 per hour of typing", or why there is no figure. */
export function hourlyText(services: Pick<Services, 'catalogue'>, model: string, channel: ChannelChoice): string {
  const usd = hourlyCostEstimate(services.catalogue().price(model, channel));
  return usd === undefined
    ? vscode.l10n.t('cost per hour unknown: no price is configured for {0} on {1}', model, CHANNEL_INFO[channel].label)
    : vscode.l10n.t('about {0} per hour of typing', formatUsd(usd));
}

/** Why money stops completions, one sentence. */
export function stopText(stop: CompletionStop): string {
  if (stop.kind === 'budget') return vscode.l10n.t('Stopped: {0}', budgetMessage(stop.status));
  if (stop.kind === 'dailyCap')
    return vscode.l10n.t(
      'Stopped for today: completions spent {0} of their daily cap of {1} (modelgate.completions.dailyUsd).',
      formatUsd(stop.spent),
      formatUsd(stop.cap),
    );
  return vscode.l10n.t(
    'Stopped: no price is known for "{0}", so completions cannot be counted against your budget. Set its price in "modelgate.models".',
    stop.model,
  );
}
