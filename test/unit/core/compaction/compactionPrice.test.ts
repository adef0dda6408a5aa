// The price rule: compact when the next request would leave no room for the answer, or when the
// summary costs less than it saves over the turns that count at this channel's input and cache
// prices; never while the cache is warm and the window has room.
import * as assert from 'node:assert/strict';
import {
  decideCompaction,
  overflows,
  paceOf,
  priceRuleInput,
  turnsThatCount,
  type CompactionPriceInput,
  type SendOutlook,
} from '../../../../src/core/compaction/compactionPrice';
import type { CacheFacts } from '../../../../src/core/quote/cachePrediction';

const PRICE = { input: 2, output: 8, cacheRead: 0.2 };
const ECONOMICAL = { input: 0.5, output: 2, cacheRead: 0.05 };
const seen: CacheFacts = { hits: 10, misses: 0, block: 128, minHit: 1024, withOutput: false, aliveMs: 5 * 60_000 };

const base: CompactionPriceInput = {
  promptTokens: 90_000,
  cachedTokens: 89_600,
  prefixTokens: 4_000,
  compactedTokens: 12_000,
  summaryPromptTokens: 86_000,
  summaryOutputTokens: 2_000,
  contextWindow: 200_000,
  outputReserve: 8_192,
  price: PRICE,
  summaryPrice: ECONOMICAL,
  cache: seen,
  assumeCaching: true,
  paceMs: 60_000,
  growthPerTurn: 3_000,
  outputPerTurn: 800,
  turns: 10,
};

describe('compaction price rule', () => {
  it('does not compact while the cache is warm and the window has room', () => {
    const v = decideCompaction(base);
    assert.equal(v.compact, false);
    assert.equal(v.reason, 'warm');
  });

  it('compacts the same conversation when the cache has gone cold and the summary pays for itself', () => {
    const v = decideCompaction({ ...base, cachedTokens: 0, paceMs: 20 * 60_000, turns: 3 });
    assert.equal(v.compact, true);
    assert.equal(v.reason, 'price');
    assert.ok(v.withoutUsd! - v.withUsd! > v.summaryUsd!, JSON.stringify(v));
  });

  it('does not compact a cold conversation when the summary costs more than it saves', () => {
    // a short history: little to save, and the summary is written at the full price
    const v = decideCompaction({
      ...base,
      promptTokens: 14_000,
      cachedTokens: 0,
      compactedTokens: 9_000,
      summaryPromptTokens: 10_000,
      summaryPrice: PRICE,
      paceMs: 20 * 60_000,
      turns: 1,
    });
    assert.equal(v.compact, false);
    assert.equal(v.reason, 'notWorth');
  });

  it('compacts whatever the price when the next request leaves no room for the answer', () => {
    const v = decideCompaction({ ...base, promptTokens: 195_000, cachedTokens: 194_000 });
    assert.equal(v.compact, true);
    assert.equal(v.reason, 'room');
    assert.equal(decideCompaction({ ...base, promptTokens: 195_000, price: undefined }).reason, 'room');
  });

  it('without a price only room decides', () => {
    assert.deepEqual(decideCompaction({ ...base, price: undefined, cachedTokens: 0 }), { compact: false, reason: 'noPrice' });
  });

  it('a cheaper cache price makes keeping the history cheaper, so the saving shrinks', () => {
    const cold = { ...base, cachedTokens: 0, paceMs: 2 * 60_000, turns: 5 };
    const a = decideCompaction({ ...cold, price: { ...PRICE, cacheRead: 1 } });
    const b = decideCompaction({ ...cold, price: { ...PRICE, cacheRead: 0.05 } });
    assert.ok(a.withoutUsd! - a.withUsd! > b.withoutUsd! - b.withUsd!);
  });

  it('the room check keeps the answer reserve free', () => {
    assert.equal(overflows(100, 20, 120), false);
    assert.equal(overflows(101, 20, 120), true);
    assert.equal(overflows(1e9, 0, 0), false, 'an unknown window never overflows');
  });

  it('counts the turns the pace fits in an hour, no more than the conversation had', () => {
    assert.equal(turnsThatCount(60_000, 100), 20);
    assert.equal(turnsThatCount(10 * 60_000, 100), 6);
    assert.equal(turnsThatCount(60_000, 3), 3);
    assert.equal(turnsThatCount(3 * 60 * 60_000, 50), 1);
    assert.equal(paceOf([0, 10, 30, 1_000], 5), 20);
    assert.equal(paceOf([7], 5), 5);
  });

  describe('before a send, from what the panel knows', () => {
    const minute = 60_000;
    // eight turns a minute apart on the 16K model, 11K of history: room for the answer still
    const outlook: SendOutlook = {
      promptTokens: 12_000,
      cachedTokens: 11_904,
      prefixTokens: 1_000,
      summarisedTokens: 8_000,
      keptTokens: 2_500,
      summaryOutputTokens: 2_000,
      summaryInputCap: 6_400,
      turnTimes: Array.from({ length: 8 }, (_, i) => i * minute),
      outputPerTurn: 300,
      contextWindow: 16_000,
      outputReserve: 2_000,
      price: PRICE,
      summaryPrice: ECONOMICAL,
      cache: seen,
      assumeCaching: true,
    };

    it('keeps a conversation whose cache is warm as it is', () => {
      const v = decideCompaction(priceRuleInput(outlook));
      assert.equal(v.compact, false);
      assert.equal(v.reason, 'warm');
    });

    it('compacts the same conversation after a pause that let the cache go cold: the turns ahead pay for the summary', () => {
      const i = priceRuleInput({ ...outlook, cachedTokens: 0 });
      assert.equal(i.paceMs, minute, 'the pace is the usual pause between turns, not the last one');
      assert.equal(i.turns, 8, 'as many turns ahead as it has had (the pace fits more in an hour)');
      assert.equal(i.growthPerTurn, Math.round(11_000 / 8));
      assert.equal(i.compactedTokens, 1_000 + 2_000 + 2_500);
      assert.equal(i.summaryPromptTokens, 6_400, 'the summary request carries at most its share of the window');
      const v = decideCompaction(i);
      assert.equal(v.compact, true);
      assert.equal(v.reason, 'price');
    });

    it('does not compact a cold conversation of two turns: too few turns ahead count to pay for the summary', () => {
      const v = decideCompaction(priceRuleInput({ ...outlook, cachedTokens: 0, turnTimes: [0, minute], summaryPrice: PRICE }));
      assert.equal(v.compact, false);
      assert.equal(v.reason, 'notWorth');
    });

    it('a conversation that has no turns yet is paced at the default and counts one turn ahead', () => {
      const i = priceRuleInput({ ...outlook, turnTimes: [] });
      assert.equal(i.turns, 1);
      assert.equal(i.paceMs, 5 * minute);
    });
  });
});
