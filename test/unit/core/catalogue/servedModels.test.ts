// Once the gateway's /models has answered, the catalogue offers what it lists: built-in models it
// does not list are left out (a first question to one ends in a 404), a model the user set stays
// and is marked, and a default the gateway does not serve gives way to one it does.
import * as assert from 'node:assert/strict';
import { ModelCatalogue } from '../../../../src/core/catalogue/modelCatalogue';
import { servedChatModel, servedImageModel, servedOnly } from '../../../../src/core/catalogue/servedModels';

describe('core/catalogue: what the gateway serves', () => {
  const listed = [{ id: 'deepseek-chat', contextWindow: 64_000 }, { id: 'kimi-k2' }, { id: 'long-context-tools' }];

  it('while the list is unknown (not fetched, failed, or empty), every built-in model stays and the default is kept', () => {
    const all = ModelCatalogue.build({});
    for (const known of [undefined, []]) {
      const cat = servedOnly(all, known, {}, []);
      assert.equal(cat.listed, false);
      assert.ok(cat.chatModel('flagship-text'));
      assert.equal(servedChatModel(cat, 'flagship-text'), 'flagship-text');
    }
  });

  it('offers only listed models; the default falls to the first listed chat model', () => {
    const cat = servedOnly(ModelCatalogue.build({ gatewayModels: listed }), listed, {}, []);
    assert.deepEqual(
      cat.chatModels().map((m) => m.id),
      ['long-context-tools', 'deepseek-chat', 'kimi-k2'],
    );
    assert.equal(cat.chatModel('flagship-text'), undefined);
    assert.deepEqual(cat.imageModels(), [], 'no image model is listed, none is offered');
    assert.equal(servedChatModel(cat, 'flagship-text'), 'long-context-tools');
    assert.equal(servedChatModel(cat, 'kimi-k2'), 'kimi-k2', 'a served default stays');
    assert.equal(servedImageModel(cat, 'image-restricted'), 'image-restricted', 'nothing served to fall back to: unchanged');
    const gatewayOnly = [{ id: 'deepseek-chat' }];
    assert.equal(servedChatModel(servedOnly(ModelCatalogue.build({ gatewayModels: gatewayOnly }), gatewayOnly, {}, []), 'flagship-text'), 'deepseek-chat');
  });

  it('a model the user set stays, marked as not listed: in modelgate.models, or as the chat or image model', () => {
    const overrides = { 'flagship-text': { prices: { default: { input: 1, output: 2 } } } };
    const all = ModelCatalogue.build({ gatewayModels: listed, overrides });
    const cat = servedOnly(all, listed, overrides, [
      { id: 'my-own-model', kind: 'chat' },
      { id: 'image-small', kind: 'image' },
    ]);
    assert.equal(cat.chatModel('flagship-text')?.unlisted, true);
    assert.equal(cat.price('flagship-text', 'default')?.input, 1, 'with what the settings say');
    assert.equal(cat.chatModel('my-own-model')?.unlisted, true);
    assert.equal(cat.imageModel('image-small')?.unlisted, true);
    assert.equal(cat.chatModel('kimi-k2')?.unlisted, undefined);
    // the default never falls to a model the gateway does not list
    const kimi = [{ id: 'kimi-k2' }];
    assert.equal(servedChatModel(servedOnly(ModelCatalogue.build({ gatewayModels: kimi, overrides }), kimi, overrides, []), 'gone'), 'kimi-k2');
  });
});
