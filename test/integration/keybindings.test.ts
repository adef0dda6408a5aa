// Modelgate's keybindings against the live default keybindings of the running VS Code (the
// document `workbench.action.openDefaultKeybindingsFile` opens). MODELGATE_WRITE_DEFAULT_KEYBINDINGS
// = a path writes the list there, which is how test/unit/keybindings' snapshot is refreshed.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { clashes, parseDefaultKeybindings, type Binding } from '../unit/manifest/keybindingClash';
import { until } from './helpers';

describe('keybindings (real VS Code)', function () {
  this.timeout(60_000);

  it('no Modelgate keybinding clashes with a default keybinding of this VS Code', async () => {
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const doc = await until(() => {
      const d = vscode.window.activeTextEditor?.document;
      return d && /keybindings/i.test(d.uri.toString()) && d.getText().includes('"command"') ? d : undefined;
    }, 'the default keybindings document');
    const defaults = parseDefaultKeybindings(doc.getText());
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.ok(defaults.length > 300, `the list looks complete (${defaults.length} entries)`);
    const file = process.env.MODELGATE_WRITE_DEFAULT_KEYBINDINGS;
    if (file) {
      const list = defaults.filter((d) => !d.command.startsWith('modelgate.')).map((d) => [d.key, d.command]);
      writeFileSync(file, JSON.stringify({ vscode: vscode.version, platform: process.platform, bindings: list }, null, 0).replace(/\],\[/g, '],\n['));
    }
    const manifest = vscode.extensions.getExtension('modelgate.modelgate')!.packageJSON as { contributes: { keybindings?: Binding[] } };
    const ours = manifest.contributes.keybindings ?? [];
    assert.ok(ours.length >= 3, 'Modelgate contributes its keybindings');
    // Ours appear in the default list too (extension contributions are part of it).
    for (const o of ours)
      assert.ok(
        defaults.some((d) => d.command === o.command),
        `${o.command} is bound in the running VS Code`,
      );
    assert.deepEqual(clashes(ours, defaults), []);
  });
});
