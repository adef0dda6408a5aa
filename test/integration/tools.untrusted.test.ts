// The workspace tools in Restricted Mode (this suite runs in an extension host started WITHOUT
// --disable-workspace-trust): no tool is offered and no call reads anything.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createWorkspaceTools, UNTRUSTED_MESSAGE, type WorkspaceTools } from '../../src/chat/tools';
import { PanelApprovals } from '../../src/chat/tools/panelApproval';

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
    const withCommands = createWorkspaceTools({ commands: { approvals, settings: () => ({ allowedCommands: ['node'], commandTimeoutMs: 5000 }), log } });
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
});
