// The "last 30 days" chart and the "by conversation" table of the spending page. Plain inline
// SVG and a table: no chart library, no script, nothing the page's strict CSP would have to
// allow. Each day's bar carries its date and cost as an SVG <title> (the hover text) and the
// chart as a whole an aria-label. Titles come from the user's conversations: escaped, on one
// line (cut with an ellipsis, the whole title on hover). Pure.
import { formatUsd } from '../core/spend/cost';
import { cachedShare, type ConversationSpend, type DaySpend } from '../core/spend/spendHistory';
import { l10n } from '../core/l10n';
import { counted } from '../core/spend/usageTotals';
import { escapeHtml } from '../core/webviewShell';
import { costText } from './spendCost';

const BAR = 8;
const GAP = 2;
const HEIGHT = 48;

/** "25 Nov" from "2026-11-25" (English month names, as the rest of the page's dates) */
function shortDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d!).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
}

/** One bar per day, oldest on the left; a day without spend is a hairline, so the days stay countable. */
export function daysChart(days: readonly DaySpend[]): string {
  if (!days.length) return '';
  const max = Math.max(...days.map((d) => d.cost), 0);
  const total = days.reduce((s, d) => s + d.cost, 0);
  const width = days.length * (BAR + GAP) - GAP;
  const bars = days
    .map((d, i) => {
      const h = max > 0 && d.cost > 0 ? Math.max(2, Math.round((d.cost / max) * HEIGHT)) : 1;
      const cls = d.cost > 0 ? 'bar' : 'bar none';
      const tip = `${shortDay(d.day)}: ${costText(d.cost, d.requests, d.unpriced)}`;
      return `<rect x="${i * (BAR + GAP)}" y="${HEIGHT - h}" width="${BAR}" height="${h}" class="${cls}" data-day="${d.day}" data-cost="${d.cost}"><title>${escapeHtml(tip)}</title></rect>`;
    })
    .join('');
  const label = l10n.t('Spending of the last {0} days: {1} in all, at most {2} a day', days.length, formatUsd(total), formatUsd(max));
  return `<section id="days"><h2>${escapeHtml(l10n.t('Last {0} days', days.length))}: <span class="total" data-cost="${total}">${escapeHtml(formatUsd(total))}</span></h2>
<svg class="days" viewBox="0 0 ${width} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(label)}">${bars}</svg>
<p class="sub axis"><span>${escapeHtml(shortDay(days[0]!.day))}</span><span>${escapeHtml(l10n.t('highest day: {0}', formatUsd(max)))}</span><span>${escapeHtml(shortDay(days[days.length - 1]!.day))}</span></p></section>`;
}

/** The conversations of the period, most expensive first: title, requests, total, share of the prompt read from the cache. */
export function conversationsTable(rows: readonly ConversationSpend[], days: number): string {
  const heading = `<h2>${escapeHtml(l10n.t('By conversation (last {0} days)', days))}</h2>`;
  if (!rows.length)
    return `<section id="conversations">${heading}<p class="sub">${escapeHtml(l10n.t('No chat panel conversation spent anything yet.'))}</p></section>`;
  const body = rows
    .map((r) => {
      const share = Math.round(cachedShare(r) * 100);
      return `<tr data-conversation="${escapeHtml(r.conversation)}"><td class="title"><span title="${escapeHtml(r.title)}">${escapeHtml(r.title)}</span></td><td class="n req">${escapeHtml(counted(r.requests, 'request'))}</td><td class="n">${escapeHtml(costText(r.cost, r.requests, r.unpriced))}</td><td class="n">${escapeHtml(l10n.t('{0}% cached', share))}</td></tr>`;
    })
    .join('');
  return `<section id="conversations">${heading}<table><tr class="head"><th>${escapeHtml(l10n.t('Conversation'))}</th><th class="n req">${escapeHtml(l10n.t('Requests'))}</th><th class="n">${escapeHtml(l10n.t('Total'))}</th><th class="n">${escapeHtml(l10n.t('Prompt cached'))}</th></tr>${body}</table></section>`;
}
