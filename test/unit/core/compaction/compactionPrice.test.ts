// The price rule: compact when the next request would leave no room for the answer, or when the
// summary costs less than it saves over the turns that count at this channel's input and cache
// prices; never while the cache is warm and the window has room.
import * as assert from 'node:assert/strict';
import { decideCompaction, overflows, paceOf, turnsThatCount, type CompactionPriceInput } from '../../../../src/core/compaction/compactionPrice';
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
});
