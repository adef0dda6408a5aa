// Modelgate's keybindings never clash with VS Code's defaults. The list is a snapshot of VS Code
// 1.139.1's default keybindings on Linux, taken in the real workbench by
// test/integration/keybindings.test.ts (which also checks the live list on every integration
// run); refresh it with MODELGATE_WRITE_DEFAULT_KEYBINDINGS=<this file> on a VS Code upgrade.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../harness/paths';
import { clashes, normalizeKey, type Binding } from './keybindingClash';

const root = repoRoot();
const snapshot = JSON.parse(readFileSync(join(root, 'test/unit/manifest/vscode-default-keybindings.linux.json'), 'utf8')) as {
  vscode: string;
  bindings: [string, string][];
};
const defaults: Binding[] = snapshot.bindings.map(([key, command]) => ({ key, command }));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { keybindings: (Binding & { mac?: string })[] } };

describe('keybindings: no clash with VS Code default keybindings', () => {
  it(`the snapshot is a real list (VS Code ${snapshot.vscode}, ${snapshot.bindings.length} bindings)`, () => {
    assert.ok(defaults.length > 300);
    assert.ok(defaults.some((d) => d.command === 'workbench.action.showCommands' && normalizeKey(d.key) === 'ctrl+shift+p'));
  });

  it('Open Chat, New Chat and Generate Image Here have keybindings (with a macOS variant)', () => {
    const bound = manifest.contributes.keybindings;
    for (const command of ['modelgate.openChat', 'modelgate.newChat', 'modelgate.generateImage']) {
      const b = bound.find((k) => k.command === command);
      assert.ok(b?.key && b.mac, `${command} has key and mac`);
    }
  });

  it('none of them clashes with a default keybinding', () => {
    assert.deepEqual(clashes(manifest.contributes.keybindings, defaults), []);
  });

  it('the check finds a clash (same key in another modifier order, and a chord prefix)', () => {
    assert.equal(clashes([{ key: 'shift+ctrl+P', command: 'modelgate.x' }], defaults).length > 0, true);
    assert.equal(clashes([{ key: 'ctrl+k', command: 'modelgate.x' }], defaults).length > 0, true, 'ctrl+k swallows the ctrl+k chords');
    assert.deepEqual(
      clashes([{ key: 'ctrl+alt+m', command: 'modelgate.x' }], [{ key: 'ctrl+alt+m', command: 'modelgate.openChat' }]),
      [],
      'our own bindings are not clashes',
    );
  });
});
