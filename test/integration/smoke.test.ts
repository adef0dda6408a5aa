// Smoke test of the packaged extension in a real extension host: it is installed, it
// activates, and its commands are registered; and it is the build of this checkout (the first
// title also names the VS Code it ran in).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './helpers';

describe('smoke: the Modelgate extension in a real VS Code', () => {
  it(`runs in VS Code ${vscode.version} (${vscode.env.appName}) the build under test: the installed dist/extension.js is the repository's`, function () {
    // The title keeps the VS Code version visible in the test list (the launcher prints it too).
    // A stale or foreign .vsix would test something else than this checkout.
    if (process.env.MODELGATE_VSIX) this.skip(); // a .vsix chosen on purpose: nothing in the checkout to compare with
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    // this file runs from <repo>/out/test/integration; the extension runs from its install folder
    const repoBundle = path.resolve(__dirname, '..', '..', '..', 'dist', 'extension.js');
    const installed = path.join(ext.extensionPath, 'dist', 'extension.js');
    assert.ok(fs.existsSync(repoBundle), `the repository's bundle ${repoBundle}`);
    const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    assert.equal(digest(installed), digest(repoBundle), `${installed} is not the repository's ${repoBundle} (run \`npm run package\` again)`);
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
