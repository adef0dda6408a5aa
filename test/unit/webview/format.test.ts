// The usage line and the header total: stopped or failed answers keep their reported tokens or
// say "tokens not reported"; an unknown price is said, never shown as $0.
import * as assert from 'node:assert/strict';
import { formatContextUse, formatTotalCost, formatUsageLine } from '../../../src/webview/format';

describe('webview usage formatting', () => {
  const usage = { promptTokens: 1234, cachedTokens: 1024, completionTokens: 321 };
  it('shows the tokens and cost of a stopped or failed answer, or says they were not reported', () => {
    assert.equal(formatUsageLine({ ...usage, cost: 0.0012 }, 'm', 'stable', 'stopped'), '1,234 prompt (1,024 cached) · 321 completion · $0.0012 · m · stable');
    assert.equal(formatUsageLine(undefined, 'm', 'stable', 'error'), 'tokens not reported · m · stable');
    assert.equal(formatUsageLine(undefined, 'm', 'stable', 'stopped'), 'tokens not reported · m · stable');
    assert.equal(formatUsageLine(undefined, 'm', 'stable', 'streaming'), 'm · stable');
  });
  it('says "no price" instead of a cost it does not know', () => {
    assert.equal(formatUsageLine(usage, 'm', '', 'done'), '1,234 prompt (1,024 cached) · 321 completion · no price · m');
  });
  it('the header total says when some answers had no price, never $0 for an unknown', () => {
    assert.equal(formatTotalCost(0.12, 0), '$0.12');
    assert.equal(formatTotalCost(undefined, 0), '');
    assert.equal(formatTotalCost(0.12, 1), '$0.12 + 1 answer without a price');
    assert.equal(formatTotalCost(undefined, 2), 'cost unknown (2 answers without a price)');
    assert.equal(formatTotalCost(0, 1), 'cost unknown (1 answer without a price)');
  });

  it("says the context use in short and, for the meter's spoken value, in full", () => {
    assert.deepEqual(formatContextUse(12_400, 128_000), { percent: 9.6875, text: '10% of 128k tokens', detail: 'Context: 12,400 of 128,000 tokens (10%)' });
    assert.equal(formatContextUse(1_332, 1_000_000).detail, 'Context: 1,332 of 1,000,000 tokens (<1%)');
    assert.equal(formatContextUse(0, 1_000_000).detail, 'Context: 0 of 1,000,000 tokens (0%)');
    assert.equal(formatContextUse(500, 0).detail, 'Context: 500 tokens');
  });
});
