// The workspace tools in Restricted Mode (this suite runs in an extension host started WITHOUT
// --disable-workspace-trust): no tool is offered and no call reads anything.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createChatEdits } from '../../src/workspaceEdits/toolEdits';
import { createWorkspaceTools, UNTRUSTED_MESSAGE, type WorkspaceTools } from '../../src/agentTools';
import { PanelApprovals } from '../../src/chat/cards/panelApprovals';
import { sensitiveReadInPanel } from '../../src/agentTools/sensitiveAccess';
import { callMarkers } from '../gateway/markers';
import { allowedEntries } from '../../src/core/workspace/allowedCommands';

describe('workspace tools in an untrusted workspace (real VS Code, Restricted Mode)', () => {
  let tools: WorkspaceTools;
  let cts: vscode.CancellationTokenSource;

  before(() => {
    tools = createWorkspaceTools();
    cts = new vscode.CancellationTokenSource();
  });
  after(() => {
    tools.dispose();
    cts.dispose();
  });

  it('runs in Restricted Mode with a folder open', () => {
    assert.equal(vscode.workspace.isTrusted, false);
    assert.ok((vscode.workspace.workspaceFolders?.length ?? 0) > 0, 'a folder is open, so only trust can be the reason for refusing');
  });

  it('offers no tools', () => {
    assert.deepEqual(tools.definitions(), []);
  });

  it('refuses every call without reading anything', async () => {
    const calls = [
      { id: '1', name: 'read_file', arguments: JSON.stringify({ path: 'README.md' }) },
      // A missing file gets the same answer: the tool never got as far as looking.
      { id: '2', name: 'read_file', arguments: JSON.stringify({ path: 'no/such/file.txt' }) },
      { id: '3', name: 'list_files', arguments: '{}' },
      { id: '4', name: 'search_text', arguments: JSON.stringify({ query: 'Sample' }) },
      { id: '5', name: 'get_selection', arguments: '{}' },
      { id: '6', name: 'get_diagnostics', arguments: '{}' },
      // Even malformed calls are refused for trust first, not parsed.
      { id: '7', name: 'read_file', arguments: '{not json' },
    ];
    const results = await tools.runAll(calls, cts.token);
    assert.equal(results.length, calls.length);
    for (const r of results) {
      assert.deepEqual(r, { content: UNTRUSTED_MESSAGE, isError: true });
    }
    // And run() on its own:
    const single = await tools.run(calls[0]!, cts.token);
    assert.deepEqual(single, { content: UNTRUSTED_MESSAGE, isError: true });
    assert.ok(!single.content.includes('Sample workspace'));
  });

  it('offers no command tool, and a run_command call runs nothing (Restricted Mode)', async () => {
    const approvals = new PanelApprovals();
    let asked = 0;
    approvals.onDidChange(() => asked++);
    const log = { debug() {}, info() {}, warn() {}, error() {}, show() {} };
    const withCommands = createWorkspaceTools({
      commands: { approvals, settings: () => ({ allowedCommands: allowedEntries(['node -v']), commandTimeoutMs: 5000 }), log },
    });
    try {
      assert.deepEqual(withCommands.definitions(), []);
      const r = await withCommands.run({ id: 'c', name: 'run_command', arguments: JSON.stringify({ command: 'node -v' }) }, cts.token, {
        conversationId: 'x',
        messageId: 'y',
      });
      assert.deepEqual(r, { content: UNTRUSTED_MESSAGE, isError: true });
      assert.equal(asked, 0, 'no card was shown');
    } finally {
      withCommands.dispose();
      approvals.dispose();
    }
  });

  it('with the edit host present (as the chat builds its tools): offers no edit tool and no run_command, and the model’s scripted edit calls are refused and write nothing', async () => {
    const ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const target = path.join(ws, 'mg-untrusted-edit-target.txt');
    const ORIGINAL = 'MG_UNTRUSTED_ORIGINAL\n';
    fs.writeFileSync(target, ORIGINAL);
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-untrusted-edits-'));
    const logged: string[] = [];
    const approvals = new PanelApprovals();
    let asked = 0;
    approvals.onDidChange(() => asked++);
    const log = { debug() {}, info() {}, warn() {}, error() {}, show() {} };
    // what src/chat/index.ts builds when the workspace has storage for checkpoints (the edit tools' host)
    const edits = createChatEdits(vscode.Uri.file(storage), (m) => logged.push(m), approvals);
    const withEdits = createWorkspaceTools({
      edits,
      approveSensitiveRead: sensitiveReadInPanel(approvals),
      commands: { approvals, settings: () => ({ allowedCommands: allowedEntries(['node -v']), commandTimeoutMs: 5000 }), log },
    });
    try {
      assert.equal(edits.available(), true, 'the edit host is there: only Restricted Mode can hold the edit tools back');
      assert.deepEqual(
        withEdits.definitions().map((d) => d.function.name),
        [],
      );
      // The calls a model sends when it ignores what was offered, scripted with the simulator's markers.
      const scripted = callMarkers(
        '[[call:edit_file {"path":"mg-untrusted-edit-target.txt","edits":[{"search":"MG_UNTRUSTED_ORIGINAL","replace":"MG_UNTRUSTED_CHANGED"}]}]] ' +
          '[[call:create_file {"path":"mg-untrusted-created.txt","content":"x"}]] ' +
          '[[call:delete_file {"path":"mg-untrusted-edit-target.txt"}]] ' +
          '[[call:run_command {"command":"node -v"}]]',
      );
      assert.deepEqual(
        scripted.map((c) => c.name),
        ['edit_file', 'create_file', 'delete_file', 'run_command'],
      );
      const context = { conversationId: 'mg-untrusted-conversation', messageId: 'mg-untrusted-answer' };
      const results = await withEdits.runAll(
        scripted.map((c, i) => ({ id: `call_${i + 1}`, ...c })),
        cts.token,
        context,
      );
      for (const r of results) assert.deepEqual(r, { content: UNTRUSTED_MESSAGE, isError: true });
      assert.deepEqual((await edits.state(context.conversationId)).answers, [], 'nothing staged');
      assert.equal(edits.review.answers.size, 0, 'no answer’s changes were even started');
      assert.deepEqual(fs.readdirSync(storage), [], 'no checkpoint written');
      assert.equal(fs.readFileSync(target, 'utf8'), ORIGINAL);
      assert.equal(fs.existsSync(path.join(ws, 'mg-untrusted-created.txt')), false);
      assert.deepEqual(logged, [], 'no edit was logged (nothing was staged or refused by the edit tools)');
      assert.equal(asked, 0, 'no card was shown');
    } finally {
      withEdits.dispose();
      edits.dispose();
      approvals.dispose();
      fs.rmSync(target, { force: true });
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });
});
