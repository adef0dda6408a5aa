// Activation and the lazily loaded features (issue 9), inside the real VS Code extension host.
// activate() only registers: chat, images and the vscode.lm provider are built on first use, and
// in the Node host their code (dist/chat.js, images.js, lm.js) is not even required before that.
// This file sorts first among the trusted suites on purpose: the first test looks at a fresh
// activation, before any other suite opened the chat or asked vscode.lm for models.
// Timings are written to test-results/activation.json (read by `npm run bench -- activation`), never asserted.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelgateApi } from '../../src/extension';
import { FEATURE_COMMANDS } from '../../src/services/featureIds';
import { startGateway, type RunningGateway } from '../gateway/index';
import { until } from './helpers';

const EXTENSION_ID = 'modelgate.modelgate';
const FEATURE_FILES = { chat: 'chat.js', images: 'images.js', lm: 'lm.js' } as const;
type Feature = keyof typeof FEATURE_FILES;

describe('activation: chat, images and vscode.lm load on first use (real VS Code)', function () {
  this.timeout(60_000);
  let ext: vscode.Extension<ModelgateApi>;
  let api: ModelgateApi;
  let gw: RunningGateway | undefined;
  const figures: Record<string, unknown> = {};
  const config = () => vscode.workspace.getConfiguration('modelgate');
  const built = () => api.loadedFeatures().map((f) => f.feature);
  /** whether the Node host has evaluated the feature's bundle (undefined where there is no require cache, e.g. the web host) */
  const required = (feature: Feature): boolean | undefined => {
    const cache = typeof require === 'function' ? require.cache : undefined;
    return cache ? path.join(ext.extensionPath, 'dist', FEATURE_FILES[feature]) in cache : undefined;
  };
  const loadOf = (feature: Feature) => api.loadedFeatures().find((f) => f.feature === feature);
  /** Modelgate's registered command ids, sorted */
  const ownCommands = async () => (await vscode.commands.getCommands(true)).filter((c) => c.startsWith('modelgate.')).sort();
  /** what was registered right after activation (proxies included), for the last test */
  let atActivation: string[] = [];

  before(async () => {
    const found = vscode.extensions.getExtension<ModelgateApi>(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is installed`);
    ext = found;
    const wasActive = ext.isActive;
    const t0 = performance.now();
    api = await ext.activate();
    figures.getExtensionActivateMs = performance.now() - t0;
    figures.wasAlreadyActive = wasActive;
    figures.activateBodyMs = api.activationTiming.activateMs;
    figures.bundleLoadMs = api.activationTiming.loadMs;
    figures.requireAndActivateMs = api.activationTiming.requireAndActivateMs;
    figures.hostWaitMs = api.activationTiming.hostWaitMs;
    figures.cpuMs = api.activationTiming.cpu; // the extension host thread's CPU time (the clock counts waiting for a core too)
    figures.bundleStartToActivatedMs = api.activationTiming.sinceBundleStartMs;
    figures.activatePhasesMs = api.activationTiming.phases;
    figures.host = `${vscode.env.appName} ${vscode.version} (${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'} UI)`;
  });

  after(async () => {
    figures.featureLoads = api?.loadedFeatures();
    // the repository's test-results (this file runs from out/test/integration; the extension itself is installed from the vsix)
    const dir = path.resolve(__dirname, '..', '..', '..', 'test-results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'activation.json'), `${JSON.stringify({ date: new Date().toISOString(), ...figures }, null, 2)}\n`);
    console.log(`[activation] ${JSON.stringify(figures)}`);
    if (gw) {
      await vscode.commands.executeCommand('modelgate.clearApiKey');
      await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
      await gw.close();
    }
  });

  it('activation builds none of them, yet every contributed command, the chat view and the vscode.lm vendor are registered', async () => {
    // Read before anything touches api.chat (which builds the chat feature).
    assert.deepEqual(api.loadedFeatures(), [], 'nothing built by activation (or by an earlier suite: this file must run first)');
    for (const f of Object.keys(FEATURE_FILES) as Feature[]) assert.notEqual(required(f), true, `dist/${FEATURE_FILES[f]} was required before first use`);
    const commands = new Set(await vscode.commands.getCommands(true));
    atActivation = await ownCommands();
    const contributed = (ext.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command);
    const missing = contributed.filter((c) => !commands.has(c));
    assert.deepEqual(missing, [], 'every contributed command is registered from activation');
    assert.ok(api.statusBarText().length > 0, 'the status bar item is there from the start');
    // registering the chat view and the lm vendor twice must fail: they are taken
    assert.throws(() => vscode.window.registerWebviewViewProvider('modelgate.chat', { resolveWebviewView() {} }));
    assert.deepEqual(built(), [], 'the checks above built nothing');
  });

  it('the first vscode.lm request builds the provider; the models are listed and answer', async () => {
    if (typeof vscode.lm?.registerLanguageModelChatProvider !== 'function') return;
    gw = await startGateway();
    await config().update('baseUrl', gw.baseUrl, vscode.ConfigurationTarget.Global);
    await until(() => api.settings().baseUrl === gw!.baseUrl, 'base URL applied');
    await vscode.commands.executeCommand('modelgate.setApiKey', 'sk-test');
    assert.equal(loadOf('lm'), undefined, 'not built by the key or the settings');
    const t0 = performance.now();
    const models = await vscode.lm.selectChatModels({ vendor: 'modelgate' });
    figures.firstLmSelectModelsMs = performance.now() - t0;
    assert.ok(
      models.some((m) => m.id === 'flagship-text'),
      `Modelgate models listed: ${models.map((m) => m.id).join(', ')}`,
    );
    assert.match(loadOf('lm')?.trigger ?? '', /^lm\./, 'built by VS Code asking the provider');
    assert.notEqual(required('lm'), false, 'dist/lm.js loaded');
    const response = await models.find((m) => m.id === 'flagship-text')!.sendRequest([vscode.LanguageModelChatMessage.User('hello [[words:3]]')]);
    let text = '';
    for await (const part of response.text) text += part;
    assert.equal(text.trim().split(/\s+/).length, 3, `the answer streamed through the lazily built provider: ${text}`);
  });

  it('the first image command builds the images feature and the call goes through', async () => {
    assert.equal(loadOf('images'), undefined);
    assert.notEqual(required('images'), true);
    // A programmatic call with an unknown option: the real command's validation answers (no request).
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('modelgate.generateImage', { prompt: 'x', size: 'enormous', nonsense: 1 })),
      (err: Error) => /nonsense/.test(err.message),
      'the images feature validated the arguments',
    );
    assert.equal(loadOf('images')?.trigger, 'modelgate.generateImage');
    assert.notEqual(required('images'), false, 'dist/images.js loaded');
    // the second call goes straight to the real command (the proxy is gone)
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('modelgate.generateImage', { prompt: 'x', nonsense: 1 })));
    assert.equal(api.loadedFeatures().filter((f) => f.feature === 'images').length, 1, 'built once');
    // the refused calls left error notifications: clear them, later suites drive editors
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('the first Open Chat builds the chat feature and the view resolves with the chat page', async () => {
    assert.equal(loadOf('chat'), undefined, 'not built by the lm or images features');
    assert.notEqual(required('chat'), true);
    const t0 = performance.now();
    await vscode.commands.executeCommand('modelgate.openChat');
    figures.firstOpenChatCommandMs = performance.now() - t0;
    assert.ok(['modelgate.openChat', 'view'].includes(loadOf('chat')?.trigger ?? ''), `built by Open Chat: ${JSON.stringify(loadOf('chat'))}`);
    assert.notEqual(required('chat'), false, 'dist/chat.js loaded');
    const served = await until(() => api.chat.view.served, 'the chat view resolved');
    assert.match(served.html, /Content-Security-Policy/, 'the chat page was served');
    await api.chat.controller.ready;
    // every command is still registered now that the real ones replaced the proxies
    const commands = new Set(await vscode.commands.getCommands(true));
    for (const id of ['modelgate.openChat', 'modelgate.newChat', 'modelgate.apply.accept', 'modelgate.generateImage']) assert.ok(commands.has(id), id);
    await vscode.commands.executeCommand('modelgate.newChat'); // the real command, no second build
    assert.equal(api.loadedFeatures().filter((f) => f.feature === 'chat').length, 1, 'built once');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
  });

  it("package.json's commands, the proxied lists (src/services/featureIds.ts) and what the built features register agree", async () => {
    // every feature built (lm registers no commands; chat and images were built by the tests above)
    void api.chat;
    await vscode.commands.executeCommand('modelgate.generateImage', { prompt: 'x', nonsense: 1 }).then(undefined, () => undefined);
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.deepEqual(
      built()
        .filter((f) => f !== 'lm')
        .sort(),
      ['chat', 'images'],
    );
    const contributed = new Set((ext.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command));
    const proxied = [...FEATURE_COMMANDS.chat, ...FEATURE_COMMANDS.images];
    assert.deepEqual(
      proxied.filter((id) => !contributed.has(id)),
      [],
      'every proxied command is contributed in package.json',
    );
    // Once built, a feature's real commands replace its proxies: the same ids must be registered
    // as right after activation. A command a feature registers without a proxy shows up only now
    // (it would not have worked before the feature was built); a listed id that the feature does
    // not register is gone now (its proxy was removed and nothing took its place).
    const now = await ownCommands();
    assert.ok(atActivation.length > 0, 'the first test recorded the commands registered at activation');
    assert.deepEqual(
      { registeredOnlyOnceBuilt: now.filter((c) => !atActivation.includes(c)), goneOnceBuilt: atActivation.filter((c) => !now.includes(c)) },
      { registeredOnlyOnceBuilt: [], goneOnceBuilt: [] },
      'the features register exactly the commands proxied for them',
    );
  });
});
