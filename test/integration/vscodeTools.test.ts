// Tools from VS Code in the chat panel, in a real VS Code 1.139: the test MCP
// server (test/harness/mcp-server/server.ts, in the profile's User/mcp.json: test/harness/mcp.ts)
// is started the way a user would start it (VS Code's `workbench.mcp.startServer`, what MCP: List
// Servers > Start Server runs), and its tools appear in `vscode.lm.tools`; the test-runner extension
// contributes `read_file` (named like Modelgate's own) and `mgtest_throws`. The panel lists them in
// its picker (a server started later shows at the panel's next refresh, which it asks for on focus),
// offers only those switched on, asks in its approval card before each call ("Always allow" holds
// for the conversation only), and hands the result, the user's Skip or the tool's error to the
// model (the simulator records the request).
// An MCP image result goes to a model that takes images (else a note); an MCP `isError` result, and
// a handler that throws, reach Modelgate as plain text (VS Code 1.139 passes no error flag).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatMessage } from '../../src/core/client/types';
import type { ApprovalView, ComposerState, HostMessage, VscodeToolView } from '../../src/chat/protocol';
import { config, until, useModelgate } from './helpers';

const KEY = 'sk-vscode-tools-3c9e';
const ECHO = 'mcp_modelgate-tes_echo_note';
const THROWS = 'mgtest_throws';
const BADGE = 'mcp_modelgate-tes_badge_png';
const FAIL = 'mcp_modelgate-tes_fail_note';
const CRASH = 'mcp_modelgate-tes_crash_note';

describe('VS Code tools in the panel (real VS Code, MCP server)', function () {
  this.timeout(60_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: { 'chat.model': 'flagship-text', 'chat.vscodeTools': [] },
    ready: (api) => api.settings().chatModel === 'flagship-text',
    key: KEY,
    chat: true,
  });
  const chat = () => mg.api.chat.controller;
  let posts: HostMessage[] = [];
  let sub: vscode.Disposable | undefined;

  /** what the panel showed around the server's start (the picker's refresh, checked by the first test) */
  const startup = { listedBefore: true, inPickerBeforeRefresh: true, inPickerAfterRefresh: false, postsOnUnchangedRefresh: -1 };

  before(async () => {
    const seen: HostMessage[] = [];
    const watch = chat().onDidPost((m) => void seen.push(m));
    try {
      await chat().newChat(); // the panel's picker before the server runs
      startup.listedBefore = vscode.lm.tools.some((t) => t.name === ECHO);
      // what "MCP: List Servers > Start Server" runs (autoTrustChanges: as when the user starts it, no
      // trust question); VS Code lists the tools once the server answered tools/list
      void vscode.commands.executeCommand('workbench.mcp.startServer', '*', { autoTrustChanges: true });
      await until(() => vscode.lm.tools.some((t) => t.name === ECHO), `${ECHO} in vscode.lm.tools`, 45_000);
      const pickerHasEcho = () => composerOf(seen)?.vscodeTools?.some((t) => t.name === ECHO) === true;
      startup.inPickerBeforeRefresh = pickerHasEcho();
      // VS Code 1.139 says nothing when its tools change: the panel asks when it gets the focus
      mg.api.chat.view.receive({ type: 'refreshVscodeTools' });
      startup.inPickerAfterRefresh = await until(pickerHasEcho, 'the MCP tool in the picker after a refresh', 10_000).catch(() => false);
      const before = seen.length;
      mg.api.chat.view.receive({ type: 'refreshVscodeTools' }); // the same list: nothing to redraw
      await new Promise((r) => setTimeout(r, 300));
      startup.postsOnUnchangedRefresh = seen.length - before;
    } finally {
      watch.dispose();
    }
  });
  beforeEach(async () => {
    posts = [];
    sub = chat().onDidPost((m) => void posts.push(m));
    await chat().newChat(); // its snapshot carries the composer state, picker included
  });
  afterEach(() => sub?.dispose());

  const composerOf = (messages: HostMessage[]): ComposerState | undefined =>
    messages
      .map((p) => (p.type === 'composer' ? p.composer : p.type === 'snapshot' ? p.composer : undefined))
      .filter((c) => c !== undefined)
      .at(-1);
  const composer = () => composerOf(posts);
  const row = (name: string): VscodeToolView | undefined => composer()?.vscodeTools?.find((t) => t.name === name);
  const toggle = async (name: string, on: boolean) => {
    if ((await until(() => row(name), `${name} in the picker`)).on === on) return;
    mg.api.chat.view.receive({ type: 'toggleVscodeTool', name });
    await until(() => row(name)?.on === on, `${name} switched ${on ? 'on' : 'off'}`);
  };
  const cards = () => posts.filter((p): p is Extract<HostMessage, { type: 'approvalRequest' }> => p.type === 'approvalRequest').map((p) => p.approval);
  const answer = (card: ApprovalView, choiceId: string) => mg.api.chat.view.receive({ type: 'approvalAnswer', id: card.id, choiceId });
  const chatBodies = () =>
    mg.gw.requests
      .filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'))
      .map((r) => r.body as { messages: ChatMessage[]; tools?: { function: { name: string } }[] });
  const offered = (body: { tools?: { function: { name: string } }[] } = chatBodies().at(-1)!) => (body.tools ?? []).map((t) => t.function.name);
  const lastToolResult = () =>
    String(
      chatBodies()
        .at(-1)!
        .messages.filter((m) => m.role === 'tool')
        .at(-1)?.content ?? '',
    );
  const call = (name: string, args: object) => `[[call:${name} ${JSON.stringify(args)}]]`;
  // Allow once on the card, then the whole answer (a hang fails on the suite's timeout)
  const callAllowed = async (prompt: string) => {
    const sending = chat().send(prompt);
    answer(await until(() => cards()[0], 'the approval card'), 'once');
    await sending;
    await chat().whenIdle();
  };
  const lastCall = (name: string) =>
    posts
      .filter((p): p is Extract<HostMessage, { type: 'toolCall' }> => p.type === 'toolCall')
      .map((p) => p.call)
      .filter((c) => c.name === name)
      .at(-1);
  const finished = () => posts.filter((p): p is Extract<HostMessage, { type: 'messageFinished' }> => p.type === 'messageFinished').at(-1)?.status;
  const imageUrls = (messages: ChatMessage[]) =>
    messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : []));
  const useModel = async (model: string) => {
    await config().update('chat.model', model, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().chatModel === model, `chat.model = ${model}`);
  };

  it('a started MCP server’s tools reach the picker when the panel asks for a refresh (its focus); an unchanged list posts nothing', () => {
    assert.equal(startup.listedBefore, false, 'the test server is not running before the suite starts it');
    assert.equal(startup.inPickerBeforeRefresh, false, 'VS Code 1.139 tells the extension nothing when its tools change');
    assert.equal(startup.inPickerAfterRefresh, true, 'the refresh posts the new list');
    assert.equal(startup.postsOnUnchangedRefresh, 0, 'a refresh that finds the same list posts nothing (the composer is not redrawn on every focus)');
  });

  it('lists the MCP tool in the picker, with its source and token estimate, off until picked; Modelgate’s own tools are not in it', async () => {
    const echo = await until(() => row(ECHO), 'the MCP tool in the picker');
    assert.equal(echo.on, false, 'off until the user picks it');
    assert.match(echo.source, /MCP server “mgtest”/);
    assert.ok(echo.tokens > 10 && echo.tokens < 500, `a rough token estimate: ${echo.tokens}`);
    const names = composer()!.vscodeTools!.map((t) => t.name);
    assert.ok(!names.some((n) => n.startsWith('modelgate_')), `no modelgate_* tool: ${names.join(', ')}`);
    assert.ok(!names.includes('run_in_terminal'), 'VS Code’s own agent tools are not offered');
    // the runner's read_file is offered under another name: Modelgate's read_file stays Modelgate's
    const foreignRead = composer()!.vscodeTools!.find((t) => t.name === 'read_file');
    assert.equal(foreignRead?.label, 'vscode_read_file');
    assert.match(foreignRead.source, /From extension/);
  });

  it('an unpicked tool is never offered (not in the request’s tools), so it is never called', async () => {
    await toggle(ECHO, false);
    const before = chatBodies().length;
    await chat().send(`echo ${call(ECHO, { text: 'unpicked' })}`);
    await chat().whenIdle();
    const bodies = chatBodies().slice(before);
    assert.ok(offered(bodies[0]).includes('read_file'), 'Modelgate’s tools are offered');
    assert.ok(!offered(bodies[0]).includes(ECHO), `the unpicked tool is not offered: ${offered(bodies[0]).join(', ')}`);
    // the simulator calls only offered tools (as a model would): one request, no tool result, nothing asked
    assert.equal(bodies.length, 1);
    assert.equal(cards().length, 0, 'nothing asked');
  });

  it('Allow once: the card shows tool, source and input with Skip as default; the MCP result reaches the model', async () => {
    await toggle(ECHO, true);
    const sending = chat().send(`echo ${call(ECHO, { text: 'hello from the panel' })}`);
    const card = await until(() => cards()[0], 'the approval card');
    assert.match(card.title, new RegExp(ECHO));
    assert.ok(
      card.detail.some((d) => /MCP server “mgtest”/.test(d)),
      `the source: ${card.detail.join(' | ')}`,
    );
    assert.match(card.code ?? '', /hello from the panel/);
    assert.deepEqual(
      card.choices.map((c) => c.id),
      ['once', 'always', 'skip'],
    );
    assert.equal(card.safeChoiceId, 'skip');
    assert.ok(offered(chatBodies().at(-1)!).includes(ECHO), 'the picked tool is offered');
    answer(card, 'once');
    await sending;
    await chat().whenIdle();
    assert.equal(lastToolResult(), 'MCP echo: hello from the panel');
  });

  it('Skip tells the model the user skipped it', async () => {
    await toggle(ECHO, true);
    const sending = chat().send(`echo ${call(ECHO, { text: 'skip me' })}`);
    answer(await until(() => cards()[0], 'the approval card'), 'skip');
    await sending;
    await chat().whenIdle();
    assert.match(lastToolResult(), /The user skipped this tool call: it was not run/);
  });

  it('Always allow: the next call in the conversation runs without a card; a new conversation asks again', async () => {
    await toggle(ECHO, true);
    const first = chat().send(`echo ${call(ECHO, { text: 'first' })}`);
    answer(await until(() => cards()[0], 'the approval card'), 'always');
    await first;
    await chat().whenIdle();
    assert.equal(lastToolResult(), 'MCP echo: first');

    // the same conversation: the call runs without asking
    let idle = false;
    void chat()
      .send(`echo ${call(ECHO, { text: 'second' })}`)
      .then(() => chat().whenIdle())
      .then(() => (idle = true));
    await until(() => idle || cards().length > 1, 'the second call answered (or asked about)');
    if (cards().length > 1) {
      answer(cards()[1]!, 'skip');
      await until(() => idle, 'the skipped answer finished');
      assert.fail('“Always allow this tool in this conversation” asked again in the same conversation');
    }
    assert.equal(lastToolResult(), 'MCP echo: second', 'the call ran and its result reached the model');
    assert.equal(lastCall(ECHO)?.status, 'done');

    // a new conversation asks again
    await chat().newChat();
    await toggle(ECHO, true);
    const third = chat().send(`echo ${call(ECHO, { text: 'third' })}`);
    const card = await until(() => cards()[1], 'the approval card in the new conversation');
    assert.match(card.title, new RegExp(ECHO));
    answer(card, 'once');
    await third;
    await chat().whenIdle();
    assert.equal(lastToolResult(), 'MCP echo: third');
  });

  it('a tool that throws comes back as a tool error the model reads; the answer finishes', async () => {
    await toggle(THROWS, true);
    const sending = chat().send(`throw ${call(THROWS, { text: 'boom' })}`);
    answer(await until(() => cards()[0], 'the approval card'), 'always');
    await sending;
    await chat().whenIdle();
    assert.match(lastToolResult(), /The tool mgtest_throws failed: .*mgtest_throws broke on purpose \(boom\)/);
    const done = posts.filter((p): p is Extract<HostMessage, { type: 'messageFinished' }> => p.type === 'messageFinished').at(-1);
    assert.equal(done?.status, 'done', 'the answer is not broken');
  });

  it('an MCP image result goes to a model that takes images as an image, else as a note', async () => {
    await toggle(BADGE, true);
    await useModel('long-context-tools'); // takes image input
    try {
      await callAllowed(`badge ${call(BADGE, {})}`);
    } finally {
      await useModel('flagship-text');
    }
    let body = chatBodies().at(-1)!;
    assert.match(lastToolResult(), /^A badge:\n\[Image 1 \(image\/png\) follows in the next message\.\]$/);
    const images = imageUrls(body.messages);
    assert.equal(images.length, 1, 'the image follows the tool result');
    const png = Buffer.from(images[0]!.replace(/^data:image\/png;base64,/, ''), 'base64');
    assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG');
    assert.equal(body.messages.at(-1)?.role, 'user', 'in a user message after the tool result');
    assert.equal(lastCall(BADGE)?.status, 'done');

    // flagship-text is text only: a note instead of the image
    posts = [];
    await chat().newChat();
    await toggle(BADGE, true);
    await callAllowed(`badge ${call(BADGE, {})}`);
    body = chatBodies().at(-1)!;
    assert.match(lastToolResult(), /^A badge:\n\[An image \(image\/png, \d+ bytes\) was left out: the model does not take image input\.\]$/);
    assert.deepEqual(imageUrls(body.messages), [], 'no image is sent');
    assert.equal(finished(), 'done');
  });

  it('an MCP result with isError reaches the model as its text (VS Code passes no error flag); the answer goes on', async () => {
    // what VS Code 1.139 hands to invokeTool: the result's text, nothing that says it was an error
    const direct = await vscode.lm.invokeTool(FAIL, { input: { text: 'direct' }, toolInvocationToken: undefined });
    assert.deepEqual(
      direct.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : p)),
      ['fail_note refused: direct'],
    );
    assert.equal((direct as { hasError?: boolean }).hasError, undefined, 'no error flag on the result');

    await toggle(FAIL, true);
    await callAllowed(`fail ${call(FAIL, { text: 'no thanks' })}`);
    assert.equal(lastToolResult(), 'fail_note refused: no thanks');
    assert.equal(lastCall(FAIL)?.status, 'done', 'shown as run: Modelgate cannot tell it failed');
    assert.equal(finished(), 'done');
  });

  it('an MCP tool that throws: the model reads the error text the server sent; the answer goes on', async () => {
    // the MCP SDK answers a throwing handler with an isError result carrying the message, which
    // VS Code hands over as text like any isError result (above)
    await toggle(CRASH, true);
    await callAllowed(`crash ${call(CRASH, { text: 'purpose' })}`);
    assert.equal(lastToolResult(), 'crash_note crashed on purpose');
    assert.equal(lastCall(CRASH)?.status, 'done');
    assert.equal(finished(), 'done');
  });
});
