// The "Modelgate: Show Spending" page (src/spendingView/spendHtml.ts): its shell and CSP come from
// src/core/webviewShell.ts; every id that came from outside is escaped.
import * as assert from 'node:assert/strict';
import { summarizePeriod } from '../../../src/core/spend/spendBook';
import { byConversation, lastDays, periodStart } from '../../../src/core/spend/spendHistory';
import { buildSpendHtml } from '../../../src/spendingView/spendHtml';
import { fillSpend, spendEntry } from '../helpers';

describe('spend page', () => {
  it('the page has a strict CSP with the nonce and escapes ids that came from outside', () => {
    const s = fillSpend([spendEntry(Date.now(), 0.5, { source: 'lm', requester: '<img src=x onerror=alert(1)>' })]);
    const sum = summarizePeriod(s, 'day', Date.now());
    const html = buildSpendHtml({ today: sum, week: sum, month: sum, budgets: [], days: [], conversations: [] }, 'vscode-resource:', 'abcdefghijklmnop1234');
    assert.match(
      html,
      /Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;nonce-abcdefghijklmnop1234&#39;; script-src &#39;nonce-abcdefghijklmnop1234&#39;;/,
    );
    assert.ok(!html.includes('<img'), 'no raw markup from an extension id');
    assert.ok(!/unsafe-(inline|eval)|https?:\/\//.test(html.replace(/xmlns="http:\/\/www.w3.org\/2000\/svg"/g, '')));
    assert.throws(() => buildSpendHtml({ today: sum, week: sum, month: sum, budgets: [], days: [], conversations: [] }, 'x', "bad' nonce"));
    assert.throws(
      () => buildSpendHtml({ today: sum, week: sum, month: sum, budgets: [], days: [], conversations: [] }, "'unsafe-eval'", 'abcdefghijklmnop1234'),
      /cspSource/,
    );
  });

  it('a week or month identical to the shorter period before it is one line, not the same tables again', () => {
    const now = Date.now();
    const s = fillSpend([spendEntry(now, 0.5), spendEntry(now, 0.25, { model: 'long-context-tools' })]);
    const sum = summarizePeriod(s, 'day', now);
    const html = buildSpendHtml({ today: sum, week: sum, month: sum, budgets: [], days: [], conversations: [] }, 'vscode-resource:', 'abcdefghijklmnop1234');
    assert.equal(html.match(/By model/g)?.length, 1, 'the tables once, under Today');
    assert.match(html, /<section id="week">.*The same requests as today\./s);
    assert.match(html, /<section id="month">.*The same requests as today\./s);
    const more = summarizePeriod(fillSpend([spendEntry(now, 0.5), spendEntry(now, 0.25, { model: 'long-context-tools' }), spendEntry(now, 1)]), 'day', now);
    const differs = buildSpendHtml(
      { today: sum, week: more, month: more, budgets: [], days: [], conversations: [] },
      'vscode-resource:',
      'abcdefghijklmnop1234',
    );
    assert.equal(differs.match(/By model/g)?.length, 2, 'Today and This week each have their tables');
    assert.match(differs, /<section id="month">.*The same requests as this week\./s);
  });

  it('figures do not wrap at half width, and Export CSV… has a border in High Contrast themes', () => {
    const sum = summarizePeriod(fillSpend([spendEntry(Date.now(), 0.5)]), 'day', Date.now());
    const html = buildSpendHtml({ today: sum, week: sum, month: sum, budgets: [], days: [], conversations: [] }, 'vscode-resource:', 'abcdefghijklmnop1234');
    assert.match(html, /td\.n \{[^}]*white-space: nowrap/);
    assert.match(html, /@media \(max-width: 480px\) \{ td\.bar-cell \{ display: none; \}/);
    assert.match(html, /button \{[^}]*border: 1px solid var\(--vscode-button-border, var\(--vscode-contrastBorder, transparent\)\)/);
  });
});

describe('spend page: the last 30 days and the conversations', () => {
  it('a bar per day with its date and cost as hover text, and the conversations with titles escaped', () => {
    const now = Date.now();
    const s = fillSpend([
      spendEntry(now, 0.5, { conversation: 'c1', title: '<script>alert(1)</script>', promptTokens: 100, cachedTokens: 25 }),
      spendEntry(now - 86_400_000, 0.25),
    ]);
    const sum = summarizePeriod(s, 'day', now);
    const html = buildSpendHtml(
      { today: sum, week: sum, month: sum, budgets: [], days: lastDays(s, now), conversations: byConversation(s, periodStart(now), Infinity) },
      'vscode-resource:',
      'abcdefghijklmnop1234',
    );
    assert.equal(html.match(/<rect [^>]*data-day=/g)?.length, 30);
    assert.match(html, /<section id="days"><h2>Last 30 days: <span class="total" data-cost="0.75">\$0\.75<\/span>/);
    assert.match(html, /<title>\d+ \w+: \$0\.50<\/title>/);
    assert.match(html, /<section id="conversations">.*&lt;script&gt;alert\(1\)&lt;\/script&gt;.*\$0\.50.*25% cached/s);
    assert.ok(!html.includes('<script>alert'), 'a title is text');
  });

  it('no conversation yet: one line saying so', () => {
    const sum = summarizePeriod(fillSpend([]), 'day', Date.now());
    const html = buildSpendHtml({ today: sum, week: sum, month: sum, budgets: [], days: [], conversations: [] }, 'vscode-resource:', 'abcdefghijklmnop1234');
    assert.match(html, /No chat panel conversation spent anything yet\./);
  });
});
