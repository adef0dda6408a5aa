// The quote of a send: an agent answer's rounds each resend the growing context (read from the
// cache when the route caches), every channel is quoted, a channel without a price says so, and
// the range holds the expected figure.
import * as assert from 'node:assert/strict';
import { planCost, requestCost, requestSeries } from '../../../../src/core/quote/projection';
import { quoteSend, type QuoteInput } from '../../../../src/core/quote/quote';
import { expectAnswer, type AnswerSample } from '../../../../src/core/quote/answerHistory';
import { ESTIMATE_RULE, PromptCounter } from '../../../../src/core/quote/promptCount';
import type { CacheFacts } from '../../../../src/core/quote/cachePrediction';
import { userMessage } from '../../../../src/core/prompt/promptLayout';
import type { ChatMessage } from '../../../../src/core/client/types';

const PRICE = { input: 1, output: 8, cacheRead: 0.25 };
const seen: CacheFacts = { hits: 4, misses: 0, block: 128, minHit: 1024, withOutput: false, aliveMs: 60_000 };

describe('quote: a series of requests (agent rounds, next turns)', () => {
  it('each round resends the context with what the round added, and reads the round before from the cache', () => {
    const plan = requestSeries({ promptTokens: 10_000, cachedTokens: 0, requests: 4, growth: 2_000, stepOutput: 100, lastOutput: 800, cache: seen });
    assert.deepEqual(
      plan.map((r) => r.promptTokens),
      [10_000, 12_000, 14_000, 16_000],
    );
    assert.deepEqual(
      plan.map((r) => r.cachedTokens),
      [0, 9_984, 11_904, 13_952],
      'the previous prompt, in 128-token blocks',
    );
    assert.deepEqual(
      plan.map((r) => r.outputTokens),
      [100, 100, 100, 800],
    );
    assert.equal(
      planCost(plan, PRICE),
      plan.reduce((n, r) => n + requestCost(r, PRICE), 0),
    );
  });

  it('no cache: without one, or when the pause outlives it (the next turns of a slow conversation)', () => {
    const base = { promptTokens: 10_000, cachedTokens: 0, requests: 3, growth: 1_000, stepOutput: 500, lastOutput: 500 };
    assert.ok(requestSeries({ ...base, cache: null }).every((r) => r.cachedTokens === 0));
    assert.ok(requestSeries({ ...base, cache: seen, gapMs: 30 * 60_000 }).every((r) => r.cachedTokens === 0));
    assert.ok(
      requestSeries({ ...base, cache: seen, gapMs: 30_000 })
        .slice(1)
        .every((r) => r.cachedTokens > 0),
    );
  });

  it('a cached token costs the cache price, once; without a cache price, the input price', () => {
    assert.equal(requestCost({ promptTokens: 1_000_000, cachedTokens: 400_000, outputTokens: 0 }, PRICE), 0.6 + 0.1);
    assert.equal(requestCost({ promptTokens: 1_000_000, cachedTokens: 400_000, outputTokens: 0 }, { input: 1, output: 8 }), 1);
  });
});

describe('quote: a send on every channel', () => {
  const counter = new PromptCounter(ESTIMATE_RULE);
  const sent: ChatMessage[] = [{ role: 'system', content: 'Stable system prompt. '.repeat(600) }, userMessage('First?')];
  const next = counter.count([...sent, { role: 'assistant', content: 'Answer.' }, userMessage('Second?')]);
  const agent: AnswerSample[] = [3, 5].map((n) => ({ model: 'm', tools: true, requests: n, finalOutput: 600, roundOutput: 90, growth: 1_800 }));
  const input = (over: Partial<QuoteInput> = {}): QuoteInput => ({
    model: { id: 'm', caching: true },
    channel: 'stable',
    channels: ['direct', 'stable', 'economical'],
    price: (c) => (c === 'economical' ? undefined : c === 'direct' ? { input: 1.25, output: 10, cacheRead: 0.3125 } : PRICE),
    prompt: next,
    ratio: 1,
    previous: { model: 'm', channel: 'stable', at: 0, fingerprint: counter.count(sent) },
    facts: (c) => (c === 'stable' ? seen : undefined),
    answer: expectAnswer(agent, [], { tools: true, maxOutput: 16_000, maxRounds: 8 }),
    now: 10_000,
    ...over,
  });

  it('quotes the chosen channel with its cache and the others without (a switch loses the cache)', () => {
    const q = quoteSend(input());
    assert.deepEqual(
      q.channels.map((c) => c.channel),
      ['direct', 'stable', 'economical'],
    );
    assert.equal(q.selected.channel, 'stable');
    assert.equal(q.selected.cached.reason, 'warm');
    assert.ok(q.selected.cached.likely > 0);
    const direct = q.channels[0]!;
    assert.equal(direct.cached.reason, 'switch');
    assert.equal(direct.cached.likely, 0);
    const usd = q.selected.usd!;
    assert.ok(usd.low <= usd.expected && usd.expected <= usd.high, JSON.stringify(usd));
    assert.ok(q.selected.uncachedUsd! > usd.expected, 'the cache makes it cheaper');
  });

  it('a channel without a price says so: no figure, the tokens still', () => {
    const econ = quoteSend(input()).channels[2]!;
    assert.equal(econ.usd, undefined);
    assert.equal(econ.price, undefined);
    assert.ok(econ.promptTokens > 0);
  });

  it('an agent answer: the high end takes the most rounds this conversation took, each resending the context', () => {
    const q = quoteSend(input()).selected;
    const single = quoteSend(input({ answer: expectAnswer(agent, [], { tools: false, maxOutput: 16_000, maxRounds: 8 }) })).selected;
    assert.ok(q.usd!.high > 2 * single.usd!.high, `${q.usd!.high} vs one request ${single.usd!.high}`);
    assert.equal(q.expectedTokens.prompt > 4 * q.promptTokens, true, 'four requests, each the whole context');
  });

  it('a channel chosen outside the list is quoted too', () => {
    const q = quoteSend(input({ channel: 'default', channels: ['direct', 'stable'] }));
    assert.equal(q.selected.channel, 'default');
    assert.equal(q.channels.length, 3);
  });
});

describe('quote: as the panel shows it', () => {
  it('carries the figures the composer words, and names the cheaper channel', async () => {
    const { quoteViewOf, cheaperChannel } = await import('../../../../src/core/quote/quoteView');
    const counter = new PromptCounter(ESTIMATE_RULE);
    const prompt = counter.count([userMessage('Hello')]);
    const q = quoteSend({
      model: { id: 'm', caching: true },
      channel: 'stable',
      channels: ['direct', 'stable', 'economical'],
      price: (c) => ({ direct: { input: 2, output: 10 }, stable: { input: 1, output: 8 }, economical: { input: 0.5, output: 4 } })[c],
      prompt,
      ratio: 1.1,
      facts: () => undefined,
      answer: expectAnswer([], [], { tools: false, maxOutput: 16_000, maxRounds: 8 }),
      now: 0,
    });
    const v = quoteViewOf(q, { seq: 3, conversationId: 'c', model: 'm', envelope: { limit: 1, spent: 0.25 } });
    assert.equal(v.seq, 3);
    assert.equal(v.cacheReason, 'first');
    assert.ok(v.calibrated);
    assert.deepEqual(v.envelope, { limit: 1, spent: 0.25 });
    assert.deepEqual(
      v.channels.map((c) => [c.channel, c.current]),
      [
        ['direct', false],
        ['stable', true],
        ['economical', false],
      ],
    );
    assert.equal(cheaperChannel(v)?.channel, 'economical');
    // the cheapest already: nothing cheaper to offer
    assert.equal(
      cheaperChannel({ ...v, channels: v.channels.map((c) => ({ ...c, current: c.channel === 'economical' })), usd: v.channels[2]!.usd }),
      undefined,
    );
  });
});
