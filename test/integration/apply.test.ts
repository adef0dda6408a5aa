// Apply of a code block, inside a real VS Code extension host, driven through the extension's
// chat API (api.chat.apply, and the panel's `applyCode` message through the controller) and
// its real commands (modelgate.apply.accept / discard, as the diff's title buttons run them).
// The questions Apply asks (quick picks) are answered by a test ApplyUi that records them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApplyUi, ChatApply, PendingChange, Placement } from '../../src/workspaceEdits/apply';
import { revertAndCloseAllEditors, until, useModelgate } from './helpers';

const KEY = 'sk-apply-suite-7c41e9a2d0';
const DIR = 'mg-apply-fixture';

const CALC = [
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export function mul(a: number, b: number): number {',
  '  return a * b;',
  '}',
  '',
].join('\n');

interface Asked {
  placement: { label: string; offered: readonly Placement[] }[];
  language: string[];
  newFile: string[];
}

describe('apply (real VS Code)', function () {
  this.timeout(60_000);
  const mg = useModelgate({ gateway: { keys: { [KEY]: { balance: 100 } } }, key: KEY, chat: true });
  let ws: string;
  let originalUi: ApplyUi;
  let asked: Asked;
  let answers: { placement?: Placement; language?: 'apply' | 'newFile'; newFile?: string };
  const apply = (): ChatApply => mg.api.chat.apply;

  const file = (name: string) => vscode.Uri.file(path.join(ws, DIR, name));
  async function fixture(name: string, text: string): Promise<vscode.TextDocument> {
    fs.writeFileSync(file(name).fsPath, text);
    const doc = await vscode.workspace.openTextDocument(file(name));
    // a document left open (and dirty) by an earlier test would keep its old text
    if (doc.getText() !== text) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    assert.equal(doc.getText(), text);
    return doc;
  }
  const diffTabs = () =>
    vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'modelgate-proposal');
  const activeDiffOf = (c: PendingChange) => {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputTextDiff && input.modified.toString() === c.proposalUri.toString();
  };
  async function proposed(outcome: Awaited<ReturnType<ChatApply['propose']>>): Promise<PendingChange> {
    assert.equal(outcome.kind, 'proposed', `expected a proposed change, got ${JSON.stringify(outcome)}`);
    const change = (outcome as { change: PendingChange }).change;
    await until(() => activeDiffOf(change), 'the diff of the proposed change is the active tab');
    return change;
  }

  before(() => {
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.mkdirSync(path.join(ws, DIR), { recursive: true });
    originalUi = apply().ui;
  });

  beforeEach(() => {
    asked = { placement: [], language: [], newFile: [] };
    answers = {};
    apply().ui = {
      pickPlacement: async (label, offered) => (asked.placement.push({ label, offered }), answers.placement),
      confirmLanguage: async (block, label, fileLanguage) => (asked.language.push(`${block} -> ${label} (${fileLanguage})`), answers.language),
      askNewFilePath: async (suggestion) => (asked.newFile.push(suggestion), answers.newFile),
    };
  });

  afterEach(async () => {
    for (const c of apply().pending()) await apply().discard(c.id);
    // what a test applied without saving is reverted: the next one starts from the files on disk
    await revertAndCloseAllEditors();
  });

  after(() => {
    apply().ui = originalUi;
    fs.rmSync(path.join(ws, DIR), { recursive: true, force: true });
  });

  it('a path in the info string picks that file, not the active editor', async () => {
    const target = await fixture('calc.ts', CALC);
    const other = await fixture('other.ts', 'export const other = 1;\n');
    await vscode.window.showTextDocument(other);
    const block = 'export function mul(a: number, b: number): number {\n  return b * a;\n}';
    const change = await proposed(await apply().propose({ code: block, info: `ts ${DIR}/calc.ts` }));
    assert.equal(change.target.toString(), target.uri.toString());
    assert.equal(change.after, CALC.replace('return a * b;', 'return b * a;'));
    assert.equal(other.getText(), 'export const other = 1;\n', 'the active editor is untouched');
    assert.equal(target.getText(), CALC, 'nothing is written before Accept');
    assert.deepEqual(asked, { placement: [], language: [], newFile: [] }, 'nothing was asked');
  });

  it("from the panel: the block's info string is found in the answer (the webview sends only the code)", async () => {
    const target = await fixture('panel.ts', CALC);
    const other = await fixture('other2.ts', 'export const other = 2;\n');
    await vscode.window.showTextDocument(other);
    const block = 'export function add(a: number, b: number): number {\n  return b + a;\n}';
    const chat = mg.api.chat.controller;
    await chat.newChat();
    await chat.send(`[[echo]]Change it:\n\n\`\`\`ts ${DIR}/panel.ts\n${block}\n\`\`\`\n`);
    const notices: string[] = [];
    const sub = chat.onDidPost((m) => m.type === 'notice' && notices.push(m.message));
    try {
      await chat.handle({ type: 'applyCode', code: block, language: 'ts' });
    } finally {
      sub.dispose();
    }
    assert.deepEqual(notices, []);
    const [change] = apply().pending();
    assert.ok(change, 'a change is pending');
    assert.equal(change.target.toString(), target.uri.toString());
    assert.equal(change.after, CALC.replace('return a + b;', 'return b + a;'));
  });

  it('a block whose first line matches a function replaces that function only', async () => {
    const doc = await fixture('region.ts', CALC);
    await vscode.window.showTextDocument(doc);
    const block = 'export function add(a: number, b: number, c = 0): number {\n  // three now\n  return a + b + c;\n}';
    const change = await proposed(await apply().propose({ code: block, language: 'ts' }));
    assert.equal(change.after, CALC.replace('export function add(a: number, b: number): number {\n  return a + b;\n}', block));
    assert.deepEqual(asked.placement, [], 'a matching region needs no question');
  });

  it('a block that matches no region asks where it goes, and "end of file" appends it', async () => {
    const doc = await fixture('ask.ts', CALC);
    await vscode.window.showTextDocument(doc);
    answers.placement = 'end';
    const block = 'export function sub(a: number, b: number): number {\n  return a - b;\n}';
    const change = await proposed(await apply().propose({ code: block, language: 'ts' }));
    assert.deepEqual(
      asked.placement.map((p) => p.offered),
      [['cursor', 'end', 'whole', 'newFile']],
    );
    assert.equal(change.after, `${CALC}${block}\n`);
  });

  it('a Go block for a TypeScript editor is asked about, not applied; cancelling proposes nothing', async () => {
    const doc = await fixture('mismatch.ts', CALC);
    await vscode.window.showTextDocument(doc);
    const goBlock = 'func Add(a, b int) int {\n\treturn a + b\n}';
    const outcome = await apply().propose({ code: goBlock, language: 'go' });
    assert.deepEqual(asked.language, [`Go -> ${DIR}/mismatch.ts (TypeScript)`]);
    assert.equal(outcome.kind, 'cancelled');
    assert.equal(apply().pending().length, 0);
    assert.equal(diffTabs().length, 0, 'no diff was opened');
    assert.equal(doc.getText(), CALC);
    // "apply anyway" is the user's call
    answers.language = 'apply';
    answers.placement = 'end';
    await proposed(await apply().propose({ code: goBlock, language: 'go' }));
  });

  it('Accept writes the change as one undo step, closes the diff and ends the status-bar entry', async () => {
    const doc = await fixture('accept.ts', CALC);
    await vscode.window.showTextDocument(doc);
    const block = 'export function mul(a: number, b: number): number {\n  const product = a * b;\n  return product;\n}';
    const change = await proposed(await apply().propose({ code: block, language: 'ts' }));
    assert.match(apply().statusText() ?? '', /accept\.ts/, 'the status bar names the pending change');
    assert.equal(await vscode.commands.executeCommand('modelgate.apply.accept'), 'accepted');
    assert.equal(doc.getText(), change.after);
    assert.equal(apply().pending().length, 0);
    assert.equal(apply().statusText(), undefined);
    assert.equal(diffTabs().length, 0, 'the diff was closed');
    const editor = await until(() => vscode.window.activeTextEditor?.document === doc && vscode.window.activeTextEditor, 'the changed file is shown');
    assert.equal(editor.document.getText(editor.selection), block, 'the new code is selected');
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), CALC, 'one undo restores the file');
  });

  it('Discard leaves the file untouched', async () => {
    const doc = await fixture('discard.ts', CALC);
    await vscode.window.showTextDocument(doc);
    await proposed(await apply().propose({ code: 'export function add(a: number, b: number): number {\n  return 0;\n}', language: 'ts' }));
    assert.ok(apply().statusText());
    assert.equal(await vscode.commands.executeCommand('modelgate.apply.discard'), 'discarded');
    assert.equal(doc.getText(), CALC);
    assert.equal(doc.isDirty, false);
    assert.equal(fs.readFileSync(doc.uri.fsPath, 'utf8'), CALC);
    assert.equal(apply().pending().length, 0);
    assert.equal(apply().statusText(), undefined);
    assert.equal(diffTabs().length, 0);
  });

  it('two pending changes do not mix: Accept and Discard act on the one whose diff is active', async () => {
    const one = await fixture('one.ts', CALC);
    const two = await fixture('two.ts', CALC);
    const blockOne = 'export function add(a: number, b: number): number {\n  return 1;\n}';
    const blockTwo = 'export function add(a: number, b: number): number {\n  return 2;\n}';
    const first = await proposed(await apply().propose({ code: blockOne, info: `ts ${DIR}/one.ts` }));
    const second = await proposed(await apply().propose({ code: blockTwo, info: `ts ${DIR}/two.ts` }));
    assert.notEqual(first.id, second.id);
    assert.equal(diffTabs().length, 2, 'each change has its own diff');
    assert.match(apply().statusText() ?? '', /2 changes/);
    assert.equal(await vscode.commands.executeCommand('modelgate.apply.accept'), 'accepted');
    assert.equal(two.getText(), second.after);
    assert.equal(one.getText(), CALC, 'the other file is untouched');
    assert.deepEqual(
      apply()
        .pending()
        .map((c) => c.id),
      [first.id],
    );
    // the first change's diff, brought back from the status bar's command, is the one discarded
    await vscode.commands.executeCommand('modelgate.apply.showPending');
    await until(() => activeDiffOf(first), 'the first diff is active');
    assert.equal(await vscode.commands.executeCommand('modelgate.apply.discard'), 'discarded');
    assert.equal(one.getText(), CALC);
    assert.equal(two.getText(), second.after, 'discarding the first does not undo the second');
  });

  it('a path outside the workspace is refused, and a new path becomes a new file on Accept', async () => {
    const outside = await apply().propose({ code: 'x', info: 'ts ../outside.ts' });
    assert.equal(outside.kind, 'refused');
    assert.match((outside as { message: string }).message, /points outside the workspace.*Nothing was applied/);
    assert.equal(apply().pending().length, 0);

    const fresh = file('fresh.ts');
    assert.equal(fs.existsSync(fresh.fsPath), false);
    const change = await proposed(await apply().propose({ code: '// fresh\nexport const fresh = 1;', info: `ts ${DIR}/fresh.ts` }));
    assert.equal(change.kind, 'create');
    assert.equal(fs.existsSync(fresh.fsPath), false, 'not created before Accept');
    assert.equal(await apply().accept(change.id), 'accepted');
    await until(() => fs.existsSync(fresh.fsPath), 'the new file exists');
    assert.equal(fs.readFileSync(fresh.fsPath, 'utf8'), '// fresh\nexport const fresh = 1;\n');
  });

  it('a file changed while the diff was open is not overwritten', async () => {
    const doc = await fixture('race.ts', CALC);
    await vscode.window.showTextDocument(doc);
    const change = await proposed(await apply().propose({ code: 'export function mul(a: number, b: number): number {\n  return 0;\n}', language: 'ts' }));
    const typed = new vscode.WorkspaceEdit();
    typed.insert(doc.uri, new vscode.Position(0, 0), '// typed meanwhile\n');
    assert.ok(await vscode.workspace.applyEdit(typed));
    assert.equal(await apply().accept(change.id), 'changed');
    assert.equal(doc.getText(), `// typed meanwhile\n${CALC}`);
    assert.equal(apply().pending().length, 0);
  });
});
