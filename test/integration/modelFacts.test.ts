// Model facts and custom headers in a real VS Code: context sizes the
// gateway lists at GET /models (OpenRouter and vLLM form) reach vscode.lm's maxInputTokens; a bad
// value is skipped without breaking the list; `modelgate.requestHeaders` and a secret header set
// with "Modelgate: Set Secret Header…" go on every gateway request (chat, models, images) and
// never to the image download host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelgateApi } from '../../src/extension';
import { PRICE_CARD, startGateway, type RunningGateway } from '../gateway/index';
import { until } from './helpers';

const EXTENSION_ID = 'modelgate.modelgate';
const VENDOR = 'modelgate';
const SECRET = 'corp-token-5e4d3c2b1a0f9e8d';
const config = () => vscode.workspace.getConfiguration('modelgate');

describe('model facts from /models and custom request headers', function () {
  this.timeout(120_000);
  let gw: RunningGateway;
  let api: ModelgateApi;

  before(async function () {
    if (typeof vscode.lm?.registerLanguageModelChatProvider !== 'function') this.skip();
    gw = await startGateway({
      modelsForm: 'openrouter',
      extraModels: [
        // vLLM form (ModelCard's max_model_len)
        { id: 'vllm/qwen3-32b', object: 'model', owned_by: 'vllm', max_model_len: 40_960 },
        // a bad value: skipped, the entry and the list stay
        { id: 'broken/model', context_length: -5, pricing: { prompt: 'NaN', completion: '0.000001' } },
      ],
    });
    const ext = vscode.extensions.getExtension<ModelgateApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    api = await ext.activate();
    await config().update('requestHeaders', { 'X-Route': 'eu-west' }, vscode.ConfigurationTarget.Global);
    await config().update('baseUrl', gw.baseUrl, vscode.ConfigurationTarget.Global);
    await until(() => api.settings().baseUrl === gw.baseUrl, 'base URL applied');
    await vscode.commands.executeCommand('modelgate.setApiKey', 'sk-test');
    const names = await vscode.commands.executeCommand<string[]>('modelgate.setSecretHeader', { name: 'X-Corp-Token', value: SECRET });
    assert.deepEqual(names, ['X-Corp-Token'], 'the command lists the name only');
  });

  after(async () => {
    if (!gw) return;
    await vscode.commands.executeCommand('modelgate.setSecretHeader', { name: 'X-Corp-Token', value: '' });
    await vscode.commands.executeCommand('modelgate.clearApiKey');
    for (const k of ['baseUrl', 'requestHeaders', 'models']) await config().update(k, undefined, vscode.ConfigurationTarget.Global);
    await gw.close();
  });

  it("context sizes from /models reach vscode.lm's maxInputTokens; a bad value does not break the list", async () => {
    await api.refreshCatalogue();
    const qwen = await until(async () => (await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'vllm/qwen3-32b' }))[0], 'the vLLM model listed by vscode.lm');
    // window minus the output reserve: min(max output 16K default, 8192, window / 4)
    assert.equal(qwen.maxInputTokens, 40_960 - 8_192);
    const broken = await until(
      async () => (await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'broken/model' }))[0],
      'the model with a bad value still listed',
    );
    assert.equal(broken.maxInputTokens, 128_000 - 8_192, 'the bad context_length was skipped: the default applies');
    // OpenRouter form of the simulator's own models: their real window, prices from the gateway
    const flagship = (await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'flagship-text' }))[0]!;
    assert.equal(flagship.maxInputTokens, 1_000_000 - 8_192);
    assert.deepEqual(api.catalogue().price('flagship-text', 'stable'), { input: 2, output: 8 });
    assert.equal(api.catalogue().priceSource('flagship-text', 'stable'), 'gateway');
    // the user's settings win over the gateway
    await config().update('models', { 'vllm/qwen3-32b': { contextWindow: 20_000 } }, vscode.ConfigurationTarget.Global);
    await until(
      async () => (await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'vllm/qwen3-32b' }))[0]?.maxInputTokens === 20_000 - 5_000,
      'the setting wins',
    );
    await config().update('models', undefined, vscode.ConfigurationTarget.Global);
  });

  it('per-image prices from /models price the image models without any setting', async () => {
    await api.refreshCatalogue();
    const listed = PRICE_CARD.image['image-restricted']!;
    await until(() => api.catalogue().imageCost('image-restricted', '1024x1024', 1) !== undefined, 'image prices from the listing');
    assert.equal(api.catalogue().imageCost('image-restricted', '1024x1024', 2), 2 * listed.standard!['1024x1024']!);
    assert.equal(api.catalogue().imageCost('image-restricted', '1792x1024', 1, 'hd'), listed.hd!['1792x1024']);
    assert.equal(api.catalogue().imageCost('image-small', '256x256', 1), PRICE_CARD.image['image-small']!.standard!['256x256']);
  });

  it('sends the headers on every gateway request (chat, models, images) and never to the image host', async () => {
    const from = gw.requests.length;
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'flagship-text' });
    assert.ok(model);
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('Say hello')], {}, new vscode.CancellationTokenSource().token);
    let text = '';
    for await (const part of response.text) text += part;
    assert.ok(text.length > 0, 'an answer arrived');
    await api.refreshCatalogue();
    await vscode.commands.executeCommand('modelgate.generateImage', {
      prompt: 'header check',
      model: 'image-small',
      size: '256x256',
      n: 1,
      format: 'url',
      open: false,
      folder: 'mg-header-check',
    });
    const sent = gw.requests.slice(from);
    const api_ = sent.filter((r) => r.server === 'api');
    const paths = new Set(api_.map((r) => r.path));
    for (const p of ['/v1/chat/completions', '/v1/images/generations']) assert.ok(paths.has(p), `${p} reached: ${[...paths].join(', ')}`);
    assert.ok(paths.has('/v1/models'), 'the model list was fetched');
    for (const r of api_) {
      assert.equal(r.headers['x-route'], 'eu-west', `${r.path}: the settings header`);
      assert.equal(r.headers['x-corp-token'], SECRET, `${r.path}: the secret header`);
    }
    const downloads = sent.filter((r) => r.server === 'images');
    assert.ok(downloads.length > 0, 'the image was downloaded');
    for (const r of downloads) {
      assert.equal(r.headers['x-route'], undefined);
      assert.equal(r.headers['x-corp-token'], undefined);
      assert.ok(!JSON.stringify(r.headers).includes(SECRET));
    }
    assert.ok(!JSON.stringify(config().inspect('requestHeaders')).includes(SECRET), 'the secret is not in settings');
    const ws = vscode.workspace.workspaceFolders?.[0];
    if (ws) await vscode.workspace.fs.delete(vscode.Uri.joinPath(ws.uri, 'mg-header-check'), { recursive: true }).then(undefined, () => undefined);
  });

  it("honours a vscode.lm caller's modelOptions where they name the per-model parameters", async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'flagship-text' });
    assert.ok(model);
    const from = gw.requests.length;
    const modelOptions = { max_tokens: 321, temperature: 0.25, topP: 0.5, reasoning_effort: 'low', unknownOption: 1 };
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('Say hello')], { modelOptions }, new vscode.CancellationTokenSource().token);
    for await (const _ of response.text) void _;
    const chat = gw.requests.slice(from).filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'));
    assert.equal(chat.length, 1);
    const body = chat[0]!.body as Record<string, unknown>;
    assert.equal(body.max_tokens, 321);
    assert.equal(body.temperature, 0.25);
    assert.equal(body.top_p, 0.5);
    assert.equal(body.reasoning_effort, 'low');
    assert.equal(body.unknownOption, undefined, 'what names no parameter is not sent');
  });
});
