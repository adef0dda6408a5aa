// Tools from VS Code in the panel (src/agentTools/vscodeTools) with a `vscode` stand-in: which tools are
// listed and under which names (none replaces one of Modelgate's), none offered until switched on
// for the conversation, the approval card before each call (Skip the default), and what the model
// gets back: the result capped, images or a note, Skip, a tool that throws.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { ToolDefinition } from '../../../../src/core/client/types';
import type { ChatTools } from '../../../../src/agentTools/chatTools';
import { PanelApprovals, type ApprovalChange } from '../../../../src/chat/cards/panelApprovals';
import { installVscodeStub, vscodeStub } from '../../vscodeStub';

type Catalog = typeof import('../../../../src/agentTools/vscodeTools/catalog');
type Tools = typeof import('../../../../src/agentTools/vscodeTools');

const tool = (name: string, tags: string[] = [], source?: object): vscode.LanguageModelToolInformation =>
  ({ name, description: `does ${name}`, tags, inputSchema: { $schema: 'x', type: 'object', properties: { text: { type: 'string' } } }, source }) as never;

const tokenSource = () => {
  const listeners: (() => void)[] = [];
  const token = {
    isCancellationRequested: false,
    onCancellationRequested: (l: () => void) => {
      listeners.push(l);
      return { dispose: () => undefined };
    },
  };
  return { token: token as unknown as vscode.CancellationToken, cancel: () => ((token.isCancellationRequested = true), listeners.forEach((l) => l())) };
};

const own: ToolDefinition = { type: 'function', function: { name: 'read_file', parameters: {} } };
const inner: ChatTools = {
  definitions: () => [own],
  runAll: (calls) => Promise.resolve(calls.map((c) => ({ content: `inner ${c.name}`, isError: false }))),
};

describe('agentTools/vscodeTools: tools from VS Code in the panel', () => {
  let catalog: Catalog;
  let tools: Tools;
  before(async () => {
    installVscodeStub();
    catalog = await import('../../../../src/agentTools/vscodeTools/catalog');
    tools = await import('../../../../src/agentTools/vscodeTools');
  });

  const host = (list: vscode.LanguageModelToolInformation[], contributors: Record<string, string> = {}) => ({
    tools: () => list,
    contributors: () => new Map(Object.entries(contributors)),
  });

  it('lists MCP tools and other extensions’ tools; not Modelgate’s own nor VS Code’s built-in ones; a clashing name is prefixed', () => {
    const list = catalog.listVscodeTools(
      host(
        [
          tool('mcp_github_search', ['mcp'], { label: 'github' }),
          tool('modelgate_generate_image'),
          tool('run_in_terminal'),
          tool('read_file'),
          tool('vscode_read_file'),
          tool('mcp_x_y', ['mcp']),
        ],
        { read_file: 'Runner', vscode_read_file: 'Other', modelgate_generate_image: 'Modelgate' },
      ),
      new Set(['read_file', 'generate_image']),
    );
    assert.deepEqual(
      list.map((e) => [e.name, e.modelName, e.source]),
      [
        ['mcp_github_search', 'mcp_github_search', { kind: 'mcp', server: 'github' }],
        ['read_file', 'vscode_read_file', { kind: 'extension', extension: 'Runner' }],
        ['vscode_read_file', 'vscode_vscode_read_file', { kind: 'extension', extension: 'Other' }],
        ['mcp_x_y', 'mcp_x_y', { kind: 'mcp', server: 'x' }],
      ],
    );
    assert.equal((list[0]!.definition.function.parameters as { $schema?: string }).$schema, undefined, 'no $schema sent');
    assert.ok(list[0]!.tokens > 5);
  });

  function setup(
    list: vscode.LanguageModelToolInformation[],
    invoke: (name: string, input: object) => Promise<{ content: unknown[] }>,
    defaults: string[] = [],
    inputPrice?: () => number | undefined,
  ) {
    const approvals = new PanelApprovals();
    const shown: ApprovalChange[] = [];
    const logs: string[] = [];
    let reply = 'once';
    approvals.onDidChange((c) => {
      shown.push(c);
      if (c.kind === 'shown') queueMicrotask(() => approvals.answer(c.approval.id, reply));
    });
    const t = tools.withVscodeTools(inner, {
      approvals,
      defaults: () => defaults,
      log: (line) => void logs.push(line),
      host: host(list, {}),
      invoke: (name, input) => invoke(name, input),
      ...(inputPrice ? { inputPrice } : {}),
    });
    return { t, shown, logs, setReply: (r: string) => (reply = r) };
  }
  const ctx = { conversationId: 'c1', messageId: 'm1' };
  const call = (name: string, args: object | string) => ({ id: `call-${name}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

  it('offers none until switched on for the conversation (or in the user setting); an unpicked call is not run', async () => {
    let invoked = 0;
    const { t } = setup([tool('mcp_s_echo', ['mcp'])], () => (invoked++, Promise.resolve({ content: [] })));
    assert.deepEqual(
      t.definitions('c1').map((d) => d.function.name),
      ['read_file'],
    );
    const [r] = await t.runAll([call('mcp_s_echo', {})], tokenSource().token, ctx);
    assert.equal(r!.isError, true);
    assert.match(r!.content, /not switched on/);
    assert.equal(invoked, 0);
    assert.equal(t.vscodeTools.toggle('c1', 'mcp_s_echo'), true);
    assert.deepEqual(
      t.definitions('c1').map((d) => d.function.name),
      ['read_file', 'mcp_s_echo'],
    );
    assert.deepEqual(
      t.definitions('c2').map((d) => d.function.name),
      ['read_file'],
      'per conversation',
    );
    const { t: t2 } = setup([tool('mcp_s_echo', ['mcp'])], () => Promise.resolve({ content: [] }), ['mcp_s_echo']);
    assert.equal(t2.vscodeTools.picker('c9')[0]!.on, true, 'the user setting switches it on');
    assert.equal(t.vscodeTools.toggle('c1', 'no_such_tool'), false);
  });

  it('asks first (Skip the default); Allow once runs it and the text goes back; Skip does not run it; Always asks no more in the conversation', async () => {
    const inputs: object[] = [];
    const { t, shown, setReply } = setup([tool('mcp_s_echo', ['mcp'], { label: 'srv' })], (_n, input) => {
      inputs.push(input);
      return Promise.resolve({ content: [new vscodeStub.LanguageModelTextPart('echoed')] });
    });
    t.vscodeTools.toggle('c1', 'mcp_s_echo');
    const [a] = await t.runAll([call('mcp_s_echo', { text: 'hi' })], tokenSource().token, ctx);
    assert.deepEqual(a, { content: 'echoed', isError: false });
    const card = shown.find((c) => c.kind === 'shown');
    assert.ok(card?.kind === 'shown');
    assert.equal(card.approval.safeChoiceId, 'skip');
    assert.deepEqual(
      card.approval.choices.map((c) => c.label),
      ['Allow once', 'Always allow this tool in this conversation', 'Skip'],
    );
    assert.ok(card.approval.detail.includes('From MCP server “srv”'));
    assert.match(card.approval.code!, /"text": "hi"/);

    setReply('skip');
    const [s] = await t.runAll([call('mcp_s_echo', { text: 'no' })], tokenSource().token, ctx);
    assert.equal(s!.denied, true);
    assert.match(s!.content, /skipped/);
    assert.equal(inputs.length, 1, 'Skip runs nothing');

    setReply('always');
    await t.runAll([call('mcp_s_echo', { text: 'a' })], tokenSource().token, ctx);
    const asked = shown.filter((c) => c.kind === 'shown').length;
    await t.runAll([call('mcp_s_echo', { text: 'b' })], tokenSource().token, ctx);
    assert.equal(shown.filter((c) => c.kind === 'shown').length, asked, 'not asked again');
    assert.equal(inputs.length, 3);
  });

  it('a tool that throws is a tool error; bad JSON is not run; Modelgate’s own tool names go to its own tools', async () => {
    const { t } = setup([tool('read_file'), tool('mcp_s_boom', ['mcp'])], () => Promise.reject(new Error('kaput')));
    t.vscodeTools.toggle('c1', 'mcp_s_boom');
    t.vscodeTools.toggle('c1', 'read_file');
    const [boom, bad, ownRead] = await t.runAll(
      [call('mcp_s_boom', { a: 1 }), call('mcp_s_boom', '{nope'), call('read_file', { path: 'x' })],
      tokenSource().token,
      ctx,
    );
    assert.deepEqual(boom, { content: 'The tool mcp_s_boom failed: kaput', isError: true });
    assert.equal(bad!.isError, true);
    assert.match(bad!.content, /not valid JSON/);
    assert.deepEqual(ownRead, { content: 'inner read_file', isError: false }, 'the foreign read_file does not replace ours');
  });

  it('images go to a model that takes them, else a note; text is capped', async () => {
    const png = new Uint8Array([137, 80, 78, 71]);
    const huge = 'x'.repeat(200_000);
    const { t } = setup([tool('mcp_s_img', ['mcp'])], () =>
      Promise.resolve({ content: [new vscodeStub.LanguageModelTextPart(huge), { mimeType: 'image/png', data: png }] }),
    );
    t.vscodeTools.toggle('c1', 'mcp_s_img');
    const [noImages] = await t.runAll([call('mcp_s_img', {})], tokenSource().token, ctx);
    assert.ok(noImages!.content.length < 110_000, 'capped');
    assert.match(noImages!.content, /left out: the model does not take image input/);
    assert.equal(noImages!.modelImages, undefined);
    const [withImages] = await t.runAll([call('mcp_s_img', {})], tokenSource().token, { ...ctx, imageInput: true });
    assert.deepEqual(withImages!.modelImages, ['data:image/png;base64,iVBORw==']);
  });

  it("a result an extension's tool marks as an error (hasError) is a failed call; one without the mark is not", async () => {
    let hasError: boolean | undefined = true;
    const { t } = setup([tool('mcp_s_flag', ['mcp'])], () => Promise.resolve({ content: [new vscodeStub.LanguageModelTextPart('no such branch')], hasError }));
    t.vscodeTools.toggle('c1', 'mcp_s_flag');
    const [failed] = await t.runAll([call('mcp_s_flag', {})], tokenSource().token, ctx);
    assert.equal(failed!.isError, true, failed!.content);
    assert.match(failed!.content, /no such branch/);
    hasError = undefined;
    const [plain] = await t.runAll([call('mcp_s_flag', {})], tokenSource().token, ctx);
    assert.equal(plain!.isError, false);
  });

  it('the picker gives each tool’s rough cost per request: its tokens at the model’s input price; none when no price is known', () => {
    let price: number | undefined = 3; // USD per 1M input tokens
    const { t } = setup(
      [tool('mcp_s_echo', ['mcp']), tool('mcp_s_other', ['mcp'])],
      () => Promise.resolve({ content: [] }),
      [],
      () => price,
    );
    const [echo, other] = t.vscodeTools.picker('c1');
    assert.ok(echo!.tokens > 10);
    assert.equal(echo!.cost, (echo!.tokens * 3) / 1_000_000);
    assert.equal(other!.cost, (other!.tokens * 3) / 1_000_000);
    assert.equal(tools.requestCost(1_000, 2.5), 0.0025);
    price = undefined;
    assert.deepEqual(
      t.vscodeTools.picker('c1').map((r) => 'cost' in r),
      [false, false],
      'an unknown price gives no cost (never $0)',
    );
    price = Number.NaN;
    assert.equal(t.vscodeTools.picker('c1')[0]!.cost, undefined, 'nor does a price that is not a number');
    price = 0;
    assert.equal(t.vscodeTools.picker('c1')[0]!.cost, 0, 'a free model: 0, which the panel leaves out');
    const { t: unpriced } = setup([tool('mcp_s_echo', ['mcp'])], () => Promise.resolve({ content: [] }));
    assert.equal(unpriced.vscodeTools.picker('c1')[0]!.cost, undefined, 'no price source: no cost');
  });

  it('a refresh reports a change only when VS Code’s list (or the price) differs from what the picker last listed', () => {
    const list = [tool('mcp_s_echo', ['mcp'])];
    let price: number | undefined = 1;
    const { t } = setup(
      list,
      () => Promise.resolve({ content: [] }),
      [],
      () => price,
    );
    assert.equal(t.vscodeTools.changedSinceListed(), true, 'nothing listed yet');
    assert.equal(t.vscodeTools.changedSinceListed(), false);
    t.vscodeTools.picker('c1');
    assert.equal(t.vscodeTools.changedSinceListed(), false, 'the same list');
    list.push(tool('mcp_s_new', ['mcp'])); // an MCP server started
    assert.equal(t.vscodeTools.changedSinceListed(), true);
    t.vscodeTools.picker('c1');
    assert.equal(t.vscodeTools.changedSinceListed(), false);
    price = 2; // another model
    assert.equal(t.vscodeTools.changedSinceListed(), true);
    t.vscodeTools.toggle('c1', 'mcp_s_new');
    assert.equal(t.vscodeTools.changedSinceListed(), false, 'a switch is posted by the toggle itself');
    list.splice(0, 2); // the server stopped
    assert.equal(t.vscodeTools.changedSinceListed(), true);
  });

  it('a tool that throws a 10 MB error: the model gets 4,000 characters, the log the start and the length', async () => {
    const huge = 'E'.repeat(10 * 1024 * 1024);
    const { t, logs } = setup([tool('mcp_s_boom', ['mcp'])], () => Promise.reject(new Error(huge)));
    t.vscodeTools.toggle('c1', 'mcp_s_boom');
    const [r] = await t.runAll([call('mcp_s_boom', {})], tokenSource().token, ctx);
    assert.equal(r!.isError, true);
    assert.ok(r!.content.length <= 4_000);
    assert.equal(logs.length, 1);
    assert.ok(logs[0]!.length < 500, `${logs[0]!.length} characters logged`);
    assert.match(logs[0]!, /^Chat: VS Code tool mcp_s_boom failed: E+… \(10485760 characters\)$/);
  });

  it('a tool whose description or definition is too large is listed with a note, never sent, never run', async () => {
    const { TOOL_DESCRIPTION_MAX_CHARS, TOOL_DEFINITION_MAX_CHARS } = catalog;
    const longDescription = { ...tool('mcp_s_long', ['mcp']), description: 'd'.repeat(10 * 1024 * 1024) } as vscode.LanguageModelToolInformation;
    const bigSchema = {
      ...tool('mcp_s_schema', ['mcp']),
      inputSchema: { type: 'object', properties: { x: { type: 'string', description: 's'.repeat(TOOL_DEFINITION_MAX_CHARS) } } },
    } as vscode.LanguageModelToolInformation;
    const atLimit = { ...tool('mcp_s_ok', ['mcp']), description: 'o'.repeat(TOOL_DESCRIPTION_MAX_CHARS) } as vscode.LanguageModelToolInformation;
    let invoked = 0;
    // on in every conversation by the user setting: still not offered
    const { t, logs } = setup(
      [longDescription, bigSchema, atLimit],
      () => (invoked++, Promise.resolve({ content: [] })),
      ['mcp_s_long', 'mcp_s_schema', 'mcp_s_ok'],
      () => 3,
    );
    const rows = t.vscodeTools.picker('c1');
    assert.deepEqual(
      rows.map((r) => [r.name, r.on, r.refused]),
      [
        [
          'mcp_s_long',
          false,
          `Not offered: its description has ${10 * 1024 * 1024} characters (the limit is ${TOOL_DESCRIPTION_MAX_CHARS}), and it would be sent with every request.`,
        ],
        ['mcp_s_schema', false, rows[1]!.refused],
        ['mcp_s_ok', true, undefined],
      ],
    );
    assert.match(rows[1]!.refused ?? '', /^Not offered: its definition has \d+ characters \(the limit is 32000\)/);
    assert.ok(rows[0]!.tokens > 2_000_000, 'the size it would have added is shown');
    assert.equal(t.vscodeTools.toggle('c1', 'mcp_s_long'), false, 'cannot be switched on');
    const sent = t.definitions('c1');
    assert.deepEqual(
      sent.map((d) => d.function.name),
      ['read_file', 'mcp_s_ok'],
    );
    assert.ok(JSON.stringify(sent).length < TOOL_DESCRIPTION_MAX_CHARS + 1_000);
    const [r] = await t.runAll([call('mcp_s_long', {})], tokenSource().token, ctx);
    assert.equal(r!.isError, true);
    assert.match(r!.content, /not offered: its definition is too large/);
    assert.equal(invoked, 0);
    t.vscodeTools.picker('c1');
    assert.equal(logs.length, 2, 'each refusal logged once');
    for (const line of logs) assert.ok(line.length < 300, line);
  });
});
