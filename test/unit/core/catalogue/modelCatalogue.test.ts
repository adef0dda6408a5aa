import * as assert from 'node:assert/strict';
import { ModelCatalogue, BUILTIN_MODELS } from '../../../../src/core/catalogue/modelCatalogue';
import { costOf, formatUsd } from '../../../../src/core/spend/cost';

describe('ModelCatalogue', () => {
  it("has the gateway's models built in", () => {
    const c = ModelCatalogue.build({});
    assert.equal(c.chatModel('flagship-text')?.imageInput, false);
    assert.equal(c.chatModel('flagship-text')?.contextWindow, 1_000_000);
    assert.equal(c.chatModel('long-context-tools')?.imageInput, true);
    assert.equal(c.imageModel('image-restricted')?.maxN, 1);
    assert.deepEqual(c.imageModel('image-restricted')?.sizes, ['1024x1024', '1792x1024', '1024x1792']);
    assert.ok(c.imageModel('image-small')?.sizes.includes('256x256'));
    assert.equal(c.imageModel('image-small')?.quality, false);
    assert.equal(c.chatModels().length + c.imageModels().length, BUILTIN_MODELS.length);
  });

  it('adds gateway-listed ids with conservative defaults and keeps built-ins', () => {
    const c = ModelCatalogue.build({ gatewayIds: ['flagship-text', 'new-chat-1', 'new-image-gen'] });
    assert.equal(c.chatModel('new-chat-1')?.source, 'gateway');
    assert.equal(c.chatModel('new-chat-1')?.imageInput, false);
    assert.equal(c.imageModel('new-image-gen')?.maxN, 1);
    assert.equal(c.chatModel('flagship-text')?.source, 'builtin');
  });

  it('merges settings overrides over built-ins and reports invalid entries', () => {
    const c = ModelCatalogue.build({
      overrides: {
        'flagship-text': { prices: { default: { input: 2, output: 8 }, economical: { input: 1, output: 4, cacheRead: 0.25 } } },
        'custom-img': { kind: 'image', sizes: ['512x512'], maxN: 4 },
        broken: { contextWindow: -5 },
        alsoBroken: 'nope',
      },
    });
    assert.equal(c.chatModel('flagship-text')?.contextWindow, 1_000_000, 'capabilities kept');
    assert.deepEqual(c.price('flagship-text', 'stable'), { input: 2, output: 8 }, 'falls back to default price');
    assert.deepEqual(c.price('flagship-text', 'economical'), { input: 1, output: 4, cacheRead: 0.25 });
    assert.deepEqual(c.imageModel('custom-img')?.sizes, ['512x512']);
    assert.equal(c.get('broken'), undefined);
    assert.deepEqual(c.problems.map((p) => p.modelId).sort(), ['alsoBroken', 'broken']);
    assert.equal(c.price('long-context-tools', 'direct'), undefined, 'no made-up prices');
  });
});

describe('costOf', () => {
  it('bills cached tokens once, at the cache price (not on top of prompt tokens)', () => {
    const price = { input: 2, output: 8, cacheRead: 0.5 };
    const cost = costOf({ promptTokens: 10_000, cachedTokens: 8_000, completionTokens: 1_000 }, price);
    // 2,000 uncached x $2 + 8,000 cached x $0.50 + 1,000 x $8, per 1M
    assert.equal(cost, (2_000 * 2 + 8_000 * 0.5 + 1_000 * 8) / 1e6);
  });
  it('uses the input price for cached tokens when the card has no cache price', () => {
    assert.equal(costOf({ promptTokens: 1000, cachedTokens: 600, completionTokens: 0 }, { input: 3, output: 9 }), 3000 / 1e6);
  });
  it('clamps nonsense cached counts', () => {
    const p = { input: 1, output: 1, cacheRead: 0 };
    assert.equal(costOf({ promptTokens: 100, cachedTokens: 500, completionTokens: 0 }, p), 0);
    assert.equal(costOf({ promptTokens: 100, cachedTokens: -5, completionTokens: 0 }, p), 100 / 1e6);
  });
  it('formats small amounts without rounding them to zero', () => {
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(0.000123), '$0.00012');
    assert.equal(formatUsd(0.1234), '$0.1234');
    assert.equal(formatUsd(0.5), '$0.50');
    assert.equal(formatUsd(0.0123), '$0.0123');
    assert.equal(formatUsd(0.001), '$0.001');
    assert.equal(formatUsd(12.345), '$12.35');
  });
});
