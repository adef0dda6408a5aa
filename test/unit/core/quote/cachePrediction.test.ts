// The cached part of the next request: what the previous request of the conversation put in the
// cache, on the same model and channel, while it lives, in the provider's units; and what the
// gateway's reports teach about a route's cache.
import * as assert from 'node:assert/strict';
import { cacheableTokens, CACHE_DEFAULTS, learnCache, predictCached, type CacheFacts, type PreviousRequest } from '../../../../src/core/quote/cachePrediction';
import { ESTIMATE_RULE, PromptCounter } from '../../../../src/core/quote/promptCount';
import { layoutPrompt, userMessage } from '../../../../src/core/prompt/promptLayout';
import type { ChatMessage } from '../../../../src/core/client/types';

const MIN = 60_000;
const counter = new PromptCounter(ESTIMATE_RULE);
const system = 'You are careful. '.repeat(800); // about 3,400 tokens
const turn1: ChatMessage[] = layoutPrompt({ systemPrompt: system, pinned: [], history: [userMessage('First question?')] });
const answer: ChatMessage = { role: 'assistant', content: 'An answer. '.repeat(100) };
const next = counter.count([...turn1, answer, userMessage('Second question?')]);
const sentTokens = counter.count(turn1).tokens;
const previous = (over: Partial<PreviousRequest> = {}): PreviousRequest => ({
  model: 'm',
  channel: 'stable',
  at: 0,
  fingerprint: counter.count(turn1),
  ...over,
});
const predict = (over: Partial<Parameters<typeof predictCached>[0]> = {}) =>
  predictCached({ previous: previous(), model: 'm', channel: 'stable', next, ratio: 1, catalogueCaches: true, now: 60_000, ...over });

const seenOpenAi: CacheFacts = { hits: 3, misses: 0, block: 128, minHit: 1024, withOutput: false, aliveMs: 2 * MIN };
const seenDeepSeek: CacheFacts = { hits: 3, misses: 0, block: 1, minHit: 40, withOutput: true, aliveMs: 3 * 60 * MIN };

describe('quote: the cached part of the next request', () => {
  it('is the prefix the previous request sent, floored to 128-token blocks, from 1,024 tokens', () => {
    const p = predict();
    assert.equal(p.reason, 'warm');
    assert.equal(p.shared, sentTokens);
    assert.equal(p.likely, Math.floor(sentTokens / 128) * 128);
    assert.equal(p.most, p.shared + counter.count([answer]).sizes[1]!, 'unknown rules: the most is all shared, the answer too');
    assert.equal(p.least, 0, 'not seen yet: the cache may not be there');
    assert.equal(predict({ facts: seenOpenAi }).least, p.likely, 'seen to cache: no doubt left');
  });

  it('nothing after a switch of model or channel: caches are per model and channel', () => {
    for (const over of [{ channel: 'economical' }, { model: 'other' }]) {
      const p = predict(over);
      assert.equal(p.reason, 'switch');
      assert.deepEqual([p.likely, p.least, p.most], [0, 0, 0]);
    }
    assert.equal(predict({ previous: undefined }).reason, 'first');
  });

  it('expires: warm within 5 minutes, maybe until the hour, gone after', () => {
    assert.equal(predict({ now: 4 * MIN }).reason, 'warm');
    const maybe = predict({ now: 20 * MIN });
    assert.equal(maybe.reason, 'maybe');
    assert.equal(maybe.likely, 0);
    assert.ok(maybe.most > 0, 'the low end of the range still counts on the cache');
    assert.equal(predict({ now: CACHE_DEFAULTS.maybeAliveMs + 1 }).reason, 'expired');
    // a route seen to keep its cache for hours: warm after 90 minutes
    assert.equal(predict({ now: 90 * MIN, facts: seenDeepSeek }).reason, 'warm');
    // a route seen to lose it after 10 minutes: gone after 10
    assert.equal(predict({ now: 11 * MIN, facts: { ...seenOpenAi, goneMs: 10 * MIN } }).reason, 'expired');
  });

  it('a DeepSeek-like route (answer cached, any size) reads the answer too, in its own units', () => {
    const p = predict({ facts: seenDeepSeek });
    assert.equal(p.likely, sentTokens + counter.count([answer]).sizes[1]!);
    assert.equal(cacheableTokens(300, seenDeepSeek), 300, 'no 1,024-token minimum once smaller hits were seen');
    assert.equal(cacheableTokens(1000, undefined), 0, 'the default minimum');
    assert.equal(cacheableTokens(1300, undefined), 1280);
  });

  it('nothing when the system prompt changed, or the route is known not to cache', () => {
    const changed = counter.count(
      layoutPrompt({ systemPrompt: `${system} (edited)`, pinned: [], history: [userMessage('First question?'), answer, userMessage('Q2')] }),
    );
    assert.equal(predict({ next: changed }).reason, 'changed');
    assert.equal(predict({ facts: { hits: 0, misses: 2, block: 0, minHit: 0, withOutput: false, aliveMs: 0 } }).reason, 'noCache');
  });

  it('scales the shared prefix by the calibration (counted tokens to the gateway’s)', () => {
    const p = predict({ ratio: 1.2 });
    assert.equal(p.shared, Math.round(sentTokens * 1.2));
  });
});

describe('quote: learning a route’s cache from the gateway’s reports', () => {
  it('learns the unit (greatest common divisor), the smallest hit, the lifetime seen, and a cached answer', () => {
    let f = learnCache(undefined, { gapMs: 1_000, sharedTokens: 3000, sharedWithOutputTokens: 3400, cachedTokens: 2944 });
    assert.deepEqual([f.hits, f.block, f.minHit, f.withOutput, f.aliveMs], [1, 2944, 2944, false, 1_000]);
    f = learnCache(f, { gapMs: 4 * MIN, sharedTokens: 5000, sharedWithOutputTokens: 5500, cachedTokens: 4992 });
    assert.equal(f.block, 128);
    assert.equal(f.aliveMs, 4 * MIN);
    // a hit past the shared prompt: the answer is cached too
    f = learnCache(f, { gapMs: 0, sharedTokens: 6000, sharedWithOutputTokens: 6600, cachedTokens: 6580 });
    assert.ok(f.withOutput);
    // a long pause and nothing: the cache is gone after that long
    f = learnCache(f, { gapMs: 30 * MIN, sharedTokens: 7000, sharedWithOutputTokens: 7500, cachedTokens: 0 });
    assert.equal(f.goneMs, 30 * MIN);
    assert.equal(f.misses, 1);
    // and a later hit after longer forgets that
    f = learnCache(f, { gapMs: 40 * MIN, sharedTokens: 7000, sharedWithOutputTokens: 7500, cachedTokens: 6912 });
    assert.equal(f.goneMs, undefined);
  });

  it('a short shared prefix with nothing cached teaches nothing', () => {
    const f = learnCache(undefined, { gapMs: 0, sharedTokens: 900, sharedWithOutputTokens: 1000, cachedTokens: 0 });
    assert.equal(f.misses, 0);
  });
});
