// Cost of one answer. Cached prompt tokens are part of promptTokens (as the gateway reports
// them), so they are billed once, at the cache price, and only the rest at the input price.
// Tools that added them on top billed users twice.
import type { Price } from '../catalogue/modelCatalogue';
import type { Usage } from '../client/types';

export function costOf(usage: Usage, price: Price): number {
  const cached = Math.min(Math.max(usage.cachedTokens, 0), usage.promptTokens);
  const uncached = usage.promptTokens - cached;
  const cachePrice = price.cacheRead ?? price.input;
  return (uncached * price.input + cached * cachePrice + usage.completionTokens * price.output) / 1_000_000;
}

/** "$0.0123" with enough digits that a small request does not read as free. */
export function formatUsd(amount: number): string {
  if (amount === 0) return '$0.00';
  // trailing zeros beyond the cents carry no information: $0.5000 -> $0.50, $0.01230 -> $0.0123
  const trim = (s: string) => s.replace(/(\.\d\d\d*?)0+$/, '$1');
  if (amount < 0.01) return `$${trim(amount.toFixed(5))}`;
  if (amount < 1) return `$${trim(amount.toFixed(4))}`;
  return `$${amount.toFixed(2)}`;
}
