// Session totals that survive a reload: unknown prices counted apart (never $0), bad stored data
// ignored, and "1 request" in the singular.
import * as assert from 'node:assert/strict';
import { addToTotals, emptyTotals, parseTotals, plural, totalsLine } from '../../../../src/core/spend/usageTotals';

describe('usage totals', () => {
  it('adds priced requests to the cost and counts unpriced ones apart', () => {
    let t = emptyTotals(1000);
    t = addToTotals(t, 0.25);
    t = addToTotals(t, undefined);
    t = addToTotals(t, Number.NaN);
    t = addToTotals(t, 0.5);
    assert.deepEqual(t, { since: 1000, requests: 4, cost: 0.75, unpriced: 2 });
  });
  it('round-trips through JSON (what globalState stores) and rejects malformed data', () => {
    const t = addToTotals(emptyTotals(1000), 0.1);
    assert.deepEqual(parseTotals(JSON.parse(JSON.stringify(t)), 2000), t);
    for (const bad of [
      undefined,
      null,
      'x',
      { requests: -1, cost: 0, unpriced: 0, since: 1 },
      { requests: 1, cost: 'x', unpriced: 0, since: 1 },
      { requests: 1, cost: 1, unpriced: 2, since: 1 },
      { requests: 1, cost: 1, unpriced: 0, since: 5000 },
    ]) {
      assert.deepEqual(parseTotals(bad, 2000), emptyTotals(2000), JSON.stringify(bad));
    }
  });
  it('says "1 request" and "2 requests"', () => {
    assert.equal(plural(1, 'request'), '1 request');
    assert.equal(plural(0, 'request'), '0 requests');
    assert.equal(plural(2, 'request'), '2 requests');
  });
});

describe('totalsLine (status-bar tooltip)', () => {
  it('says "1 request", and never shows an unknown price as $0', () => {
    const one = addToTotals(emptyTotals(0), 0.5);
    assert.match(totalsLine(one), /: 1 request · \$0\.50?\d*$/);
    const unknown = addToTotals(emptyTotals(0), undefined);
    assert.match(totalsLine(unknown), /1 request · cost unknown/);
    assert.doesNotMatch(totalsLine(unknown), /\$0/);
    const mixed = addToTotals(addToTotals(one, undefined), 0.25);
    assert.match(totalsLine(mixed), /3 requests · \$0\.75\d* \+ 1 request without a price/);
  });
});
