// Activation and the lazily loaded features, inside the real VS Code extension host.
// activate() only registers: chat, images and the vscode.lm provider are built on first use, and
// in the Node host their code (dist/chat.js, images.js, lm.js) is not even required before that;
// nor is zod (dist/zod.js), before the first schema is needed.
// Independent of the suites' order: what activation left is read from the state index.ts records
// before the first suite (startState.ts); a feature that an earlier suite already built is checked
// through its load record (what built it, once), one that is still unbuilt also through its first use.
// Timings are written to test-results/activation.json (read by `npm run bench -- activation`), never asserted.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelgateApi } from '../../src/extension';
import { FEATURE_COMMANDS } from '../../src/shared/featureIds';
import { EXTENSION_ID, until, useModelgate } from './helpers';
import { FEATURE_FILES, isRequired, ownCommands, startState, type Feature } from './startState';

describe('activation: chat, images and vscode.lm load on first use (real VS Code)', function () {
  this.timeout(60_000);
  const mg = useModelgate({ key: 'sk-test' });
  let ext: vscode.Extension<ModelgateApi>;
  const figures: Record<string, unknown> = {};
  const built = () => mg.api.loadedFeatures().map((f) => f.feature);
  const required = (feature: Feature) => isRequired(ext, feature);
  const loadOf = (feature: Feature) => mg.api.loadedFeatures().find((f) => f.feature === feature);
  const loadsOf = (feature: Feature) => mg.api.loadedFeatures().filter((f) => f.feature === feature).length;
  /** no suite has built the feature yet: this test is its first use */
  const unbuilt = (feature: Feature) => {
    const fresh = loadOf(feature) === undefined;
    (figures.firstUseHere as Record<string, boolean>)[feature] = fresh;
    if (fresh) assert.notEqual(required(feature), true, `dist/${FEATURE_FILES[feature]} was required before first use`);
    return fresh;
  };

  before(() => {
    const found = vscode.extensions.getExtension<ModelgateApi>(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is installed`);
    ext = found;
    const start = startState();
    const api = mg.api;
    figures.getExtensionActivateMs = start.activateCallMs;
    figures.wasAlreadyActive = start.wasActive;
    figures.activateBodyMs = api.activationTiming.activateMs;
    figures.bundleLoadMs = api.activationTiming.loadMs;
    figures.requireAndActivateMs = api.activationTiming.requireAndActivateMs;
    figures.hostWaitMs = api.activationTiming.hostWaitMs;
    figures.cpuMs = api.activationTiming.cpu; // the extension host thread's CPU time (the clock counts waiting for a core too)
    figures.bundleStartToActivatedMs = api.activationTiming.sinceBundleStartMs;
    figures.activatePhasesMs = api.activationTiming.phases;
    figures.host = `${vscode.env.appName} ${vscode.version} (${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'} UI)`;
    figures.builtBeforeThisSuite = built();
    figures.firstUseHere = {};
  });

  after(() => {
    figures.featureLoads = mg.api.loadedFeatures();
    // the repository's test-results (this file runs from out/test/integration; the extension itself is installed from the vsix)
    const dir = path.resolve(__dirname, '..', '..', '..', 'test-results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'activation.json'), `${JSON.stringify({ date: new Date().toISOString(), ...figures }, null, 2)}\n`);
    console.log(`[activation] ${JSON.stringify(figures)}`);
  });

  it('activation builds none of them, yet every contributed command, the chat view and the vscode.lm vendor are registered', async () => {
    // As activation left it, before the first suite ran (whichever that was):
    const start = startState();
    assert.deepEqual(start.loadedFeatures, [], 'nothing built by activation');
    for (const f of Object.keys(FEATURE_FILES) as Feature[]) assert.notEqual(start.required[f], true, `dist/${FEATURE_FILES[f]} was required by activation`);
    // zod (a bundle of its own) is loaded by the first schema a request or message needs, never by activation
    assert.notEqual(start.zodRequired, true, 'dist/zod.js was required by activation: a zod schema was built while the bundle loaded or in activate()');
    figures.zodRequiredByActivation = start.zodRequired;
    const contributed = (ext.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command);
    const missing = contributed.filter((c) => !start.ownCommands.includes(c));
    assert.deepEqual(missing, [], 'every contributed command is registered from activation');
    // and now:
    const before = built();
    assert.ok(mg.api.statusBarText().length > 0, 'the status bar item is there from the start');
    // registering the chat view twice must fail: it is taken
    assert.throws(() => vscode.window.registerWebviewViewProvider('modelgate.chat', { resolveWebviewView() {} }));
    assert.deepEqual(built(), before, 'the checks above built nothing');
  });

  it('the first vscode.lm request builds the provider; the models are listed and answer', async function () {
    if (typeof vscode.lm?.registerLanguageModelChatProvider !== 'function') this.skip();
    const first = unbuilt('lm');
    if (first) assert.equal(loadOf('lm'), undefined, 'not built by the key or the settings');
    const t0 = performance.now();
    const models = await vscode.lm.selectChatModels({ vendor: 'modelgate' });
    if (first) figures.firstLmSelectModelsMs = performance.now() - t0;
    assert.ok(
      models.some((m) => m.id === 'flagship-text'),
      `Modelgate models listed: ${models.map((m) => m.id).join(', ')}`,
    );
    assert.match(loadOf('lm')?.trigger ?? '', /^lm\./, 'built by VS Code asking the provider');
    assert.equal(loadsOf('lm'), 1, 'built once');
    assert.notEqual(required('lm'), false, 'dist/lm.js loaded');
    const response = await models.find((m) => m.id === 'flagship-text')!.sendRequest([vscode.LanguageModelChatMessage.User('hello [[words:3]]')]);
    let text = '';
    for await (const part of response.text) text += part;
    assert.equal(text.trim().split(/\s+/).length, 3, `the answer streamed through the lazily built provider: ${text}`);
  });

  it('the first image command builds the images feature and the call goes through', async () => {
    unbuilt('images');
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
    assert.equal(loadsOf('images'), 1, 'built once');
    // the refused calls left error notifications: clear them, later suites drive editors
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('the first Open Chat builds the chat feature and the view resolves with the chat page', async () => {
    const first = unbuilt('chat');
    const t0 = performance.now();
    await vscode.commands.executeCommand('modelgate.openChat');
    if (first) figures.firstOpenChatCommandMs = performance.now() - t0;
    // built by Open Chat here, or by whatever an earlier suite used first: one of the chat's own entry points
    const triggers = first ? ['modelgate.openChat', 'view'] : [...FEATURE_COMMANDS.chat, 'view', 'api'];
    assert.ok(
      triggers.includes(loadOf('chat')?.trigger ?? ''),
      `built by ${first ? 'Open Chat' : 'an entry point of the chat'}: ${JSON.stringify(loadOf('chat'))}`,
    );
    assert.notEqual(required('chat'), false, 'dist/chat.js loaded');
    figures.zodRequiredOnceChatBuilt = isRequired(ext, 'zod');
    const served = await until(() => mg.api.chat.view.served, 'the chat view resolved');
    assert.match(served.html, /Content-Security-Policy/, 'the chat page was served');
    await mg.api.chat.controller.ready;
    // every command is still registered now that the real ones replaced the proxies
    const commands = new Set(await vscode.commands.getCommands(true));
    for (const id of ['modelgate.openChat', 'modelgate.newChat', 'modelgate.apply.accept', 'modelgate.generateImage']) assert.ok(commands.has(id), id);
    await vscode.commands.executeCommand('modelgate.newChat'); // the real command, no second build
    assert.equal(loadsOf('chat'), 1, 'built once');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
  });

  it("package.json's commands, the proxied lists (src/shared/featureIds.ts) and what the built features register agree", async () => {
    // every feature built, and the lm module's commands registered (its one command answered "no")
    void mg.api.chat;
    await vscode.commands.executeCommand('modelgate.generateImage', { prompt: 'x', nonsense: 1 }).then(undefined, () => undefined);
    mg.api.useInVsCodeChatPrompts({ confirm: async () => false, notify: async () => undefined });
    try {
      await vscode.commands.executeCommand('modelgate.useInVsCodeChat');
    } finally {
      mg.api.useInVsCodeChatPrompts(undefined);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.deepEqual(
      built()
        .filter((f) => f !== 'lm')
        .sort(),
      ['chat', 'images'],
    );
    const contributed = new Set((ext.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command));
    const proxied = [...FEATURE_COMMANDS.chat, ...FEATURE_COMMANDS.images, ...FEATURE_COMMANDS.lm];
    assert.deepEqual(
      proxied.filter((id) => !contributed.has(id)),
      [],
      'every proxied command is contributed in package.json',
    );
    // Once built, a feature's real commands replace its proxies: the same ids must be registered
    // as right after activation (the start state). A command a feature registers without a proxy
    // shows up only now (it would not have worked before the feature was built); a listed id that
    // the feature does not register is gone now (its proxy was removed and nothing took its place).
    const atActivation = startState().ownCommands;
    const now = await ownCommands();
    assert.ok(atActivation.length > 0, 'commands were registered at activation');
    assert.deepEqual(
      { registeredOnlyOnceBuilt: now.filter((c) => !atActivation.includes(c)), goneOnceBuilt: atActivation.filter((c) => !now.includes(c)) },
      { registeredOnlyOnceBuilt: [], goneOnceBuilt: [] },
      'the features register exactly the commands proxied for them',
    );
  });
});
