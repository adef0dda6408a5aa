// Smoke test of the packaged extension in a real extension host: it is installed, it
// activates, and its commands are registered. Also reports the VS Code version it ran in.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'modelgate.modelgate';

describe('smoke: the Modelgate extension in a real VS Code', () => {
  it(`runs in VS Code ${vscode.version} (${vscode.env.appName})`, () => {
    // The launcher prints the version too; this keeps it visible in the test list.
    assert.match(vscode.version, /^\d+\.\d+\.\d+/);
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
