// Whether money stops completions now, from the live services: the budgets (with what requests
// in flight reserved), the completions' own daily cap, and whether the completion model has a
// price on its channel. The completions feature asks before each request; the status bar asks
// when it redraws, so its sign changes when a budget is raised or a new day begins.
import { completionSpendToday, completionStop, hourlyCostEstimate, type CompletionStop } from '../core/completions/completionCost';
import type { Price } from '../core/catalogue/modelCatalogue';
import type { Services } from './serviceContainer';

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

/** USD per hour of typing for a model on a channel (the pickers, the walkthrough); undefined without a price. */
export function hourlyEstimate(
  services: Pick<Services, 'catalogue'>,
  model: string,
  channel: Parameters<ReturnType<Services['catalogue']>['price']>[1],
): number | undefined {
  return hourlyCostEstimate(services.catalogue().price(model, channel));
}
