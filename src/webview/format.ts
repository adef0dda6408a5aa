// Number and cost formatting for the panel. Prices and cost arithmetic live in src/core; this
// only formats what the host computed.
import { formatUsd } from '../core/spend/cost';
import type { MessageStatus, UsageView } from '../chat/protocol';
import { l10n } from './panelL10n';

const int = new Intl.NumberFormat('en-US');

export function formatInt(n: number): string {
  return int.format(Math.round(n));
}

export { formatUsd };

/** 1_000_000 -> "1M", 200_000 -> "200k", 8192 -> "8k", 512 -> "512". */
export function formatTokenCount(n: number): string {
  if (n >= 1_000_000) return `${trimZero((n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 1))}M`;
  if (n >= 1_000) return `${trimZero((n / 1_000).toFixed(n >= 10_000 || n % 1_000 === 0 ? 0 : 1))}k`;
  return String(Math.round(n));
}

function trimZero(s: string): string {
  return s.replace(/\.0$/, '');
}

/**
 * "1,234 prompt (1,024 cached) · 321 completion · $0.0012 · flagship-text · stable". An answer
 * without a price says "no price" (never $0); a finished, stopped or failed answer the gateway
 * reported no usage for says "tokens not reported".
 */
export function formatUsageLine(usage: UsageView | undefined, model: string, channel: string, status?: MessageStatus): string {
  const parts: string[] = [];
  if (usage) {
    parts.push(
      usage.cachedTokens > 0
        ? l10n.t('{0} prompt ({1} cached)', formatInt(usage.promptTokens), formatInt(usage.cachedTokens))
        : l10n.t('{0} prompt', formatInt(usage.promptTokens)),
    );
    // reasoning tokens are part of the completion tokens (and of the cost): shown, not added
    parts.push(
      usage.reasoningTokens
        ? l10n.t('{0} completion ({1} reasoning)', formatInt(usage.completionTokens), formatInt(usage.reasoningTokens))
        : l10n.t('{0} completion', formatInt(usage.completionTokens)),
    );
    parts.push(usage.cost !== undefined && Number.isFinite(usage.cost) ? formatUsd(usage.cost) : l10n.t('no price'));
  } else if (status && status !== 'streaming') {
    parts.push(l10n.t('tokens not reported'));
  }
  if (model) parts.push(model);
  if (channel) parts.push(channel);
  return parts.join(' · ');
}

/** The header total: "$0.12", "$0.12 + 1 answer without a price", "cost unknown (2 answers without a price)". */
export function formatTotalCost(total: number | undefined, unpriced: number): string {
  const known = total !== undefined && Number.isFinite(total) && total > 0;
  const without = unpriced === 1 ? l10n.t('1 answer without a price') : l10n.t('{0} answers without a price', unpriced);
  if (!unpriced) return known ? formatUsd(total) : '';
  return known ? `${formatUsd(total)} + ${without}` : l10n.t('cost unknown ({0})', without);
}

/**
 * The header badge's short form, so a conversation with an answer that has no price (unpriced, or
 * stopped before its usage came) keeps the header on one row at 290 px: "≥ $0.0123" (at least
 * what is known), "no price" when nothing is; the badge's title and accessible name say it whole.
 */
export function formatTotalCostShort(total: number | undefined, unpriced: number): string {
  if (!unpriced) return formatTotalCost(total, unpriced);
  const known = total !== undefined && Number.isFinite(total) && total > 0;
  return known ? l10n.t('≥ {0}', formatUsd(total)) : l10n.t('no price');
}

/**
 * "12% of 1M tokens"; "<1%" for a sliver so an almost empty window does not read as 0. `detail`
 * is the meter's spoken value: "Context: 120,400 of 1,000,000 tokens (12%)".
 */
export function formatContextUse(tokens: number, window: number): { percent: number; text: string; detail: string } {
  if (!(window > 0)) return { percent: 0, text: `${formatInt(tokens)} tokens`, detail: `Context: ${formatInt(tokens)} tokens` };
  const percent = (tokens / window) * 100;
  const shown = tokens > 0 && percent < 1 ? '<1' : String(Math.round(percent));
  return {
    percent,
    text: `${shown}% of ${formatTokenCount(window)} tokens`,
    detail: `Context: ${formatInt(tokens)} of ${formatInt(window)} tokens (${shown}%)`,
  };
}
