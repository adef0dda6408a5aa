// The envelope's check before each request, the figures the composer shows, and the stored
// learning read back without trusting it.
import * as assert from 'node:assert/strict';
import { checkEnvelope, parseEnvelope, roundUpUsd } from '../../../../src/core/quote/envelope';
import { quoteAmount, quoteRange, sharePercent } from '../../../../src/core/quote/quoteFormat';
import {
  emptyLearning,
  learnAnswer,
  learnRatio,
  learnRequest,
  parseLearning,
  ratioFor,
  routeKey,
  MAX_RECENT_ANSWERS,
} from '../../../../src/core/quote/quoteLearning';

describe('quote: the envelope before each request', () => {
  it('sends while spent plus the request stays within it; otherwise pauses with the figures', () => {
    assert.deepEqual(checkEnvelope(undefined, 5, 5), { send: true });
    assert.deepEqual(checkEnvelope(0, 5, 5), { send: true }, '0 = no envelope');
    assert.deepEqual(checkEnvelope(0.1, 0.05, 0.05), { send: true }, 'exactly at the limit');
    const d = checkEnvelope(0.1, 0.08, 0.03, 0.04);
    assert.equal(d.send, false);
    if (!d.send) {
      assert.equal(d.spent, 0.08);
      assert.equal(d.next, 0.03);
      assert.equal(d.continueTo, 0.15, 'enough for the rest of the answer, rounded up');
    }
  });

  it('rounds a figure up to two significant digits, and reads a typed envelope', () => {
    assert.equal(roundUpUsd(0.0834), 0.084);
    assert.equal(roundUpUsd(1.234), 1.3);
    assert.equal(roundUpUsd(12.3), 13);
    assert.equal(roundUpUsd(0.5), 0.5);
    assert.equal(parseEnvelope('$0.50'), 0.5);
    assert.equal(parseEnvelope(' 2 '), 2);
    for (const bad of ['', 'abc', -1, 0, Infinity, '1e9', null]) assert.equal(parseEnvelope(bad), undefined, String(bad));
  });
});

describe('quote: figures at 290 px', () => {
  it('two significant digits per end; equal ends read as one figure', () => {
    assert.equal(quoteRange(0.01234, 0.01911), '$0.012–0.019');
    assert.equal(quoteRange(0.00041, 0.0021), '$0.00041–0.0021');
    assert.equal(quoteRange(0.5, 1.2), '$0.50–1.20');
    assert.equal(quoteRange(12.3, 19.7), '$12–20');
    assert.equal(quoteRange(0.0123, 0.0124), '$0.012');
    assert.equal(quoteAmount(0.0995), '0.10');
    assert.equal(quoteAmount(0), '0');
    assert.equal(sharePercent(0.834), '83%');
    assert.equal(sharePercent(0.001), '1%');
    assert.equal(sharePercent(0.999), '99%');
  });
});

describe('quote: what it learns, stored', () => {
  it('calibrates counted tokens to the gateway’s, per model and rule', () => {
    let c = learnRatio(undefined, 'estimate', 1000, 1200)!;
    assert.equal(c.ratio, 1.2);
    c = learnRatio(c, 'estimate', 1000, 1000)!;
    assert.ok(c.ratio < 1.2 && c.ratio > 1);
    assert.equal(learnRatio(c, 'o200k_base', 1000, 900)!.samples, 1, 'another rule starts again');
    assert.equal(learnRatio(c, 'estimate', 1000, 50_000), c, 'a count that far off is not learned');
    const l = learnRequest(emptyLearning(), { model: 'm', channel: 'stable', rule: 'estimate', counted: 100, promptTokens: 130 });
    assert.equal(ratioFor(l, 'm', 'estimate'), 1.3);
    assert.equal(ratioFor(l, 'm', 'o200k_base'), 1);
  });

  it('reads back only what checks, bounded', () => {
    let l = emptyLearning();
    for (let i = 0; i < 30; i++)
      l = learnAnswer(l, { model: 'm', tools: false, requests: [{ at: i, channel: 's', promptTokens: 10, cachedTokens: 0, completionTokens: i }] });
    assert.equal(l.recent.m!.length, MAX_RECENT_ANSWERS);
    l = learnRequest(l, {
      model: 'm',
      channel: 'stable',
      rule: 'estimate',
      promptTokens: 5000,
      cache: { gapMs: 0, sharedTokens: 4000, sharedWithOutputTokens: 4200, cachedTokens: 3968 },
    });
    const back = parseLearning(JSON.parse(JSON.stringify(l)));
    assert.deepEqual(back, l);
    const odd = parseLearning({
      models: { a: { rule: 'estimate', ratio: 'x', samples: 1 }, b: { rule: 'estimate', ratio: 1.1, samples: 2 } },
      routes: { [routeKey('a', 'b')]: { hits: -1 } },
      recent: { a: [{ model: 'a', tools: 'no' }], b: 'nope' },
    });
    assert.deepEqual(Object.keys(odd.models), ['b']);
    assert.deepEqual(odd.routes, {});
    assert.deepEqual(odd.recent, {});
    assert.deepEqual(parseLearning('garbage'), emptyLearning());
  });
});
