// The spend ledger and budgets: local-time period boundaries, the
// bounded ledger (old entries folded into day aggregates keep the totals exact), unknown prices
// counted apart and never as $0, once-per-period warnings, and injection-safe CSV cells.
import * as assert from 'node:assert/strict';
import { budgetMessage, budgetStatuses, dueWarnings, exhausted, parseBudgetSetting } from '../../../../src/core/spend/budget';
import { addSpend, emptySpend, localDay, parseSpend, periodRange, summarize, summarizePeriod, type SpendEntry } from '../../../../src/core/spend/spendBook';
import { csvCell, spendCsv } from '../../../../src/core/spend/spendCsv';
import { costText } from '../../../../src/spendingView/spendHtml';
import { fillSpend, spendEntry } from '../../helpers';

const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min).getTime();

describe('spend ledger: periods in local time', () => {
  it('a day runs from local midnight to local midnight', () => {
    const r = periodRange('day', at(2026, 11, 23, 0, 0));
    assert.equal(r.start, at(2026, 11, 23, 0, 0));
    assert.equal(r.end, at(2026, 11, 24, 0, 0));
    assert.equal(periodRange('day', at(2026, 11, 23, 23, 59)).start, r.start);
    assert.equal(localDay(at(2026, 11, 23, 23, 59)), '2026-11-23');
    assert.equal(localDay(at(2026, 11, 24, 0, 0)), '2026-11-24');
  });
  it('a week starts on Monday (also across a month end), a month on the 1st', () => {
    // Sunday 29 Nov 2026 belongs to the week of Monday 23 Nov; Monday 30 Nov starts the next
    assert.equal(periodRange('week', at(2026, 11, 29, 22)).start, at(2026, 11, 23, 0));
    assert.equal(periodRange('week', at(2026, 11, 30, 1)).start, at(2026, 11, 30, 0));
    assert.equal(periodRange('week', at(2026, 12, 2)).start, at(2026, 11, 30, 0));
    assert.equal(periodRange('month', at(2026, 12, 31, 23, 59)).start, at(2026, 12, 1, 0));
    assert.equal(periodRange('month', at(2026, 12, 31, 23, 59)).end, at(2027, 1, 1, 0));
  });
  it('counts a request just before midnight in that day, not the next', () => {
    const s = fillSpend([spendEntry(at(2026, 11, 23, 23, 59), 1), spendEntry(at(2026, 11, 24, 0, 0), 2)]);
    assert.equal(summarizePeriod(s, 'day', at(2026, 11, 23, 8)).cost, 1);
    assert.equal(summarizePeriod(s, 'day', at(2026, 11, 24, 8)).cost, 2);
    assert.equal(summarizePeriod(s, 'month', at(2026, 11, 24, 8)).cost, 3);
  });
});

describe('spend ledger: bounded, totals exact', () => {
  it('folds the oldest entries into day aggregates beyond the raw limit; totals do not change', () => {
    const entries: SpendEntry[] = [];
    for (let i = 0; i < 50; i++)
      entries.push(
        spendEntry(at(2026, 11, 1 + (i % 20), 10, i), i % 7 === 0 ? undefined : 0.001 * i, {
          source: i % 3 ? 'panel' : 'lm',
          requester: i % 3 ? undefined : 'pub.other',
        }),
      );
    const unbounded = fillSpend(entries, 10_000);
    const bounded = fillSpend(entries, 10);
    assert.equal(bounded.entries.length, 10);
    assert.ok(bounded.days.length > 0);
    for (const p of ['day', 'week', 'month'] as const) {
      for (const day of [1, 5, 12, 20]) {
        const a = summarizePeriod(unbounded, p, at(2026, 11, day));
        const b = summarizePeriod(bounded, p, at(2026, 11, day));
        assert.equal(b.requests, a.requests);
        assert.equal(b.unpriced, a.unpriced);
        assert.equal(Math.round(b.cost * 1e6), Math.round(a.cost * 1e6));
        assert.equal(b.promptTokens, a.promptTokens);
        assert.deepEqual(b.bySource.map((r) => r.key).sort(), a.bySource.map((r) => r.key).sort());
      }
    }
  });
  it('round-trips through JSON (globalState) and drops malformed parts', () => {
    const s = fillSpend([spendEntry(at(2026, 11, 2), 0.5), spendEntry(at(2026, 11, 3), undefined), spendEntry(at(2026, 11, 4), 0.25)], 2);
    assert.deepEqual(parseSpend(JSON.parse(JSON.stringify(s))), s);
    const bad = { entries: [spendEntry(1, -1), { ...spendEntry(1, 1), model: 5 }, spendEntry(at(2026, 11, 4), 0.25), 'x', null], days: [{ day: 'nope' }] };
    const parsed = parseSpend(bad);
    assert.equal(parsed.entries.length, 1);
    assert.equal(parsed.days.length, 0);
    assert.deepEqual(parseSpend(undefined), emptySpend());
    assert.deepEqual(parseSpend('garbage'), emptySpend());
  });
  it('an unknown price is counted apart and never shown as $0', () => {
    const s = fillSpend([spendEntry(at(2026, 11, 2), undefined), spendEntry(at(2026, 11, 2), undefined)]);
    const sum = summarize(s, at(2026, 11, 1, 0), at(2026, 12, 1, 0));
    assert.equal(sum.unpriced, 2);
    assert.equal(sum.cost, 0);
    assert.equal(costText(sum.cost, sum.requests, sum.unpriced), 'unknown (2 requests without a price)');
    assert.equal(costText(0.5, 3, 1), '$0.50 + 1 request without a price');
    assert.equal(costText(0, 0, 0), '$0.00');
  });
});

describe('budgets', () => {
  const now = at(2026, 11, 23, 15);
  it('reads the settings: unset is no budget, anything but a positive number is a clear problem', () => {
    assert.deepEqual(parseBudgetSetting(undefined, 'modelgate.budget.dailyUsd'), {});
    assert.deepEqual(parseBudgetSetting(null, 'modelgate.budget.dailyUsd'), {});
    assert.deepEqual(parseBudgetSetting(2.5, 'modelgate.budget.dailyUsd'), { value: 2.5 });
    for (const bad of [0, -1, '5', Number.NaN, true]) {
      const r = parseBudgetSetting(bad, 'modelgate.budget.dailyUsd');
      assert.equal(r.value, undefined);
      assert.match(r.problem!, /"modelgate\.budget\.dailyUsd" must be a positive amount in US dollars/);
    }
  });
  it('measures the daily budget against today and the monthly against this month (local time)', () => {
    const s = fillSpend([
      spendEntry(at(2026, 10, 31, 23), 5),
      spendEntry(at(2026, 11, 22, 23, 59), 1),
      spendEntry(at(2026, 11, 23, 0, 1), 0.5),
      spendEntry(at(2026, 11, 23, 9), undefined),
    ]);
    const [daily, monthly] = budgetStatuses({ dailyUsd: 1, monthlyUsd: 2 }, s, now);
    assert.equal(daily!.spent, 0.5);
    assert.equal(daily!.unpriced, 1);
    assert.equal(daily!.periodKey, 'daily:2026-11-23');
    assert.equal(monthly!.spent, 1.5);
    assert.equal(monthly!.periodKey, 'monthly:2026-11');
    assert.equal(exhausted([daily!, monthly!]), undefined);
    assert.match(
      budgetMessage(daily!),
      /^Daily budget of \$1\.00 \(modelgate\.budget\.dailyUsd\) is 50 % used: \$0\.50 spent today \(\+ 1 request without a price, not counted\)\.$/,
    );
    assert.deepEqual(budgetStatuses({}, s, now), []);
  });
  it('is used up at 100 % and warns at 80 % and 100 %, each once per period', () => {
    const s = fillSpend([spendEntry(at(2026, 11, 23, 9), 0.85)]);
    let st = budgetStatuses({ dailyUsd: 1 }, s, now);
    assert.equal(exhausted(st), undefined);
    let due = dueWarnings(st, new Set());
    assert.deepEqual(
      due.map((d) => d.key),
      ['daily:2026-11-23:80'],
    );
    assert.deepEqual(dueWarnings(st, new Set(['daily:2026-11-23:80'])), []);
    // the next day starts afresh
    assert.deepEqual(
      dueWarnings(
        budgetStatuses({ dailyUsd: 0.5 }, fillSpend([spendEntry(at(2026, 11, 24, 9), 0.45)]), at(2026, 11, 24, 10)),
        new Set(['daily:2026-11-23:80']),
      ).map((d) => d.key),
      ['daily:2026-11-24:80'],
    );
    st = budgetStatuses({ dailyUsd: 1 }, addSpend(s, spendEntry(at(2026, 11, 23, 10), 0.15)), now);
    assert.equal(exhausted(st)?.kind, 'daily');
    due = dueWarnings(st, new Set(['daily:2026-11-23:80']));
    assert.deepEqual(
      due.map((d) => d.key),
      ['daily:2026-11-23:100'],
    );
    assert.match(budgetMessage(st[0]!), /Daily budget of \$1\.00 \(modelgate\.budget\.dailyUsd\) reached: \$1\.00 spent today\./);
  });
  it('unpriced requests never use up a budget on their own (they cannot be counted in dollars)', () => {
    const s = fillSpend([spendEntry(at(2026, 11, 23, 9), undefined), spendEntry(at(2026, 11, 23, 9), undefined)]);
    const st = budgetStatuses({ dailyUsd: 0.01 }, s, now);
    assert.equal(exhausted(st), undefined);
    assert.equal(st[0]!.unpriced, 2);
  });
});

describe('spend CSV', () => {
  it('neutralizes cells a spreadsheet would run as formulas, and quotes separators', () => {
    assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    for (const c of ['+1', '-1', '@SUM(A1)', '\tx', '\rx']) assert.ok(csvCell(c).startsWith(`"'`), c);
    assert.equal(csvCell('flagship-text'), 'flagship-text');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell(undefined), '');
    assert.equal(csvCell(0.25), '0.25');
  });
  it('writes one line per request and per older day; an unknown cost is an empty cell, not 0', () => {
    const s = fillSpend(
      [spendEntry(at(2026, 11, 2), 0.5), spendEntry(at(2026, 11, 3), undefined, { model: '=cmd|calc' }), spendEntry(at(2026, 11, 4), 0.25)],
      2,
    );
    const lines = spendCsv(s).trimEnd().split('\r\n');
    assert.equal(lines.length, 4);
    assert.match(lines[0]!, /^time,day,source,/);
    assert.match(lines[1]!, /^,2026-11-02,chat panel,1,flagship-text,stable,100,20,10,0,0.5,0,,$/);
    assert.ok(lines[2]!.includes(`"'=cmd|calc"`), lines[2]);
    assert.match(lines[2]!, /,,1,,$/);
  });
});

describe('image prices in the catalogue', () => {
  it('prices an image run per model, quality and size; no price is undefined, never 0', async () => {
    const { ModelCatalogue } = await import('../../../../src/core/catalogue/modelCatalogue');
    const c = ModelCatalogue.build({
      overrides: { 'image-restricted': { kind: 'image', prices: { standard: { '1024x1024': 0.04 }, hd: { '1792x1024': 0.12 } } } },
    });
    assert.equal(c.imageCost('image-restricted', '1024x1024', 2), 0.08);
    assert.equal(c.imageCost('image-restricted', '1024x1024', 1, 'standard'), 0.04);
    assert.equal(c.imageCost('image-restricted', '1792x1024', 1, 'hd'), 0.12);
    assert.equal(c.imageCost('image-restricted', '1792x1024', 1), undefined);
    assert.equal(c.imageCost('image-small', '256x256', 1), undefined);
    assert.deepEqual(c.imageModel('image-restricted')!.sizes, ModelCatalogue.build({}).imageModel('image-restricted')!.sizes, 'the built-in sizes stay');
    assert.ok(ModelCatalogue.build({ overrides: { x: { kind: 'image', prices: { standard: { '1024x1024': -1 } } } } }).problems.length > 0);
  });
});
