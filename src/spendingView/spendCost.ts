// How the spending page writes a cost that may be partly or wholly unknown. Pure.
import { l10n } from '../core/l10n';
import { counted, pricedCost } from '../core/spend/usageTotals';

/** "$0.0123", "$0.0123 + 2 requests without a price", "unknown (2 requests without a price)" */
export function costText(cost: number, requests: number, unpriced: number): string {
  if (requests === 0) return '$0.00';
  if (unpriced === requests) return l10n.t('unknown ({0} without a price)', counted(unpriced, 'request'));
  return pricedCost(cost, unpriced);
}
