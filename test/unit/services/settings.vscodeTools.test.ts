// `modelgate.chat.vscodeTools` comes from user settings only: a workspace's value never
// switches on a tool from VS Code (an MCP server's, another extension's), not beside the user's
// list, not as the only value, not in a folder or language scope; it is reported once as ignored.
// Read by the real readSettings() (a `vscode` stand-in supplies the setting's scopes) and used as
// the defaults of the panel's picker by the real src/agentTools/vscodeTools, as src/chat/index.ts does.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { ChatTools } from '../../../src/agentTools/chatTools';
import { PanelApprovals } from '../../../src/chat/cards/panelApprovals';
import { installVscodeStub, stubState, type StubSetting } from '../vscodeStub';

const KEY = 'chat.vscodeTools';
const IGNORED = '"modelgate.chat.vscodeTools" in this workspace';

const tool = (name: string): vscode.LanguageModelToolInformation =>
  ({ name, description: `does ${name}`, tags: ['mcp'], inputSchema: { type: 'object', properties: {} }, source: { label: 'srv' } }) as never;
const inner: ChatTools = {
  definitions: () => [{ type: 'function', function: { name: 'read_file', parameters: {} } }],
  runAll: (calls) => Promise.resolve(calls.map(() => ({ content: '', isError: false }))),
};

describe('services/settings: a workspace’s modelgate.chat.vscodeTools is never used', () => {
  let settings: typeof import('../../../src/services/settings');
  let tools: typeof import('../../../src/agentTools/vscodeTools');
  before(async () => {
    installVscodeStub();
    settings = await import('../../../src/services/settings');
    tools = await import('../../../src/agentTools/vscodeTools');
  });
  beforeEach(() => stubState.settings.clear());

  it('reads the user’s list only and says the workspace’s is ignored, in every scope', () => {
    const scopes: StubSetting[] = [
      { globalValue: ['mcp_srv_mine'], workspaceValue: ['mcp_srv_mine', 'mcp_srv_theirs'] },
      { globalValue: ['mcp_srv_mine'], workspaceFolderValue: ['mcp_srv_theirs'] },
      // "[markdown]": { "modelgate.chat.vscodeTools": [...] } in the workspace's settings
      { globalValue: ['mcp_srv_mine'], workspaceLanguageValue: ['mcp_srv_theirs'] } as StubSetting,
      { globalValue: ['mcp_srv_mine'], workspaceFolderLanguageValue: ['mcp_srv_theirs'] } as StubSetting,
    ];
    for (const scope of scopes) {
      stubState.settings.set(KEY, scope);
      const s = settings.readSettings();
      assert.deepEqual(s.vscodeTools, ['mcp_srv_mine'], JSON.stringify(scope));
      assert.equal(s.problems.filter((p) => p.includes(IGNORED)).length, 1, JSON.stringify(scope));
    }
    stubState.settings.set(KEY, { globalValue: ['mcp_srv_mine'] });
    assert.equal(settings.readSettings().problems.filter((p) => p.includes(IGNORED)).length, 0, 'the user’s own value is not reported');
    stubState.settings.set(KEY, { workspaceValue: ['mcp_srv_theirs'] });
    assert.deepEqual(settings.readSettings().vscodeTools, [], 'a workspace value alone switches nothing on');
  });

  it('a tool the workspace lists is off in the picker and never offered to the model; the user’s is on', () => {
    const t = tools.withVscodeTools(inner, {
      approvals: new PanelApprovals(),
      defaults: () => settings.readSettings().vscodeTools,
      log: () => undefined,
      host: { tools: () => [tool('mcp_srv_mine'), tool('mcp_srv_theirs')], contributors: () => new Map() },
    });
    stubState.settings.set(KEY, { globalValue: ['mcp_srv_mine'], workspaceValue: ['mcp_srv_theirs'], workspaceFolderValue: ['mcp_srv_theirs'] });
    assert.deepEqual(
      t.vscodeTools.picker('c1').map((r) => [r.name, r.on]),
      [
        ['mcp_srv_mine', true],
        ['mcp_srv_theirs', false],
      ],
    );
    assert.deepEqual(
      t.definitions('c1').map((d) => d.function.name),
      ['read_file', 'mcp_srv_mine'],
    );
  });
});
