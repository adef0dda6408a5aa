// Restoring files to before an answer, when what is on disk disagrees with what the panel knows:
// a checkpoint manifest whose display names differ from the files it points at, a checkpoint blob
// replaced by a link to another file, and a workspace file that is a second name (hard link) of a
// file outside the workspace. Real VS Code, the gateway simulator scripting the model's edits.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { useModelgate } from './helpers';

const KEY = 'sk-restore-suite-51c0b2';
const FIX = 'mg-restore-fixture';
const IMPORTANT = 'export const important = 1;\n';
const VICTIM = 'export const victim = 1;\n';
const SECRET = 'OUTSIDE_SECRET_d41f\n';

const call = (name: string, args: unknown) => `[[call:${name} ${JSON.stringify(args)}]]`;

describe('checkpoint restore acts only on what it names (real VS Code)', function () {
  this.timeout(60_000);
  const mg = useModelgate({ gateway: { keys: { [KEY]: { balance: 100 } } }, key: KEY, chat: true });
  let ws: string;
  /** beside the workspace folder, on the same file system (hard links need that) */
  let outside: string;
  const at = (rel: string) => path.join(ws, FIX, rel);
  const read = (rel: string) => fs.readFileSync(at(rel), 'utf8');
  const edits = () => mg.api.chat.edits;
  const checkpointDir = (answerId: string) => path.join(edits().review.checkpoints.root.fsPath, answerId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120));

  /** Sends a scripted answer (every card answered with its safe choice) and keeps its edits. */
  async function keptAnswer(text: string): Promise<{ id: string; statuses: string[]; results: string[] }> {
    const chat = mg.api.chat.controller;
    const sub = chat.onDidPost((m) => {
      if (m.type === 'approvalRequest')
        queueMicrotask(() => void mg.api.chat.view.receive({ type: 'approvalAnswer', id: m.approval.id, choiceId: m.approval.safeChoiceId }));
    });
    try {
      await chat.send(text);
    } finally {
      sub.dispose();
    }
    const last = (await chat.conversation()).messages.at(-1)!;
    assert.equal(last.role, 'assistant');
    const calls = last.role === 'assistant' ? last.parts.flatMap((p) => (p.kind === 'tool' ? [p.call] : [])) : [];
    if (calls.every((c) => c.status === 'done')) assert.deepEqual(await edits().keep(last.id), []);
    return { id: last.id, statuses: calls.map((c) => c.status), results: calls.map((c) => c.result ?? '') };
  }

  before(async () => {
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.mkdirSync(at(''), { recursive: true });
    fs.writeFileSync(at('important.ts'), IMPORTANT);
    fs.writeFileSync(at('scratch.txt'), 'scratch\n');
    outside = fs.mkdtempSync(path.join(path.dirname(ws), 'mg-restore-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), SECRET);
    await mg.api.chat.controller.newChat();
  });

  after(() => {
    fs.rmSync(at(''), { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('the dialog and the panel name the file a restore changes, whatever name the checkpoint manifest gives it', async () => {
    const r = await keptAnswer(call('edit_file', { path: `${FIX}/important.ts`, edits: [{ search: 'important = 1', replace: 'important = 2' }] }));
    const manifestFile = path.join(checkpointDir(r.id), 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { files: { display: string }[] };
    manifest.files[0]!.display = `${FIX}/scratch.txt`;
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    const controller = await mg.api.chat.reload();
    const c = await controller.conversation();
    const view = (await edits().state(c.id)).answers.find((a) => a.messageId === r.id);
    assert.deepEqual(
      view?.files.map((f) => f.path),
      [`${FIX}/important.ts`],
      'the panel names the file the checkpoint points at',
    );
    let shown = '';
    edits().ui.confirmRestore = (message, detail) => {
      shown = `${message}\n${detail}`;
      return Promise.resolve(false);
    };
    assert.deepEqual(await edits().restore(r.id), { kind: 'cancelled' });
    assert.match(shown, /mg-restore-fixture\/important\.ts: put back its text from before this answer/);
    assert.doesNotMatch(shown, /scratch/, 'the manifest’s name is not shown');
    assert.equal(read('important.ts'), IMPORTANT.replace('1', '2'), 'cancelled: nothing changed');
  });

  it('a checkpoint blob that is a link (symbolic or hard) to another file is not read into the workspace', async () => {
    for (const kind of ['symbolic', 'hard'] as const) {
      // a file of its own per case: one rewritten on disk while its document is open could be
      // edited from the editor's older text on a loaded machine
      const victim = `victim-${kind}.ts`;
      fs.writeFileSync(at(victim), VICTIM);
      const r = await keptAnswer(call('edit_file', { path: `${FIX}/${victim}`, edits: [{ search: 'victim = 1', replace: 'victim = 2' }] }));
      assert.deepEqual(r.statuses, ['done'], `${kind}: the edit was staged and kept (${r.results.join(' | ')})`);
      const dir = checkpointDir(r.id);
      const blob = fs.readdirSync(dir).find((n) => n.endsWith('.orig'))!;
      assert.ok(blob, 'the original text was checkpointed');
      fs.rmSync(path.join(dir, blob));
      // the outside file for the hard link sits beside the checkpoints (same file system)
      const target =
        kind === 'symbolic' ? path.join(outside, 'secret.txt') : path.join(path.dirname(edits().review.checkpoints.root.fsPath), 'mg-hard-secret.txt');
      if (kind === 'hard') fs.writeFileSync(target, SECRET);
      if (kind === 'symbolic') fs.symlinkSync(target, path.join(dir, blob));
      else fs.linkSync(target, path.join(dir, blob));
      edits().ui.confirmRestore = () => Promise.resolve(true);
      const outcome = await edits().restore(r.id);
      if (kind === 'hard') fs.rmSync(target, { force: true });
      assert.equal(outcome.kind, 'restored');
      assert.match(
        outcome.kind === 'restored' ? outcome.problems.join('\n') : '',
        new RegExp(`The checkpoint of mg-restore-fixture/${victim.replace('.', '\\.')} is missing`),
        kind,
      );
      assert.equal(read(victim), VICTIM.replace('1', '2'), `${kind} link: the outside text was not written into the workspace`);
    }
  });

  it('a workspace file that is a hard link to a file outside is refused for edits, and the outside file stays as it was', async () => {
    const secret = path.join(outside, 'secret.txt');
    try {
      fs.linkSync(secret, at('linked.ts'));
    } catch (err) {
      assert.fail(`the fixture's hard link could not be made (${String(err)}): the workspace and ${outside} must share a file system`);
    }
    const r = await keptAnswer(call('edit_file', { path: `${FIX}/linked.ts`, edits: [{ search: 'OUTSIDE', replace: 'CHANGED' }] }));
    assert.deepEqual(r.statuses, ['error']);
    assert.match(r.results[0]!, /is a hard link: the same file has another name/);
    assert.equal(fs.readFileSync(secret, 'utf8'), SECRET, 'the outside file is unchanged');
    assert.equal(edits().review.answers.get(r.id)?.files.size ?? 0, 0, 'nothing staged');
  });
});
