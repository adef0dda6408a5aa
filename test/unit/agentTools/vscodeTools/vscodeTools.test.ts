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
    let reply = 'once';
    approvals.onDidChange((c) => {
      shown.push(c);
      if (c.kind === 'shown') queueMicrotask(() => approvals.answer(c.approval.id, reply));
    });
    const t = tools.withVscodeTools(inner, {
      approvals,
      defaults: () => defaults,
      log: () => undefined,
      host: host(list, {}),
      invoke: (name, input) => invoke(name, input),
      ...(inputPrice ? { inputPrice } : {}),
    });
    return { t, shown, setReply: (r: string) => (reply = r) };
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
});
