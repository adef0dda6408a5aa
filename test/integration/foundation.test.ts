// Foundation checks inside a real VS Code extension host: activation, the key's round trip
// through SecretStorage, settings (user-only base URL), status bar, pickers, and real requests
// from the extension to the gateway simulator.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../gateway';
import { config as cfg, EXTENSION_ID as EXT_ID, until, useModelgate } from './helpers';

function authHeaders(gw: RunningGateway): string[] {
  return gw.requests.filter((r) => r.server === 'api').map((r) => String(r.headers['authorization'] ?? ''));
}

describe('foundation (real VS Code)', function () {
  const mg = useModelgate({
    gateway: { keys: { 'sk-test': { balance: 100 }, 'sk-other': { balance: 100 } } },
    restores: ['chat.model', 'channel', 'models'],
    clearKey: true,
  });

  before(() => {
    console.log(`    VS Code ${vscode.version} (${vscode.env.appName}, uiKind ${vscode.env.uiKind})`);
  });

  it('activates and contributes its commands', async () => {
    assert.equal(mg.api.version, 1);
    const all = await vscode.commands.getCommands(true);
    for (const c of [
      'modelgate.setApiKey',
      'modelgate.clearApiKey',
      'modelgate.pickModel',
      'modelgate.pickChannel',
      'modelgate.openChat',
      'modelgate.generateImage',
    ]) {
      assert.ok(all.includes(c), c);
    }
    const pkg = vscode.extensions.getExtension(EXT_ID)!.packageJSON;
    // The status bar is there from start-up: onStartupFinished, after the window is up,
    // never '*' (which would delay the workbench's own start).
    assert.ok(!pkg.activationEvents?.includes('*'), 'no activation on *');
    assert.deepEqual(pkg.activationEvents, ['onStartupFinished'], 'activates after start-up only');
  });

  it('round-trips the key through SecretStorage and sends it only as a Bearer header to the base URL', async () => {
    await vscode.commands.executeCommand('modelgate.clearApiKey');
    assert.equal(await mg.api.hasKey(), false);
    const before = mg.gw.requests.length;
    await mg.api.refreshCatalogue();
    assert.equal(mg.gw.requests.length, before, 'no request without a key');

    await vscode.commands.executeCommand('modelgate.setApiKey', '  sk-test  ');
    assert.equal(await mg.api.hasKey(), true);
    await mg.api.refreshCatalogue();
    const models = mg.gw.requests.filter((r) => r.path === '/v1/models');
    assert.ok(models.length >= 1, 'GET /v1/models reached the simulator');
    assert.equal(models[models.length - 1].headers['authorization'], 'Bearer sk-test');
    assert.ok(mg.api.catalogue().chatModel('flagship-text'));

    // The key never lands in settings or in the extension's own storage.
    const userSettings = JSON.stringify(vscode.workspace.getConfiguration().inspect('modelgate')?.globalValue ?? {});
    assert.ok(!userSettings.includes('sk-test'));
  });

  it('rejects a malformed key without storing it', async () => {
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('modelgate.setApiKey', 'sk test with spaces')), /not saved/);
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('modelgate.setApiKey', '')), /empty/);
    assert.equal(await mg.api.hasKey(), true, 'the previous key is kept');
  });

  it('shows model and channel in the status bar and switches them through the picker commands', async () => {
    assert.match(mg.api.statusBarText(), /flagship-text · default/);
    await vscode.commands.executeCommand('modelgate.pickModel', 'long-context-tools');
    await vscode.commands.executeCommand('modelgate.pickChannel', 'economical');
    await until(() => /long-context-tools · economical/.test(mg.api.statusBarText()), 'status bar updated');
    assert.equal(mg.api.settings().chatModel, 'long-context-tools');
    assert.equal(mg.api.settings().channel, 'economical');
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('modelgate.pickModel', 'no-such-model')), /Unknown chat model "no-such-model"/);
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('modelgate.pickChannel', 'warp')), /Allowed: default, direct, stable, economical/);
    await vscode.commands.executeCommand('modelgate.pickModel', 'flagship-text');
    await vscode.commands.executeCommand('modelgate.pickChannel', 'default');
    await until(() => /flagship-text · default/.test(mg.api.statusBarText()), 'status bar reset');
  });

  it('merges the catalogue setting and the gateway model list', async () => {
    await cfg().update('models', { 'flagship-text': { prices: { default: { input: 2, output: 8, cacheRead: 0.5 } } } }, vscode.ConfigurationTarget.Global);
    await until(() => !!mg.api.catalogue().price('flagship-text', 'stable'), 'prices merged');
    assert.deepEqual(mg.api.catalogue().price('flagship-text', 'direct'), { input: 2, output: 8, cacheRead: 0.5 });
    assert.equal(mg.api.catalogue().chatModel('flagship-text')?.contextWindow, 1_000_000);
  });

  it('refuses a non-https base URL to a remote host and sends nothing', async () => {
    const before = mg.gw.requests.length;
    await cfg().update('baseUrl', 'http://gateway.example.com/v1', vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().baseUrl === undefined, 'invalid base URL rejected');
    assert.match(mg.api.settings().baseUrlProblem ?? '', /unencrypted/);
    await mg.api.refreshCatalogue();
    assert.equal(mg.gw.requests.length, before);
    await cfg().update('baseUrl', mg.gw.baseUrl, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().baseUrl === mg.gw.baseUrl, 'base URL restored');
  });

  it('ignores a base URL from the workspace settings (credential redirection), while it does read the workspace file', async () => {
    const evil = await startGateway();
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const file = path.join(folder, '.vscode', 'settings.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    const previous = await fs.readFile(file, 'utf8').catch(() => undefined);
    const probe = 'mg-foundation-workspace-probe';
    const folderBefore = mg.api.settings().imageFolder;
    assert.notEqual(folderBefore, probe);
    try {
      // modelgate.image.folder is the one setting read from the workspace (where images go): it is
      // the positive control that the extension has re-read its settings with this file in them.
      await fs.writeFile(
        file,
        JSON.stringify({ 'modelgate.baseUrl': evil.baseUrl, 'modelgate.models': { x: { kind: 'image' } }, 'modelgate.image.folder': probe }),
      );
      await until(() => mg.api.settings().imageFolder === probe, 'the extension read the workspace settings file (its image.folder)');
      assert.equal(mg.api.settings().baseUrl, mg.gw.baseUrl);
      await mg.api.refreshCatalogue();
      assert.equal(evil.requests.length, 0, 'the workspace-named host received nothing');
      assert.equal(mg.api.catalogue().get('x'), undefined);
    } finally {
      if (previous === undefined) await fs.rm(file);
      else await fs.writeFile(file, previous);
      await evil.close();
    }
    await until(() => mg.api.settings().imageFolder === folderBefore, 'the workspace settings file put back');
  });

  it('keeps keys per gateway origin: another base URL does not get this key', async () => {
    const other = await startGateway({ keys: { 'sk-other': { balance: 1 } } });
    try {
      await cfg().update('baseUrl', other.baseUrl, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().baseUrl === other.baseUrl, 'switched gateway');
      assert.equal(await mg.api.hasKey(), false, 'no key for the new origin');
      await mg.api.refreshCatalogue();
      assert.ok(!authHeaders(other).some((h) => h.includes('sk-test')), 'old key never sent to the new origin');
    } finally {
      await cfg().update('baseUrl', mg.gw.baseUrl, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().baseUrl === mg.gw.baseUrl, 'base URL restored');
      await other.close();
    }
    assert.equal(await mg.api.hasKey(), true, 'the first gateway still has its key');
  });
});
