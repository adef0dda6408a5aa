import * as assert from 'node:assert/strict';
import type { Price } from '../../../../src/core/catalogue/modelCatalogue';
import { cacheLossMessage, cachedRoute, type Route } from '../../../../src/chat/answers/cacheLossWarning';
import { newConversation, type Conversation } from '../../../../src/chat/conversations/conversationTranscript';

const PRICES: Record<string, Price> = {
  'a|default': { input: 2, output: 8, cacheRead: 0.5 },
  'b|default': { input: 4, output: 16 },
};
const price = (r: Route) => PRICES[`${r.model}|${r.channel}`];

function withAnswer(model: string, channel: string): Conversation {
  const c = newConversation(0);
  c.messages.push({ id: 'u', role: 'user', text: 'q', attachments: [], createdAt: 0, context: [], wire: { role: 'user', content: 'q' } });
  c.messages.push({ id: 'a', role: 'assistant', parts: [], status: 'done', model, channel, createdAt: 0, wire: [{ role: 'assistant', content: 'x' }] });
  return c;
}

describe('chat: cache loss notice', () => {
  it('says nothing on an empty conversation or when the route stays', () => {
    assert.equal(cachedRoute(newConversation(0)), undefined);
    assert.equal(cacheLossMessage(newConversation(0), { model: 'b', channel: 'default' }, 1000, price), undefined);
    assert.equal(cacheLossMessage(withAnswer('a', 'default'), { model: 'a', channel: 'default' }, 1000, price), undefined);
  });

  it('prices the next prompt uncached on the new route, and with the cache on the old one', () => {
    const m = cacheLossMessage(withAnswer('a', 'default'), { model: 'b', channel: 'default' }, 50_000, price)!;
    assert.match(m, /from a to b/);
    assert.match(m, /about 50K tokens uncached/);
    assert.match(m, /about \$0\.20 for the prompt/); // 50K x $4 / 1M
    assert.match(m, /about \$0\.025 with the cache on a/); // 50K x $0.5 / 1M
  });

  it('a channel change counts too; an unpriced route says the cost is unknown', () => {
    const m = cacheLossMessage(withAnswer('b', 'default'), { model: 'b', channel: 'economical' }, 1234, price)!;
    assert.match(m, /to b \(economical channel\)/);
    assert.match(m, /about 1,234 tokens uncached, cost unknown/);
  });
});
