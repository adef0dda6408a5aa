import * as assert from 'node:assert/strict';
import { cachedShareOf, costUnknown } from '../../../../src/core/spend/answerCost';

describe('core/spend: costUnknown (the header\'s "answers without a price")', () => {
  const usage = { promptTokens: 10, cachedTokens: 0, completionTokens: 5 };
  it('an answer with a cost, or still streaming, is not unknown', () => {
    assert.equal(costUnknown({ status: 'done', usage: { ...usage, cost: 0.01 }, parts: [{}] }), false);
    assert.equal(costUnknown({ status: 'streaming', parts: [] }), false);
  });
  it('an answer without a price, or stopped before usage came, is unknown', () => {
    assert.equal(costUnknown({ status: 'done', usage, parts: [{}] }), true);
    assert.equal(costUnknown({ status: 'stopped', parts: [{}] }), true);
    assert.equal(costUnknown({ status: 'stopped', parts: [] }), true, 'a stop may come after the gateway started to bill');
    assert.equal(costUnknown({ status: 'error', parts: [{}] }), true, 'an error after something came back');
  });
  it('an error before anything came back (402, 401, 5xx after retries) is not billed, so not unknown', () => {
    assert.equal(costUnknown({ status: 'error', parts: [] }), false);
  });
});

describe('core/spend: cachedShareOf (the share of the prompt the cache served, in the header and the conversation list)', () => {
  it('sums the prompt and cached tokens of the answers that reported usage', () => {
    assert.equal(cachedShareOf([{ promptTokens: 1000, cachedTokens: 0 }, undefined, { promptTokens: 3000, cachedTokens: 2000 }]), 0.5);
  });
  it('is undefined with no usage, and never above 1 when a gateway reports more cached than prompt tokens', () => {
    assert.equal(cachedShareOf([]), undefined);
    assert.equal(cachedShareOf([undefined, { promptTokens: 0, cachedTokens: 0 }]), undefined);
    assert.equal(cachedShareOf([{ promptTokens: 10, cachedTokens: 12 }]), 1);
  });
});
