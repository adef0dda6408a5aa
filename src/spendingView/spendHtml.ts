// The "Modelgate: Show Spending" page. Pure, unit-tested in Node. Drawn
// entirely here: the bars are inline SVG rectangles, the style and the one small script carry
// the per-render nonce, and the CSP (src/core/webviewShell.ts) allows nothing else (no remote
// hosts, no 'unsafe-inline', no 'unsafe-eval'). Every text that came from outside (model ids,
// extension ids) is escaped.
import { budgetMessage, type BudgetStatus } from '../core/spend/budget';
import { formatUsd } from '../core/spend/cost';
import type { SpendRow, SpendSummary } from '../core/spend/spendBook';
import { l10n } from '../core/l10n';
import { counted } from '../core/spend/usageTotals';
import { costText } from './spendCost';
import { conversationsTable, daysChart } from './spendHistoryHtml';
import type { ConversationSpend, DaySpend } from '../core/spend/spendHistory';

export { costText };
import { escapeHtml, renderWebviewShell } from '../core/webviewShell';

export interface SpendPage {
  today: SpendSummary;
  week: SpendSummary;
  month: SpendSummary;
  budgets: BudgetStatus[];
  /** the last 30 local days, oldest first */
  days: DaySpend[];
  /** the panel conversations of those days, most expensive first */
  conversations: ConversationSpend[];
}

function rows(heading: string, list: SpendRow[]): string {
  if (!list.length) return '';
  const max = Math.max(...list.map((r) => r.cost), 0);
  const body = list
    .map((r) => {
      const w = max > 0 ? Math.max(1, Math.round((r.cost / max) * 120)) : 0;
      return `<tr><td>${escapeHtml(r.key)}</td><td class="n">${escapeHtml(counted(r.requests, 'request'))}</td><td class="n">${escapeHtml(costText(r.cost, r.requests, r.unpriced))}</td><td class="bar-cell"><svg width="120" height="10" role="img" aria-label="${escapeHtml(formatUsd(r.cost))}"><rect x="0" y="0" width="${w}" height="10" class="bar"></rect></svg></td></tr>`;
    })
    .join('');
  return `<h3>${escapeHtml(heading)}</h3><table>${body}</table>`;
}

function section(id: string, title: string, s: SpendSummary): string {
  const total = costText(s.cost, s.requests, s.unpriced);
  const tokens =
    l10n.t(
      '{0} prompt ({1} cached) · {2} completion tokens',
      s.promptTokens.toLocaleString('en-US'),
      s.cachedTokens.toLocaleString('en-US'),
      s.completionTokens.toLocaleString('en-US'),
    ) + (s.images ? ` · ${counted(s.images, 'image')}` : '');
  return `<section id="${id}"><h2>${escapeHtml(title)}: <span class="total" data-cost="${s.cost}" data-requests="${s.requests}" data-unpriced="${s.unpriced}">${escapeHtml(total)}</span></h2>
<p class="sub">${escapeHtml(counted(s.requests, 'request'))}${s.requests ? ` · ${escapeHtml(tokens)}` : ''}</p>
${rows(l10n.t('By model'), s.byModel)}${rows(l10n.t('By channel'), s.byChannel)}${rows(l10n.t('By source'), s.bySource)}</section>`;
}

/** Same requests and cost: a period that holds nothing more than the shorter one before it. */
function samePeriod(a: SpendSummary, b: SpendSummary): boolean {
  return a.requests === b.requests && a.cost === b.cost && a.unpriced === b.unpriced && a.images === b.images && a.promptTokens === b.promptTokens;
}

/** A period identical to the one before it is one line, not the same tables again. */
function sameAs(id: string, title: string, s: SpendSummary, earlier: string): string {
  return `<section id="${id}"><h2>${escapeHtml(title)}: <span class="total" data-cost="${s.cost}" data-requests="${s.requests}" data-unpriced="${s.unpriced}">${escapeHtml(costText(s.cost, s.requests, s.unpriced))}</span></h2>
<p class="sub same">${escapeHtml(l10n.t('The same requests as {0}.', earlier))}</p></section>`;
}

// Cells do not wrap (a half-width editor showed four lines per cell): the model column breaks
// long ids anywhere, the figures stay on one line, and the bars go below 480 px.
const STYLE = `body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 16px; }
table { border-collapse: collapse; margin-bottom: 8px; max-width: 100%; }
td { padding: 2px 12px 2px 0; }
td:first-child { overflow-wrap: anywhere; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
@media (max-width: 480px) { td.bar-cell { display: none; } td { padding-right: 8px; } }
.bar { fill: var(--vscode-charts-blue, var(--vscode-foreground)); }
.sub { color: var(--vscode-descriptionForeground); }
.near { color: var(--vscode-editorWarning-foreground); }
.over { color: var(--vscode-errorForeground); font-weight: bold; }
button { color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: 1px solid var(--vscode-button-border, var(--vscode-contrastBorder, transparent)); padding: 4px 12px; cursor: pointer; }
button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
button:hover { background: var(--vscode-button-hoverBackground); }
h3 { font-size: 1em; margin: 8px 0 2px; }
th { text-align: left; font-weight: normal; color: var(--vscode-descriptionForeground); padding: 2px 12px 2px 0; white-space: nowrap; }
th.n { text-align: right; }
td.title span { display: block; max-width: 40vw; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
@media (max-width: 480px) { .req { display: none; } }
svg.days { display: block; width: 100%; max-width: 600px; height: 48px; }
svg.days .none { fill: var(--vscode-descriptionForeground); opacity: 0.4; }
.axis { display: flex; justify-content: space-between; max-width: 600px; margin-top: 2px; font-size: 0.9em; }
`;

const SCRIPT = `const vscode = acquireVsCodeApi();
document.getElementById('export').addEventListener('click', () => vscode.postMessage({ type: 'exportCsv' }));
`;

/** The page; the shell (webviewShell.ts) refuses a nonce or cspSource that could rewrite its CSP. */
export function buildSpendHtml(page: SpendPage, cspSource: string, nonce: string): string {
  const budgets = page.budgets.length
    ? page.budgets.map((b) => `<p class="${b.ratio >= 1 ? 'over' : b.ratio >= 0.8 ? 'near' : ''}">${escapeHtml(budgetMessage(b))}</p>`).join('')
    : `<p class="sub">${escapeHtml(l10n.t('No budget set ("modelgate.budget.dailyUsd", "modelgate.budget.monthlyUsd").'))}</p>`;
  return renderWebviewShell({
    cspSource,
    nonce,
    title: l10n.t('Modelgate Spending'),
    style: { inline: STYLE },
    body: `<h1>${escapeHtml(l10n.t('Spending'))}</h1>
<div id="budgets">${budgets}</div>
<p><button id="export" type="button">${escapeHtml(l10n.t('Export CSV…'))}</button> <span class="sub">${escapeHtml(l10n.t('Costs are computed from your configured prices ("modelgate.models"); requests without a price are counted apart, never as $0.'))}</span></p>
${daysChart(page.days)}
${conversationsTable(page.conversations, page.days.length)}
${section('today', l10n.t('Today'), page.today)}
${samePeriod(page.week, page.today) ? sameAs('week', l10n.t('This week'), page.week, l10n.t('today')) : section('week', l10n.t('This week'), page.week)}
${
  samePeriod(page.month, page.week)
    ? sameAs('month', l10n.t('This month'), page.month, samePeriod(page.week, page.today) ? l10n.t('today') : l10n.t('this week'))
    : section('month', l10n.t('This month'), page.month)
}`,
    script: { inline: SCRIPT },
  });
}
