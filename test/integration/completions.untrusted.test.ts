// Completions as you type in Restricted Mode (this suite runs in an extension host started
// WITHOUT --disable-workspace-trust): with completions turned on, typing sends nothing, the
// completions feature is never even built, and the status bar says why.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { staysFalse, until, useModelgate } from './helpers';

describe('completions as you type in an untrusted workspace (real VS Code, Restricted Mode)', function () {
  // typing in a real workbench on a loaded machine (a full run beside the e2e workers) took 56-60 s
  this.timeout(180_000);
  const mg = useModelgate({ key: 'sk-test', settings: { 'completions.enabled': true } });

  it('sends nothing while typing, builds nothing, and says so in the status bar', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const doc = await vscode.workspace.openTextDocument({
      language: 'typescript',
      content: 'export function add(a: number, b: number): number {\n  return a + b;\n}\n\n',
    });
    const editor = await vscode.window.showTextDocument(doc);
    const end = doc.lineAt(doc.lineCount - 1).range.end;
    editor.selection = new vscode.Selection(end, end);
    // Typed in one command: in Restricted Mode the feature is never built, so no keystroke pace
    // could make a request; the explicit trigger below asks for one the way a pause would.
    await vscode.commands.executeCommand('type', { text: 'export function med' });
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await staysFalse(() => mg.gw.requests.some((r) => r.path === '/v1/chat/completions'), {
      forMs: 2000,
      what: 'a completion request from an untrusted workspace',
    });
    assert.equal(
      mg.api.loadedFeatures().some((f) => f.feature === 'completions'),
      false,
      'the feature was not built',
    );
    await until(() => /shield/.test(mg.api.completions.status().text), 'the Restricted Mode sign');
    assert.match(mg.api.completions.status().tooltip, /Restricted Mode/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
