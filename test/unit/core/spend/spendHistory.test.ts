// What each task cost afterwards: spend by conversation (newest title, total, share cached) and
// the cost of each of the last 30 local days, from raw entries and folded days alike; and the
// CSV's conversation columns, through the same injection rules as every other cell.
import * as assert from 'node:assert/strict';
import { spendCsv } from '../../../../src/core/spend/spendCsv';
import { byConversation, cachedShare, lastDays, periodStart } from '../../../../src/core/spend/spendHistory';
import { fillSpend, spendEntry } from '../../helpers';

const NOW = new Date(2026, 10, 25, 15).getTime();
const DAY = 86_400_000;

describe('spend history', () => {
  it('by conversation: the newest title, the total, the share of the prompt read from the cache; most expensive first', () => {
    const s = fillSpend([
      spendEntry(NOW - 3000, 0.01, { conversation: 'c1', title: 'Fix the parser', promptTokens: 1000, cachedTokens: 0 }),
      spendEntry(NOW - 2000, 0.02, { conversation: 'c1', title: 'Parser: the long line', promptTokens: 1000, cachedTokens: 800 }),
      spendEntry(NOW - 1000, 0.05, { conversation: 'c2', title: 'Logo', source: 'panel', images: 1, promptTokens: 0, cachedTokens: 0 }),
      spendEntry(NOW - 500, 0.5, { source: 'lm' }), // not a conversation
      spendEntry(NOW - 40 * DAY, 9, { conversation: 'c3', title: 'old' }), // before the period
    ]);
    const rows = byConversation(s, periodStart(NOW), Infinity);
    assert.deepEqual(
      rows.map((r) => [r.conversation, r.title, r.requests, +r.cost.toFixed(6), Math.round(cachedShare(r) * 100)]),
      [
        ['c2', 'Logo', 1, 0.05, 0],
        ['c1', 'Parser: the long line', 2, 0.03, 40],
      ],
    );
  });

  it('folded days count in both views, and a conversation with no title shows the start of its id', () => {
    const s = fillSpend(
      [
        spendEntry(NOW - 2 * DAY, 0.25, { conversation: 'abcdef123456', promptTokens: 100, cachedTokens: 50 }),
        spendEntry(NOW - 2 * DAY + 1, 0.25, { conversation: 'abcdef123456', promptTokens: 100, cachedTokens: 50 }),
        spendEntry(NOW, 0.125),
      ],
      1,
    );
    assert.equal(s.days.length, 1, 'two folded into one day');
    const [row] = byConversation(s, periodStart(NOW), Infinity);
    assert.equal(row!.title, 'abcdef12');
    assert.equal(row!.requests, 2);
    assert.equal(row!.cost, 0.5);
    const days = lastDays(s, NOW);
    assert.equal(days.length, 30);
    assert.equal(days[29]!.cost, 0.125, 'today last');
    assert.equal(days[27]!.cost, 0.5, 'two days ago, from the folded day');
    assert.equal(
      days.reduce((n, d) => n + d.requests, 0),
      3,
    );
  });

  it('the CSV has the conversation title (as it is now) and id, neutralised like any cell', () => {
    const s = fillSpend([
      spendEntry(NOW - 2000, 0.01, { conversation: 'c1', title: 'first' }),
      spendEntry(NOW - 1000, 0.01, { conversation: 'c1', title: '=HYPERLINK("http://x")' }),
      spendEntry(NOW, 0.01, { source: 'lm' }),
    ]);
    const lines = spendCsv(s).trim().split('\r\n');
    assert.match(lines[0]!, /,conversation,conversation_id$/);
    assert.ok(lines[1]!.endsWith(`,"'=HYPERLINK(""http://x"")",c1`), lines[1]);
    assert.ok(lines[2]!.endsWith(`,"'=HYPERLINK(""http://x"")",c1`));
    assert.ok(lines[3]!.endsWith(',0,,'), 'a request of no conversation: empty cells');
  });
});
