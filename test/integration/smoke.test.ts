// Smoke test of the packaged extension in a real extension host: it is installed, it
// activates, and its commands are registered; the VS Code it runs in (named in the first title)
// is one its manifest admits.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './helpers';

describe('smoke: the Modelgate extension in a real VS Code', () => {
  it(`runs in VS Code ${vscode.version} (${vscode.env.appName}), a version the manifest's engines.vscode admits`, () => {
    // The launcher prints the version too; the title keeps it visible in the test list.
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    const range = String(ext.packageJSON.engines?.vscode ?? '');
    const wanted = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
    assert.ok(wanted, `engines.vscode is a caret range: ${range}`);
    const running = /^(\d+)\.(\d+)\.(\d+)/.exec(vscode.version);
    assert.ok(running, `vscode.version is a version: ${vscode.version}`);
    const [major, minor, patch] = running.slice(1, 4).map(Number);
    const [wMajor, wMinor, wPatch] = wanted.slice(1, 4).map(Number);
    // ^M.m.p: the same major, and at least m.p
    const admitted = major === wMajor && (minor > wMinor || (minor === wMinor && patch >= wPatch));
    assert.ok(admitted, `VS Code ${vscode.version} is outside the manifest's engines.vscode ${range}`);
  });

  it('is installed', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not among ${vscode.extensions.all.map((e) => e.id).join(', ')}`);
    assert.equal(ext.packageJSON.publisher, 'modelgate');
  });

  it('activates without throwing', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command it contributes', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const contributed = (ext.packageJSON.contributes?.commands ?? []).map((c: { command: string }) => c.command) as string[];
    assert.ok(contributed.length > 0, 'the manifest contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });
});
