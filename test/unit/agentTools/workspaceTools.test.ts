// The workspace tools' answers that need no file system, with a `vscode` stand-in: without
// run_command (the web extension host, or no command support wired in) a call of it tells the
// model why, not just "unknown tool"; and the note run_command and get_diagnostics add while
// changes staged by the edit tools are not on disk yet.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { installVscodeStub, vscodeStub } from '../vscodeStub';
import { stagedNote } from '../../../src/agentTools/stagedNote';

type Tools = typeof import('../../../src/agentTools');

const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) } as unknown as vscode.CancellationToken;

describe('workspace tools: run_command where it is not offered', () => {
  let tools: Tools;
  const workspace = vscodeStub.workspace as Record<string, unknown>;
  const saved = { ...workspace };
  before(async () => {
    installVscodeStub();
    Object.assign(workspace, {
      isTrusted: true,
      workspaceFolders: [{ name: 'ws', index: 0, uri: { scheme: 'file', path: '/ws', fsPath: '/ws' } }],
      onDidGrantWorkspaceTrust: () => ({ dispose: () => undefined }),
    });
    tools = await import('../../../src/agentTools');
  });
  after(() => {
    for (const k of Object.keys(workspace)) if (!(k in saved)) delete workspace[k];
  });

  it('is not among the definitions, and a call of it says why (not "Unknown tool")', async () => {
    const t = tools.createWorkspaceTools({});
    try {
      const names = t.definitions().map((d) => d.function.name);
      assert.ok(names.includes('read_file') && !names.includes('run_command'), names.join(', '));
      const r = await t.run({ id: 'c1', name: 'run_command', arguments: '{"command":"npm test"}' }, token);
      assert.deepEqual(r, { content: tools.NO_COMMANDS_MESSAGE, isError: true });
      assert.match(r.content, /not in VS Code for the Web\. Nothing was run\. Tell the user the command to run instead\./);
      const unknown = await t.run({ id: 'c2', name: 'rm_rf', arguments: '{}' }, token);
      assert.match(unknown.content, /^Unknown tool "rm_rf"\. Available tools: read_file, /);
      assert.doesNotMatch(unknown.content, /run_command/);
    } finally {
      t.dispose();
    }
  });
});

describe('the note on changes staged but not on disk', () => {
  it('says nothing when nothing is staged', () => {
    assert.equal(stagedNote([], 'run_command'), '');
    assert.equal(stagedNote([], 'get_diagnostics'), '');
  });

  it('run_command: names the files and says the command ran on the disk', () => {
    assert.equal(
      stagedNote(['a.ts', 'b.ts', 'c.ts'], 'run_command'),
      'Note: 3 files with changes staged in this conversation are not on disk yet (a.ts, b.ts, c.ts); the command ran against the files on disk, without those changes. If it needs them, ask the user to keep them first.\n',
    );
    assert.match(stagedNote(['a.ts'], 'run_command'), /^Note: 1 file with changes staged in this conversation is not on disk yet \(a\.ts\);/);
  });

  it('get_diagnostics: the problems are of the files without those changes; a long list is cut with a count', () => {
    const paths = Array.from({ length: 8 }, (_, i) => `f${i}.ts`);
    assert.equal(
      stagedNote(paths, 'get_diagnostics'),
      'Note: 8 files with changes staged in this conversation are not on disk yet (f0.ts, f1.ts, f2.ts, f3.ts, f4.ts, … (3 more)); these problems are of the files as VS Code has them, without those changes.\n',
    );
  });
});
