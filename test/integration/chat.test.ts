// The chat inside a real VS Code extension host, driven through the extension's public chat API
// (the same controller the panel talks to) against the gateway simulator started in-process.
// Covers: streaming, stop, regenerate, edit and resend, reload restore (interrupted answer),
// tool rounds (parallel calls, a path escape), image rules, cost with cached tokens, the
// cache-friendly layout, errors with their actions, code-block actions, and that the key is
// stored nowhere but SecretStorage.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../../src/chat';
import { consoleUrlSetting, topUp, type TopUpUi } from '../../src/shared/balanceTopUp';
import { isOpenableLink } from '../../src/chat/view/codeActions';
import { costOf } from '../../src/core/spend/cost';
import type { ChatMessage } from '../../src/core/client/types';
import { parseWebviewMessage, type AssistantPart, type HostMessage, type MessageView, type ToolCallView } from '../../src/chat/protocol';
import { PRICE_CARD } from '../gateway/index';
import { answerText, type AnswerView, config, lastAssistant, until, useModelgate, waitFor } from './helpers';

/** A distinctive key, so a search of the storage for it cannot hit anything by chance. */
const KEY = 'sk-chat-suite-5d1e8b07c2';
const POOR_KEY = 'sk-chat-poor-91ac33e0';
const WRONG_KEY = 'sk-chat-wrong-0b7d2f11';
/** a real 1x1 PNG */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const FIXTURE = 'mg-chat-fixture';

const LCT_PRICE = PRICE_CARD.chat['long-context-tools']!.stable; // the simulator's default channel is stable
const FLAG_PRICE = PRICE_CARD.chat['flagship-text']!.stable;

const toolsOf = (m: MessageView | undefined): ToolCallView[] =>
  m && m.role === 'assistant' ? m.parts.flatMap((p: AssistantPart) => (p.kind === 'tool' ? [p.call] : [])) : [];

describe('chat (real VS Code, gateway simulator)', function () {
  this.timeout(60_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 }, [POOR_KEY]: { balance: 0 } } },
    settings: {
      models: {
        'flagship-text': { prices: { default: FLAG_PRICE } },
        'long-context-tools': { prices: { default: LCT_PRICE } },
      },
      channel: 'default',
      'chat.model': 'flagship-text',
    },
    ready: (api) => api.settings().chatModel === 'flagship-text',
    key: KEY,
    chat: true,
  });
  let ws: string;
  /** every message the controller posted for the webview during the suite */
  const allPosts: HostMessage[] = [];
  let posts: HostMessage[] = [];
  let subscription: vscode.Disposable | undefined;
  const chat = (): ChatController => mg.api.chat.controller;

  const chatRequests = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'));
  const lastRequest = () => chatRequests().at(-1)!.body as { model: string; messages: ChatMessage[]; tools?: unknown[]; provider?: unknown; stream?: boolean };

  function listen(): void {
    subscription?.dispose();
    posts = [];
    subscription = chat().onDidPost((m) => {
      posts.push(m);
      allPosts.push(m);
    });
  }

  async function useModel(model: string): Promise<void> {
    await config().update('chat.model', model, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().chatModel === model, `chat.model = ${model}`);
  }

  async function setKey(key: string): Promise<void> {
    await vscode.commands.executeCommand('modelgate.setApiKey', key);
  }

  before(() => {
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.mkdirSync(path.join(ws, FIXTURE), { recursive: true });
  });

  beforeEach(async () => {
    await chat().newChat();
    listen();
  });

  after(() => {
    subscription?.dispose();
    fs.rmSync(path.join(ws, FIXTURE), { recursive: true, force: true });
  });

  it('streams an answer to completion, as deltas, with model, channel, usage and cost', async () => {
    const before = chatRequests().length;
    await chat().send('Explain prefix caches [[words:400]]');
    const view = await chat().conversation();
    assert.equal(view.title, 'Explain prefix caches [[words:400]]');
    assert.deepEqual(
      view.messages.map((m) => m.role),
      ['user', 'assistant'],
    );
    const answer = view.messages[1] as AnswerView;
    assert.equal(answer.status, 'done');
    assert.equal(answer.model, 'flagship-text');
    assert.equal(answer.channel, 'default');
    assert.equal(answerText(answer).split(' ').length, 400);

    // The webview got the answer as deltas, not as repeated snapshots.
    const deltas = posts.filter((p): p is Extract<HostMessage, { type: 'textDelta' }> => p.type === 'textDelta');
    assert.ok(deltas.length >= 1);
    assert.equal(deltas.map((d) => d.text).join(''), answerText(answer));
    assert.equal(posts.filter((p) => p.type === 'snapshot').length, 0);
    const kinds = posts.map((p) => p.type);
    assert.ok(kinds.indexOf('messageAdded') < kinds.indexOf('textDelta'));
    assert.ok(kinds.indexOf('textDelta') < kinds.indexOf('messageFinished'));
    const finished = posts.find((p) => p.type === 'messageFinished') as Extract<HostMessage, { type: 'messageFinished' }>;
    assert.equal(finished.status, 'done');
    assert.ok(finished.usage && finished.usage.completionTokens > 0);
    assert.equal(finished.usage.cost, costOf(finished.usage, FLAG_PRICE));
    assert.equal(finished.totalCost, finished.usage.cost);
    assert.deepEqual(
      posts.filter((p) => p.type === 'busy'),
      [
        { type: 'busy', busy: true },
        { type: 'busy', busy: false },
      ],
    );

    // One request: the configured model, streamed, no provider for the default channel.
    assert.equal(chatRequests().length, before + 1);
    const body = lastRequest();
    assert.equal(body.model, 'flagship-text');
    assert.equal(body.stream, true);
    assert.equal('provider' in body, false);
    assert.equal(body.messages[0]!.role, 'system');
    assert.deepEqual(body.messages.at(-1), { role: 'user', content: 'Explain prefix caches [[words:400]]' });
  });

  it('sends the chosen channel as provider and records it on the answer', async () => {
    await config().update('channel', 'economical', vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().channel === 'economical', 'channel = economical');
    try {
      await chat().send('Which channel? [[words:5]]');
      assert.deepEqual(lastRequest().provider, { channel: 'economical' });
      const a = await lastAssistant(chat());
      assert.equal(a.channel, 'economical');
      // no price configured for this channel except the default entry: the default price applies
      assert.equal(a.usage?.cost, costOf(a.usage!, FLAG_PRICE));
    } finally {
      await config().update('channel', 'default', vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().channel === 'default', 'channel = default');
    }
  });

  it('stops at once and keeps the partial answer, marked stopped', async () => {
    const sent = chat().send('A long one [[words:20000]] [[fault:drip:1]]');
    await until(() => posts.some((p) => p.type === 'textDelta'), 'the first streamed text');
    assert.equal(chat().busy, true);
    chat().stop();
    await sent;
    const a = await lastAssistant(chat());
    assert.equal(a.status, 'stopped');
    const text = answerText(a);
    assert.ok(text.length > 0, 'partial text kept');
    assert.ok(text.split(' ').length < 20000);
    assert.equal(a.error, undefined);
    const finished = posts.find((p) => p.type === 'messageFinished') as Extract<HostMessage, { type: 'messageFinished' }>;
    assert.equal(finished.status, 'stopped');
    assert.equal(chat().busy, false);
    // The stopped answer is replayed as it stands in the next request.
    await chat().send('Continue [[words:3]]');
    const msgs = lastRequest().messages;
    assert.deepEqual(msgs.at(-2), { role: 'assistant', content: text });
  });

  it('regenerates the last answer, replaying the same request', async () => {
    await chat().send('What is a monad? [[words:20]]');
    const first = await lastAssistant(chat());
    const firstRequest = lastRequest();
    await chat().regenerate();
    const view = await chat().conversation();
    assert.equal(view.messages.length, 2);
    const second = view.messages[1] as AnswerView;
    assert.notEqual(second.id, first.id);
    assert.equal(second.status, 'done');
    assert.ok(posts.some((p) => p.type === 'truncated' && p.fromMessageId === first.id));
    assert.deepEqual(lastRequest().messages, firstRequest.messages);
  });

  it('edits an earlier message and resends from there, dropping what followed', async () => {
    await chat().send('first question [[words:3]]');
    await chat().send('second question [[words:3]]');
    const firstId = (await chat().conversation()).messages[0]!.id;
    await chat().editAndResend(firstId, 'edited question [[words:4]]');
    const view = await chat().conversation();
    assert.deepEqual(
      view.messages.map((m) => m.role),
      ['user', 'assistant'],
    );
    assert.equal((view.messages[0] as { text: string }).text, 'edited question [[words:4]]');
    assert.equal(view.title, 'edited question [[words:4]]');
    assert.equal(answerText(view.messages[1]).split(' ').length, 4);
    const msgs = lastRequest().messages;
    assert.deepEqual(
      msgs.map((m) => m.role),
      ['system', 'user'],
    );
    assert.ok(!JSON.stringify(msgs).includes('second question'));
    assert.ok(posts.some((p) => p.type === 'truncated' && p.fromMessageId === firstId));
  });

  it('keeps conversations across a reload; an answer cut off by it is marked interrupted', async () => {
    await chat().send('persist me [[words:5]]');
    const id = (await chat().conversation()).id;
    posts = [];
    const cut = chat().send('long answer [[words:20000]] [[fault:drip:1]]');
    await until(() => chat().busy && posts.some((p) => p.type === 'textDelta'), 'streamed text of the long answer before the reload');
    await chat().handle({ type: 'draft', text: 'typed but not sent' });
    const reopened = await mg.api.chat.reload();
    await cut;
    assert.equal(chat(), reopened);
    const view = await reopened.conversation();
    assert.equal(view.id, id);
    assert.deepEqual(
      view.messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    const last = view.messages[3] as AnswerView;
    assert.equal(last.status, 'interrupted');
    assert.ok(answerText(last).length > 0, 'partial text kept');
    assert.equal(answerText(view.messages[1]).split(' ').length, 5);
    assert.equal(view.draft, 'typed but not sent');
    assert.ok((await reopened.conversations()).some((c) => c.id === id && c.title === 'persist me [[words:5]]'));
    listen();
    // The reopened conversation goes on: the interrupted text is replayed as it stands.
    await reopened.send('go on [[words:2]]');
    assert.equal((await lastAssistant(chat())).status, 'done');
    assert.deepEqual(lastRequest().messages.at(-2), { role: 'assistant', content: answerText(last) });
  });

  it('lists, switches between and deletes conversations', async () => {
    await chat().send('conversation A [[words:2]]');
    const a = (await chat().conversation()).id;
    await chat().newChat();
    await chat().send('conversation B [[words:2]]');
    const b = (await chat().conversation()).id;
    const list = await chat().conversations();
    assert.deepEqual(
      list.slice(0, 2).map((c) => c.id),
      [b, a],
    );
    posts = [];
    assert.equal(await chat().switchConversation(a), true);
    const snap = posts.find((p) => p.type === 'snapshot') as Extract<HostMessage, { type: 'snapshot' }>;
    assert.equal(snap.conversation.id, a);
    assert.equal(snap.conversation.messages.length, 2);
    await chat().deleteConversation(a);
    assert.ok(!(await chat().conversations()).some((c) => c.id === a));
    assert.equal((await chat().conversation()).id, b);
    assert.equal(fs.existsSync(path.join(mg.api.chat.storageUri.fsPath, `conversation-${a}.json`)), false);
    assert.equal(fs.existsSync(path.join(mg.api.chat.storageUri.fsPath, `conversation-${b}.json`)), true);
  });

  it('runs parallel tool calls, shows each, and returns a path escape as an error result', async () => {
    const before = chatRequests().length;
    await chat().send('Read both [[call:read_file {"path":"src/a.ts"}]] [[call:read_file {"path":"../../../../etc/passwd"}]]');
    const a = await lastAssistant(chat());
    assert.equal(a.status, 'done');
    const calls = toolsOf(a);
    assert.equal(calls.length, 2);
    assert.equal(calls[0]!.status, 'done');
    assert.match(calls[0]!.result ?? '', /export function add/);
    assert.equal(calls[1]!.status, 'error');
    assert.ok(!/root:/.test(calls[1]!.result ?? ''), 'nothing outside the workspace was read');
    // each call was shown running, then finished
    const shown = posts.filter((p): p is Extract<HostMessage, { type: 'toolCall' }> => p.type === 'toolCall').map((p) => `${p.call.id}:${p.call.status}`);
    assert.deepEqual(
      shown.map((s) => s.split(':')[1]),
      ['running', 'running', 'done', 'error'],
    );
    // two requests: the calls, then the results; tools offered on both
    const reqs = chatRequests().slice(before);
    assert.equal(reqs.length, 2);
    const second = reqs[1]!.body as { messages: ChatMessage[]; tools?: unknown[] };
    assert.ok(second.tools && second.tools.length > 0);
    assert.deepEqual(
      second.messages.slice(-3).map((m) => m.role),
      ['assistant', 'tool', 'tool'],
    );
    assert.equal(second.messages.at(-3)!.tool_calls?.length, 2);
    assert.ok(answerText(a).length > 0, 'a final answer after the results');
    const composer = await chat().composer();
    assert.equal(composer.toolsDisabledReason, undefined);
  });

  it('caps tool rounds with a note', async () => {
    await config().update('chat.maxToolRounds', 1, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().maxToolRounds === 1, 'maxToolRounds = 1');
    try {
      await chat().send('[[rounds:3]] [[call:list_files {}]]');
      const a = await lastAssistant(chat());
      assert.equal(a.status, 'done');
      assert.deepEqual(
        toolsOf(a).map((c) => c.status),
        ['done', 'denied'],
      );
      assert.match(answerText(a), /Stopped after 1 round of tool calls/);
    } finally {
      await config().update('chat.maxToolRounds', undefined, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().maxToolRounds === 8, 'maxToolRounds back to 8');
    }
  });

  it('refuses images on the text-only model before anything is sent, and sends them on an image model', async () => {
    const before = chatRequests().length;
    assert.equal((await chat().composer()).imageInput, false);
    assert.equal(await chat().attachImageBytes(PNG, 'dot.png'), false);
    await chat().handle({ type: 'pasteImage', mime: 'image/png', base64: PNG.toString('base64') });
    const notices = posts.filter((p): p is Extract<HostMessage, { type: 'notice' }> => p.type === 'notice');
    assert.equal(notices.length, 2);
    for (const n of notices) {
      assert.match(n.message, /flagship-text accepts text only/);
      assert.deepEqual(n.actions, ['pickModel']);
    }
    assert.deepEqual((await chat().composer()).attachments, []);
    assert.equal(chatRequests().length, before);

    await useModel('long-context-tools');
    try {
      assert.equal((await chat().composer()).imageInput, true);
      assert.equal(await chat().attachImageBytes(PNG, 'dot.png'), true);
      assert.equal(await chat().attachImageBytes(Buffer.from('not an image at all'), 'fake.png'), false);
      assert.deepEqual(
        (await chat().composer()).attachments.map((x) => x.kind),
        ['image'],
      );
      await chat().send('What is in this picture?');
      const last = lastRequest().messages.at(-1)!;
      assert.ok(Array.isArray(last.content));
      const parts = last.content as { type: string; image_url?: { url: string } }[];
      assert.equal(parts[1]!.type, 'image_url');
      assert.ok(parts[1]!.image_url!.url.startsWith('data:image/png;base64,'));
      assert.match(answerText(await lastAssistant(chat())), /I received 1 image/);
      assert.deepEqual((await chat().composer()).attachments, [], 'the image went with that message');
    } finally {
      await useModel('flagship-text');
    }
    // The conversation now holds an image: the text-only model cannot continue it.
    posts = [];
    const count = chatRequests().length;
    await chat().send('And now?');
    assert.equal(chatRequests().length, count);
    assert.ok(posts.some((p) => p.type === 'setDraft' && p.text === 'And now?'));
    assert.ok(posts.some((p) => p.type === 'notice' && /accepts text only/.test(p.message)));
  });

  it('lays out turns for the cache: turn 2 reads nearly all of turn 1 from cache, billed at the cache price', async () => {
    await useModel('long-context-tools');
    try {
      const big = Array.from({ length: 800 }, (_, i) => `export const value${i} = ${i * 7}; // entry ${i}`).join('\n');
      const file = vscode.Uri.file(path.join(ws, FIXTURE, 'big.ts'));
      fs.writeFileSync(file.fsPath, big);
      assert.equal(await chat().attachFile(file), true);
      const chips = (await chat().composer()).attachments;
      assert.deepEqual(
        chips.map((c) => [c.kind, c.label]),
        [['file', `${FIXTURE}/big.ts`]],
      );

      const usages: { promptTokens: number; cachedTokens: number; completionTokens: number; cost?: number }[] = [];
      const spent: number[] = [];
      for (const q of ['What does big.ts export? [[words:30]]', 'Which value is largest? [[words:30]]', 'Make a table [[words:30]]']) {
        const balance = mg.gw.balance(KEY);
        await chat().send(q);
        const a = await lastAssistant(chat());
        assert.equal(a.status, 'done');
        usages.push(a.usage!);
        spent.push(balance - mg.gw.balance(KEY));
      }
      // Turn 1 may read the system prompt and tool definitions from cache (earlier conversations
      // share them), but not the newly attached file, which is most of the prompt.
      assert.ok(usages[0]!.cachedTokens < usages[0]!.promptTokens / 2, `turn 1: ${usages[0]!.cachedTokens} cached of ${usages[0]!.promptTokens}`);
      for (const t of [1, 2]) {
        const ratio = usages[t]!.cachedTokens / usages[t - 1]!.promptTokens;
        assert.ok(ratio > 0.95, `turn ${t + 1}: ${usages[t]!.cachedTokens} cached of ${usages[t - 1]!.promptTokens} (${ratio.toFixed(3)})`);
      }
      // cost: uncached at the input price, cached at the cache price, output at the output price
      for (const [i, u] of usages.entries()) {
        const expected =
          ((u.promptTokens - u.cachedTokens) * LCT_PRICE.input + u.cachedTokens * LCT_PRICE.cacheRead! + u.completionTokens * LCT_PRICE.output) / 1e6;
        assert.ok(Math.abs(u.cost! - expected) < 1e-12, `turn ${i + 1}: ${u.cost} vs ${expected}`);
        assert.ok(Math.abs(u.cost! - spent[i]!) < 1e-9, `turn ${i + 1}: shown ${u.cost}, the gateway charged ${spent[i]}`);
      }
      const total = (await chat().conversation()).totalCost!;
      assert.ok(Math.abs(total - usages.reduce((s, u) => s + u.cost!, 0)) < 1e-12);
      console.log(
        `      cached tokens: turn 2 ${usages[1]!.cachedTokens}/${usages[0]!.promptTokens}, turn 3 ${usages[2]!.cachedTokens}/${usages[1]!.promptTokens}`,
      );
    } finally {
      await useModel('flagship-text');
    }
  });

  it('puts the selection into the newest message only (askAboutSelection)', async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(ws, 'src', 'a.ts')));
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(0, 0, 1, 14);
    await vscode.commands.executeCommand('modelgate.askAboutSelection');
    await until(async () => (await chat().composer()).attachments.some((a) => a.kind === 'selection'), 'the selection chip');
    const chip = (await chat().composer()).attachments[0]!;
    assert.equal(chip.label, 'src/a.ts:1-2');
    await chat().send('What does this do? [[words:3]]');
    let msgs = lastRequest().messages;
    const withSelection = msgs.filter((m) => JSON.stringify(m).includes('export function add'));
    assert.equal(withSelection.length, 1);
    assert.equal(withSelection[0], msgs.at(-1));
    assert.match(msgs.at(-1)!.content as string, /Selection from src\/a\.ts, lines 1-2/);
    assert.deepEqual((await chat().composer()).attachments, [], 'the selection went with that message');
    const firstTurn = msgs.at(-1);
    await chat().send('And then? [[words:3]]');
    msgs = lastRequest().messages;
    assert.deepEqual(msgs[1], firstTurn, 'replayed exactly as sent');
    assert.deepEqual(msgs.at(-1), { role: 'user', content: 'And then? [[words:3]]' });
  });

  it('removes attachment chips', async () => {
    const file = vscode.Uri.file(path.join(ws, 'src', 'b.ts'));
    assert.equal(await chat().attachFile(file), true);
    const [chip] = (await chat().composer()).attachments;
    assert.ok(chip);
    await chat().handle({ type: 'removeAttachment', attachmentId: chip.id });
    assert.deepEqual((await chat().composer()).attachments, []);
    await chat().send('no files [[words:2]]');
    assert.ok(!JSON.stringify(lastRequest().messages).includes('import { add }'));
  });

  it('shows errors in the transcript with what to do, and never loses the message', async () => {
    // 401: a wrong key
    await setKey(WRONG_KEY);
    try {
      await chat().send('hello with a wrong key');
      let a = await lastAssistant(chat());
      assert.equal(a.status, 'error');
      assert.ok(a.error!.actions.includes('setKey'), a.error!.actions.join());
      const view = await chat().conversation();
      assert.equal((view.messages[0] as { text: string }).text, 'hello with a wrong key');

      // 402: no balance left
      await setKey(POOR_KEY);
      await chat().send('hello without balance');
      a = await lastAssistant(chat());
      assert.equal(a.status, 'error');
      // a channel switch cannot fix a balance: the card offers "Top up" only, and says it once
      assert.deepEqual(a.error!.actions, ['topUp']);
      assert.equal(a.error!.message.match(/too low/g)?.length, 1, a.error!.message);
    } finally {
      await setKey(KEY);
    }
    // an HTML 502 page from a proxy: a short readable message, no markup
    await chat().send('through a broken proxy [[fault:html502]]');
    const a = await lastAssistant(chat());
    assert.equal(a.status, 'error');
    assert.ok(!/[<>]/.test(a.error!.message), a.error!.message);
    assert.ok(a.error!.message.length > 10 && a.error!.message.length < 400, a.error!.message);
    assert.ok(a.error!.actions.includes('retry'));
    // retry = regenerate: now it goes through
    const failedId = a.id;
    await chat().handle({ type: 'action', action: 'retry' });
    await chat().whenIdle();
    const retried = await chat().conversation();
    assert.equal(retried.messages.filter((m) => m.role === 'user').length, 3, 'every message kept');
    assert.equal(retried.messages.length, 6);
    assert.notEqual(retried.messages[5]!.id, failedId, 'retry produced a new answer');
    assert.ok(posts.some((p) => p.type === 'truncated' && p.fromMessageId === failedId));
  });

  it('asks for a key when none is set, and puts the text back when none is given', async () => {
    await vscode.commands.executeCommand('modelgate.clearApiKey');
    try {
      const count = chatRequests().length;
      const sent = chat().send('is anyone there?');
      let done = false;
      void sent.then(() => (done = true));
      // The key prompt is an input box: dismiss it as the user would.
      await waitFor(
        async () => {
          await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
          return done;
        },
        { what: 'the key prompt dismissed and the send finished', intervalMs: 100 },
      );
      assert.equal(chatRequests().length, count);
      assert.deepEqual((await chat().conversation()).messages, []);
      assert.ok(posts.some((p) => p.type === 'setDraft' && p.text === 'is anyone there?'));
      assert.ok(posts.some((p) => p.type === 'notice' && p.actions?.includes('setKey')));
      assert.equal((await chat().composer()).hasKey, false);
    } finally {
      await setKey(KEY);
    }
    await until(async () => (await chat().composer()).hasKey, 'hasKey after setting the key');
  });

  it('warns before a request that does not fit the context window, and sends nothing', async () => {
    await config().update(
      'models',
      { 'flagship-text': { contextWindow: 4000, maxOutput: 1000, prices: { default: FLAG_PRICE } } },
      vscode.ConfigurationTarget.Global,
    );
    await until(async () => (await chat().composer()).contextWindow === 4000, 'the small context window');
    try {
      const count = chatRequests().length;
      const text = 'lorem ipsum '.repeat(2000);
      await chat().send(text);
      assert.equal(chatRequests().length, count);
      const notice = posts.find((p) => p.type === 'notice') as Extract<HostMessage, { type: 'notice' }> | undefined;
      assert.ok(notice && /does not fit|takes 4,000/.test(notice.message), notice?.message);
      assert.ok(posts.some((p) => p.type === 'setDraft' && p.text === text));
      const composer = await chat().composer();
      assert.ok(composer.contextTokens > 0 && composer.contextTokens < 4000);
    } finally {
      await config().update(
        'models',
        { 'flagship-text': { prices: { default: FLAG_PRICE } }, 'long-context-tools': { prices: { default: LCT_PRICE } } },
        vscode.ConfigurationTarget.Global,
      );
      await until(async () => (await chat().composer()).contextWindow === 1_000_000, 'the default context window');
    }
  });

  it('code blocks: Copy puts the code on the clipboard', async function () {
    // In the web workbench the clipboard is the browser's: without the clipboard permission
    // (headless Chromium grants none by default) its promises never settle. That is the test
    // browser's setup, not the feature: skip, visibly, rather than hang.
    const probe = vscode.env.clipboard
      .writeText('probe')
      .then(() => vscode.env.clipboard.readText())
      .then(
        () => true,
        () => true,
      );
    const settled = await Promise.race([probe, new Promise<false>((r) => setTimeout(() => r(false), 5_000))]);
    if (!settled && vscode.env.uiKind === vscode.UIKind.Web) this.skip();
    await chat().handle({ type: 'copyCode', code: 'const copied = 1;' });
    assert.equal(await vscode.env.clipboard.readText(), 'const copied = 1;');
  });

  it('code blocks: Insert replaces the selection of the active editor, or opens a new document', async () => {
    // A file, not an untitled document: a closed Untitled-1 can linger in the extension host
    // and VS Code reuses its name for the next untitled document.
    const uri = vscode.Uri.file(path.join(ws, FIXTURE, 'insert.txt'));
    fs.writeFileSync(uri.fsPath, 'alpha\nbeta\ngamma\n');
    // The web workbench auto-saves after 1 s by default (files.autoSave is afterDelay when isWeb; off
    // on desktop): under load a second passed before the "not saved" check (a fresh-clone CI run).
    // Off for this file's folder while the test runs, as a desktop user has it.
    const files = () => vscode.workspace.getConfiguration('files', uri);
    await files().update('autoSave', 'off', vscode.ConfigurationTarget.Workspace);
    await until(() => files().get('autoSave') === 'off', 'auto save off');
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(1, 0, 1, 4);
      await chat().handle({ type: 'insertCode', code: 'BETA' });
      assert.equal(doc.getText(), 'alpha\nBETA\ngamma\n');
      // at the end of the last line with text: on a line of its own, the file still ends with a break
      editor.selection = new vscode.Selection(2, 5, 2, 5);
      await chat().handle({ type: 'insertCode', code: 'DELTA' });
      assert.equal(doc.getText(), 'alpha\nBETA\ngamma\nDELTA\n');
      // undo and revert act on the focused editor: make it this one again (on a loaded machine the
      // focus had moved, revert missed, and closeAllEditors then stopped at a save dialog that held up
      // the next suites' quick picks)
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('undo');
      assert.equal(doc.getText(), 'alpha\nBETA\ngamma\n', 'one undo step');
      assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), 'alpha\nbeta\ngamma\n', 'inserted, not saved: the user decides');
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await until(() => !doc.isDirty, 'insert.txt reverted');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await until(() => vscode.window.activeTextEditor === undefined, 'no editor open');
      await chat().handle({ type: 'insertCode', code: 'fresh code' });
      const opened = await until(() => vscode.window.visibleTextEditors.find((e) => e.document.getText() === 'fresh code'), 'a new editor with the code');
      assert.equal(opened.document.isUntitled, true);
      assert.equal(doc.getText(), 'alpha\nbeta\ngamma\n');
      await vscode.window.showTextDocument(opened.document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      await files().update('autoSave', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('Attach file asks which file (the active editor’s first, Enter takes it) instead of pinning the active one', async () => {
    const other = vscode.Uri.file(path.join(ws, FIXTURE, 'other-open.ts'));
    const active = vscode.Uri.file(path.join(ws, FIXTURE, 'attach-me.ts'));
    fs.writeFileSync(other.fsPath, 'export const other = 1;\n');
    fs.writeFileSync(active.fsPath, 'export const attachMe = 2;\n');
    await vscode.window.showTextDocument(other, { preview: false });
    await vscode.window.showTextDocument(active, { preview: false });
    const label = `${FIXTURE}/attach-me.ts`;
    const pinned = async () => (await chat().composer()).attachments.filter((a) => a.label === label);
    const answer = async (command: string): Promise<boolean> => {
      let settled = false;
      const run = chat()
        .attachFile()
        .finally(() => (settled = true));
      // the quick pick opens after a round trip: answer it once it is there, as a person would
      await waitFor(
        async () => {
          await vscode.commands.executeCommand(command);
          return settled;
        },
        { what: `the file question answered with ${command}`, intervalMs: 100 },
      );
      return run;
    };
    try {
      assert.equal(await answer('workbench.action.closeQuickOpen'), false, 'Escape: nothing is pinned');
      assert.deepEqual(await pinned(), []);
      assert.equal(await answer('workbench.action.acceptSelectedQuickOpenItem'), true, 'Enter: the active editor’s file');
      assert.equal((await pinned()).length, 1);
    } finally {
      for (const a of await pinned()) chat().removeAttachment(a.id);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('"Top up" opens modelgate.consoleUrl, or explains how to set it and offers the setting', async () => {
    const opened: string[] = [];
    const asked: string[] = [];
    let settingOpened = 0;
    const ui = (answer?: string): TopUpUi => ({
      openExternal: async (uri) => (opened.push(uri.toString(true)), true),
      ask: async (message, ...buttons) => (asked.push(`${message} [${buttons.join('|')}]`), answer),
      openSetting: async () => settingOpened++,
    });
    const setConsole = async (value: string | undefined) => {
      await config().update('consoleUrl', value, vscode.ConfigurationTarget.Global);
      await until(() => config().inspect('consoleUrl')?.globalValue === value, `consoleUrl = ${value}`);
    };
    try {
      // unset: explains, offers the setting, opens nothing
      await setConsole(undefined);
      assert.equal(await topUp(ui('Open Setting')), 'explained');
      assert.match(asked.at(-1)!, /modelgate\.consoleUrl.*\[Open Setting\]/);
      assert.equal(settingOpened, 1);
      // plain http to another machine: says what is wrong, opens nothing
      await setConsole('http://console.example.com/pay');
      assert.equal(await topUp(ui()), 'explained');
      assert.match(asked.at(-1)!, /plain http to console\.example\.com/);
      assert.deepEqual(opened, []);
      // https: opened in the browser, nothing asked
      const before = asked.length;
      await setConsole('https://console.example.com/billing?tab=top-up');
      assert.equal(await topUp(ui()), 'opened');
      assert.deepEqual(opened, ['https://console.example.com/billing?tab=top-up']);
      assert.equal(asked.length, before);
      assert.deepEqual(consoleUrlSetting(), { kind: 'ok', url: 'https://console.example.com/billing?tab=top-up' });
    } finally {
      await setConsole(undefined);
    }
  });

  it('opens only http(s) links', async () => {
    assert.equal(isOpenableLink('https://example.com/a?b=c'), true);
    assert.equal(isOpenableLink('http://127.0.0.1:8080/'), true);
    for (const bad of [
      'command:workbench.action.quit',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'vscode://x',
      'data:text/html,hi',
      'https://',
      '/relative',
    ]) {
      assert.equal(isOpenableLink(bad), false, bad);
    }
    await chat().handle({ type: 'openLink', href: 'command:workbench.action.closeWindow' }); // ignored, no throw
    assert.ok(vscode.workspace.workspaceFolders?.length, 'the window is still there');
  });

  it('ignores webview messages it does not know (validated at the boundary)', async () => {
    assert.equal(parseWebviewMessage({ type: 'send' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'runCommand', command: 'x' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'openLink', href: 5 }), undefined);
  });

  it('stores the history without the API key, and never posts it to the webview', async () => {
    await chat().send('one more [[words:3]]');
    await chat().whenIdle();
    await mg.api.chat.reload(); // final flush
    listen();
    const root = path.dirname(mg.api.chat.storageUri.fsPath); // the extension's whole global storage
    const files: string[] = [];
    const walk = (d: string) => {
      if (!fs.existsSync(d)) return;
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(root);
    assert.ok(
      files.some((f) => f.endsWith('index.json')),
      `history files: ${files.join(', ')}`,
    );
    for (const f of files) {
      const bytes = fs.readFileSync(f).toString('latin1');
      for (const k of [KEY, POOR_KEY, WRONG_KEY]) assert.ok(!bytes.includes(k), `${f} contains an API key`);
    }
    const posted = JSON.stringify(allPosts);
    for (const k of [KEY, POOR_KEY, WRONG_KEY]) assert.ok(!posted.includes(k), 'an API key was posted to the webview');
  });
});
