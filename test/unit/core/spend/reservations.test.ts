// Budgets under bursts: each request reserves its estimated cost before it
// is sent and settles it when its cost is recorded; a budget counts what is reserved, so a burst
// stops once spent + reserved reaches it and passes it by at most the last request's estimate.
import * as assert from 'node:assert/strict';
import { budgetMessage, budgetStatuses, exhausted } from '../../../../src/core/spend/budget';
import { addSpend, emptySpend } from '../../../../src/core/spend/spendBook';
import { estimateCost, expectedOutputTokens, Reservations, TYPICAL_OUTPUT_TOKENS } from '../../../../src/core/spend/reservations';

const PRICE = { input: 2, output: 8 }; // USD per 1M tokens
const NOW = new Date(2026, 10, 25, 12).getTime();

describe('budget reservations', () => {
  it('estimate: prompt tokens at the input price plus the requested or typical output at the output price', () => {
    assert.equal(estimateCost(1000, 500, PRICE), (1000 * 2 + 500 * 8) / 1e6);
    assert.equal(expectedOutputTokens(300, 16_000), 300);
    assert.equal(expectedOutputTokens(undefined, 16_000), TYPICAL_OUTPUT_TOKENS);
    assert.equal(expectedOutputTokens(50_000, 16_000), 16_000, 'never more than the model can write');
    assert.equal(expectedOutputTokens(-1, undefined), TYPICAL_OUTPUT_TOKENS);
  });

  it('holds add up, settle releases once', () => {
    const r = new Reservations();
    const a = r.hold(0.25);
    const b = r.hold(0.5);
    r.hold(Number.NaN);
    assert.equal(r.total(), 0.75);
    a.settle();
    a.settle();
    assert.equal(r.total(), 0.5);
    b.settle();
    assert.equal(r.total(), 0);
  });

  it('a burst of 8 with $0.0005 left: only as many as the reservations allow go out, within the budget plus one estimate', () => {
    const limit = 0.01;
    let spent = addSpend(emptySpend(), {
      at: NOW - 1000,
      source: 'panel',
      model: 'm',
      channel: 'stable',
      promptTokens: 0,
      cachedTokens: 0,
      completionTokens: 0,
      images: 0,
      cost: limit - 0.0005,
    });
    const r = new Reservations();
    const estimate = estimateCost(40, expectedOutputTokens(undefined, undefined), PRICE); // 0.00808
    const each = estimateCost(40, 30, PRICE); // what each really costs
    const sent: ReturnType<Reservations['hold']>[] = [];
    for (let i = 0; i < 8; i++) {
      if (exhausted(budgetStatuses({ dailyUsd: limit }, spent, NOW, r.total()))) continue;
      sent.push(r.hold(estimate));
    }
    assert.equal(sent.length, 1, 'the first reservation reaches the budget: the other 7 are refused');
    // settle: the real cost is recorded, then the reservation released
    for (const h of sent) {
      spent = addSpend(spent, {
        at: NOW,
        source: 'lm',
        model: 'm',
        channel: 'stable',
        promptTokens: 40,
        cachedTokens: 0,
        completionTokens: 30,
        images: 0,
        cost: each,
      });
      h.settle();
    }
    const status = budgetStatuses({ dailyUsd: limit }, spent, NOW, r.total())[0]!;
    assert.ok(status.spent <= limit + estimate, `spent ${status.spent}`);
    assert.equal(status.reserved, undefined, 'nothing left reserved');
  });

  it('reservations alone can use up a budget; the message says what is reserved', () => {
    const s = budgetStatuses({ dailyUsd: 1 }, emptySpend(), NOW, 1.2);
    assert.equal(exhausted(s), s[0]);
    assert.match(
      budgetMessage(s[0]!),
      /Daily budget of \$1\.00 \(modelgate\.budget\.dailyUsd\) reached: \$0\.00 spent today, and \$1\.20 reserved by requests still running\./,
    );
    assert.equal(exhausted(budgetStatuses({ dailyUsd: 1 }, emptySpend(), NOW, 0.99)), undefined);
  });
});
