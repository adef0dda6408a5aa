import * as assert from 'node:assert/strict';
import type { Price } from '../../../../src/core/catalogue/modelCatalogue';
import { cacheLossMessage, cachedRoute, type Route } from '../../../../src/chat/answers/cacheLossWarning';
import { newConversation, type AssistantRecord, type Conversation } from '../../../../src/chat/conversations/conversationTranscript';

const PRICES: Record<string, Price> = {
  'a|default': { input: 2, output: 8, cacheRead: 0.5 },
  'a|stable': { input: 1.5, output: 6, cacheRead: 0.4 },
  'b|default': { input: 4, output: 16 },
  'b|stable': { input: 3, output: 12 },
  'c|default': { input: 0.2, output: 1 },
};
const price = (r: Route) => PRICES[`${r.model}|${r.channel}`];

type Ending = Pick<AssistantRecord, 'status' | 'usage' | 'error'>;
const FINISHED: Ending = { status: 'done', usage: { promptTokens: 1200, cachedTokens: 0, completionTokens: 40 } };

/** A conversation with one question and answer per route, the answers ending as `ending` says (finished with usage by default). */
function withAnswer(model: string, channel: string, ending: Ending = FINISHED, c = newConversation(0)): Conversation {
  const n = c.messages.length;
  c.messages.push({ id: `u${n}`, role: 'user', text: 'q', attachments: [], createdAt: 0, context: [], wire: { role: 'user', content: 'q' } });
  c.messages.push({ id: `a${n}`, role: 'assistant', parts: [], model, channel, createdAt: 0, wire: [{ role: 'assistant', content: 'x' }], ...ending });
  return c;
}

describe('chat: cache loss notice', () => {
  it('says nothing on an empty conversation or when the route stays', () => {
    assert.equal(cachedRoute(newConversation(0)), undefined);
    assert.equal(cacheLossMessage(newConversation(0), { model: 'b', channel: 'default' }, 1000, price), undefined);
    assert.equal(cacheLossMessage(withAnswer('a', 'default'), { model: 'a', channel: 'default' }, 1000, price), undefined);
  });

  it('prices the old route cached (its own cache price) against the new route uncached, and advises switching back only when that is cheaper', () => {
    // a -> b: 50K x $0.5 / 1M cached before, 50K x $4 / 1M uncached now: switching back is cheaper
    const m = cacheLossMessage(withAnswer('a', 'default'), { model: 'b', channel: 'default' }, 50_000, price)!;
    assert.match(m, /^Switched from a to b:/);
    assert.match(m, /about 50K tokens uncached: about \$0\.20, against about \$0\.025 with the cache before the switch\. Switch back to keep the cache/);
    // a -> c: the new route uncached ($0.20 x 50K / 1M = $0.01) is cheaper than a's cache ($0.025): no advice to go back
    const cheaper = cacheLossMessage(withAnswer('a', 'default'), { model: 'c', channel: 'default' }, 50_000, price)!;
    assert.match(cheaper, /about \$0\.01, no more than about \$0\.025 with the cache before the switch\.$/);
    assert.doesNotMatch(cheaper, /Switch back/);
  });

  it('says nothing about a cache no answer built: the only answer failed (401, 5xx) or stopped before the gateway reported usage', () => {
    const to = { model: 'b', channel: 'default' };
    const endings: [string, Ending][] = [
      ['401', { status: 'error', error: { message: 'Invalid API key', actions: ['setKey'] } }],
      ['503', { status: 'error', error: { message: 'Service unavailable', actions: ['retry'] } }],
      ['stopped before usage', { status: 'stopped' }],
      ['usage without prompt tokens', { status: 'done', usage: { promptTokens: 0, cachedTokens: 0, completionTokens: 0 } }],
    ];
    for (const [what, ending] of endings) {
      const c = withAnswer('a', 'default', ending);
      assert.equal(cachedRoute(c), undefined, what);
      assert.equal(cacheLossMessage(c, to, 50_000, price), undefined, what);
    }
    // a stopped answer whose usage did come in did build the cache
    assert.deepEqual(cachedRoute(withAnswer('a', 'stable', { status: 'stopped', usage: FINISHED.usage })), { model: 'a', channel: 'stable' });
  });

  it('the cache is on the route of the last answer that built one: a later failed answer on another route moves nothing', () => {
    const c = withAnswer('b', 'default', { status: 'error', error: { message: '502', actions: ['retry'] } }, withAnswer('a', 'default'));
    assert.deepEqual(cachedRoute(c), { model: 'a', channel: 'default' });
    // back on a: the cache built there is still there
    assert.equal(cacheLossMessage(c, { model: 'a', channel: 'default' }, 50_000, price), undefined);
    assert.match(cacheLossMessage(c, { model: 'b', channel: 'stable' }, 50_000, price)!, /^Switched from a on the default channel to b on the stable channel:/);
    // the answer in progress does not count
    assert.equal(cachedRoute(withAnswer('a', 'stable'), 'a0'), undefined);
  });

  it('says nothing when the old route has no cache price: no cache saving is lost', () => {
    assert.equal(cacheLossMessage(withAnswer('b', 'default'), { model: 'a', channel: 'default' }, 50_000, price), undefined);
    assert.equal(cacheLossMessage(withAnswer('x', 'default'), { model: 'a', channel: 'default' }, 50_000, price), undefined);
  });

  it('names the model and the channel once each; an unpriced new route says the cost is unknown', () => {
    const channel = cacheLossMessage(withAnswer('a', 'default'), { model: 'a', channel: 'economical' }, 1234, price)!;
    assert.match(channel, /^Switched a from the default channel to the economical channel:/);
    assert.match(channel, /about 1,234 tokens uncached, cost unknown \(no price is configured for a\)/);
    const both = cacheLossMessage(withAnswer('a', 'stable'), { model: 'b', channel: 'default' }, 1234, price)!;
    assert.match(both, /^Switched from a on the stable channel to b on the default channel:/);
    const model = cacheLossMessage(withAnswer('a', 'stable'), { model: 'b', channel: 'stable' }, 1234, price)!;
    assert.match(model, /^Switched from a to b on the stable channel:/);
    // the switch itself (before the first colon) names each model and each channel once
    for (const m of [channel, both, model]) {
      const head = m.split(':')[0]!;
      for (const name of ['a', 'b', 'default', 'stable', 'economical']) assert.ok((head.match(new RegExp(`\\b${name}\\b`, 'g'))?.length ?? 0) <= 1, head);
    }
  });
});
