// Compaction in a real VS Code extension host against the gateway simulator: a conversation on a
// model with a 16K window keeps going through many turns with tool rounds (it is compacted when
// the next request would leave no room for the answer, and when the gateway refuses an overflow),
// the stored conversation keeps every turn, Undo Compaction restores what is sent, and a gateway
// overflow 400 is compacted and sent again once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../../src/chat';
import type { ChatMessage } from '../../src/core/client/types';
import type { HostMessage } from '../../src/chat/protocol';
import { SUMMARY_HEADING } from '../../src/core/compaction/compactedHistory';
import { PRICE_CARD } from '../gateway/index';
import { config, until, useModelgate } from './helpers';
import type { CompactionQuestion } from '../../src/chat/compaction/compactionTriggers';

const KEY = 'sk-compaction-suite-7a31c9e4';
const FIXTURE = 'mg-compaction-fixture';
const MODEL = 'small-window';
const PRICES = PRICE_CARD.chat[MODEL]!;
const SMALL = { contextWindow: 16_000, maxOutput: 2_000, prices: { default: PRICES.direct, economical: PRICES.economical } };

describe('compaction (real VS Code, gateway simulator, a model with a 16K window)', function () {
  this.timeout(300_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: { models: { [MODEL]: SMALL }, channel: 'direct', 'chat.model': MODEL },
    ready: (api) => api.settings().chatModel === MODEL && api.catalogue().chatModel(MODEL)?.contextWindow === 16_000,
    restores: ['chat.compaction'],
    key: KEY,
    chat: true,
  });
  const chat = (): ChatController => mg.api.chat.controller;
  const chatRequests = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'));
  const bodyOf = (r: { body: unknown }) => r.body as { model: string; messages: ChatMessage[]; provider?: { channel?: string } };
  const summaryRequests = () => chatRequests().filter((r) => bodyOf(r).provider?.channel === 'economical');
  let posts: HostMessage[] = [];
  let subscription: vscode.Disposable | undefined;
  let ws: string;

  before(() => {
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.mkdirSync(path.join(ws, FIXTURE), { recursive: true });
    // about 1,000 tokens: each turn reads it again, so earlier reads are superseded
    const lines = Array.from({ length: 60 }, (_, i) => `export const value${i} = 'the quick brown fox jumps over the lazy dog ${i}';`);
    fs.writeFileSync(path.join(ws, FIXTURE, 'notes.ts'), lines.join('\n') + '\n');
    // about 3,000 tokens: a turn that reads it fills a fifth of the 16K window, so a conversation
    // is compacted every few turns (the same number of compactions as three times the turns on notes.ts)
    const wide = Array.from({ length: 180 }, (_, i) => `export const wide${i} = 'the quick brown fox jumps over the lazy dog ${i}';`);
    fs.writeFileSync(path.join(ws, FIXTURE, 'wide.ts'), wide.join('\n') + '\n');
  });
  beforeEach(async () => {
    await chat().newChat();
    posts = [];
    subscription?.dispose();
    subscription = chat().onDidPost((m) => posts.push(m));
  });
  after(() => {
    subscription?.dispose();
    fs.rmSync(path.join(ws, FIXTURE), { recursive: true, force: true });
  });

  const turnText = (i: number, file = 'notes.ts') =>
    `Turn ${i}: look at the notes again. ${'Keep the API small and the names stable. '.repeat(20)}[[call:read_file {"path":"${FIXTURE}/${file}"}]]`;
  const notices = () => posts.filter((p): p is Extract<HostMessage, { type: 'notice' }> => p.type === 'notice');

  it('runs 20 turns with tool rounds on a 16K window without a failure, and the stored conversation keeps every turn', async () => {
    const TURNS = 20;
    for (let i = 1; i <= TURNS; i++) {
      await chat().send(turnText(i, 'wide.ts'));
      const view = await chat().conversation();
      const last = view.messages.at(-1)!;
      assert.equal(last.role, 'assistant', `turn ${i} was answered`);
      assert.equal(last.role === 'assistant' && last.status, 'done', `turn ${i}: ${JSON.stringify(last.role === 'assistant' ? last.error : undefined)}`);
    }
    const store = await chat().history();
    const c = store.active;
    assert.equal(c.messages.length, 2 * TURNS, 'every turn is stored, compacted or not');
    assert.ok(c.messages[0]!.role === 'user' && c.messages[0]!.text.startsWith('Turn 1:'), 'the first turn is still stored');
    assert.ok(c.compaction, 'the conversation was compacted');
    // 9 summaries in 20 turns here (60 turns on notes.ts made 8)
    assert.ok(summaryRequests().length >= 4, `compacted several times (${summaryRequests().length})`);
    for (const r of summaryRequests()) assert.equal(bodyOf(r).model, MODEL, 'the summary is written by the conversation model');
    // what is sent: the system message, then the summary; the first turns are not sent any more
    const preview = await chat().requestPreview();
    assert.equal(preview[0]!.role, 'system');
    assert.ok(String(preview[1]!.content).startsWith(SUMMARY_HEADING));
    assert.ok(!preview.some((m) => typeof m.content === 'string' && m.content.startsWith('Turn 1:')));
    // the panel said so, with the cost, and drew the divider
    assert.ok(
      notices().some((n) => /compacted into a summary for \$/.test(n.message)),
      notices()
        .map((n) => n.message)
        .join('\n'),
    );
    assert.ok(posts.some((p) => p.type === 'compaction' && p.compaction?.cutId === c.compaction!.cutId));
    const divider = (await chat().conversation()).compaction;
    assert.equal(divider?.cutId, c.compaction.cutId);
  });

  it('the price rule compacts before a send once the cache has gone cold (never while it is warm); ask mode asks first, and Cancel sends as it is', async () => {
    const question = (i: number) => `Step ${i}: ${'Keep the API small and the names stable. '.repeat(50)}[[words:250]]`;
    // a costly model whose economical channel costs a tenth: a cold resend of the history costs more than its summary
    const costly = { ...SMALL, prices: { default: { input: 5, output: 20, cacheRead: 0.5 }, economical: PRICES.economical } };
    await config().update('models', { [MODEL]: costly }, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.catalogue().price(MODEL, 'direct')?.input === 5, 'the costly prices');
    try {
      await priceRuleSteps(question);
    } finally {
      await config().update('models', { [MODEL]: SMALL }, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.catalogue().price(MODEL, 'direct')?.input === PRICES.direct.input, 'the simulator’s prices again');
    }
  });

  async function priceRuleSteps(question: (i: number) => string): Promise<void> {
    const summaries = summaryRequests().length;
    for (let i = 1; i <= 8; i++) await chat().send(question(i));
    assert.equal(summaryRequests().length, summaries, 'a warm cache is never thrown away while the window has room');
    const priceNote = /before sending: cheaper than sending them again over the next \d+ turns \(about \$[\d.]+ saved\)/;
    assert.ok(!notices().some((n) => priceNote.test(n.message)));
    const cool = async (hours: number) => {
      // a pause of some hours: the cache of the last request has gone
      const store = await chat().history();
      await store.flush();
      const c = store.active;
      assert.ok(c.lastRequest, 'the conversation remembers its last request');
      c.lastRequest.at -= hours * 60 * 60_000;
      // stored, so a re-read of the file (another window's change) keeps the pause
      store.changed(c);
      await store.flush();
    };

    // ask: the question names what it costs and saves; Cancel (the safe choice) sends the conversation as it is
    await config().update('chat.compaction', 'ask', vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().compaction === 'ask', 'compaction ask');
    const asked: CompactionQuestion[] = [];
    chat().setCompactionAsk(async (q) => {
      asked.push(q);
      return false;
    });
    try {
      await cool(2);
      await chat().send(question(9));
    } finally {
      chat().setCompactionAsk(undefined);
      await config().update('chat.compaction', undefined, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().compaction === 'automatic', 'compaction automatic again');
    }
    assert.equal(asked.length, 1, 'asked once');
    assert.equal(asked[0]!.reason, 'price');
    assert.match(asked[0]!.message, /costs about \$[\d.]+ and saves about \$[\d.]+ over the next \d+ turns/);
    assert.equal(summaryRequests().length, summaries, 'Cancel compacts nothing');
    let last = (await chat().conversation()).messages.at(-1)!;
    assert.equal(last.role === 'assistant' && last.status, 'done', 'Cancel sends the message as it is');

    // automatic: compacted first, said in one line with its cost, and the message sent after the summary
    // longer than the last pause: the simulator's cache did survive that one, and the quote learned it
    await cool(6);
    const before = chatRequests().length;
    await chat().send(question(10));
    assert.equal(summaryRequests().length, summaries + 1, 'compacted by price');
    assert.ok(
      notices().some((n) => priceNote.test(n.message) && /for \$[\d.]+ before sending/.test(n.message)),
      notices()
        .map((n) => n.message)
        .join('\n'),
    );
    const sent = chatRequests().slice(before).map(bodyOf);
    assert.equal(sent[0]!.provider?.channel, 'economical', 'the summary first');
    assert.ok(String(sent[1]!.messages[1]!.content).startsWith(SUMMARY_HEADING), 'then the message, after the summary');
    last = (await chat().conversation()).messages.at(-1)!;
    assert.equal(last.role === 'assistant' && last.status, 'done');
    assert.equal((await chat().history()).active.messages.length, 20, 'the stored conversation keeps every turn');
  }

  it('mid-answer: a tool round whose request would not fit the window is compacted between rounds, not refused by the gateway', async () => {
    for (let i = 1; i <= 6; i++) await chat().send(`Part ${i}: ${'Keep the API small and the names stable. '.repeat(50)}[[words:250]]`);
    const summaries = summaryRequests().length;
    const before = chatRequests().length;
    // eight rounds, each reading the 1,000-token notes again: the answer's own requests grow past the window
    await chat().send(`Read the notes eight times. [[call:read_file {"path":"${FIXTURE}/notes.ts"}]][[rounds:8]]`);
    const last = (await chat().conversation()).messages.at(-1)!;
    assert.equal(last.role === 'assistant' && last.status, 'done', JSON.stringify(last.role === 'assistant' ? last.error : undefined));
    const messages = notices().map((n) => n.message);
    assert.ok(
      messages.some((m) =>
        /^The next round of tool calls would not have fit the model’s context window: \d+ earlier messages were compacted into a summary for \$/.test(m),
      ),
      messages.join('\n'),
    );
    assert.ok(!messages.some((m) => /did not fit the model’s context window/.test(m)), 'the gateway never refused a request');
    assert.equal(summaryRequests().length, summaries + 1, 'one summary, between rounds');
    const sent = chatRequests().slice(before).map(bodyOf);
    const summaryAt = sent.findIndex((b) => b.provider?.channel === 'economical');
    assert.ok(summaryAt > 0, 'the summary came after the answer had started');
    assert.ok(String(sent[summaryAt + 1]!.messages[1]!.content).startsWith(SUMMARY_HEADING), 'the next round went with the summary');
    const wire = sent[summaryAt + 1]!.messages;
    assert.equal(wire.filter((m) => m.role === 'tool').length, summaryAt, 'the answer’s own rounds so far are kept verbatim');
  });

  it('Compact Conversation keeps the system message byte-identical, and Undo Compaction restores what is sent until the next send', async () => {
    for (let i = 1; i <= 4; i++) await chat().send(`Question ${i}: ${'what about the cache? '.repeat(10)}[[words:80]]`);
    const before = await chat().requestPreview();
    const summaries = summaryRequests().length;
    await vscode.commands.executeCommand('modelgate.compactConversation', 'keep the API design');
    assert.equal(summaryRequests().length, summaries + 1);
    const request = bodyOf(summaryRequests().at(-1)!);
    assert.match(String(request.messages[0]!.content), /keep the API design/, 'the instructions reach the summary request');
    const after = await chat().requestPreview();
    assert.equal(JSON.stringify(after[0]), JSON.stringify(before[0]), 'the stable prefix is byte-identical');
    assert.ok(String(after[1]!.content).startsWith(SUMMARY_HEADING));
    assert.ok(after.length < before.length);
    assert.ok((await chat().conversation()).compaction?.undoable);

    await vscode.commands.executeCommand('modelgate.undoCompaction');
    assert.deepEqual(await chat().requestPreview(), before, 'Undo restores the sent history');
    assert.equal((await chat().conversation()).compaction, undefined);

    // compacted again and then a send: Undo is gone
    await chat().send('/compact');
    assert.ok(String((await chat().requestPreview())[1]!.content).startsWith(SUMMARY_HEADING), '/compact in the composer compacts');
    await chat().send('One more [[words:5]]');
    assert.equal((await chat().conversation()).compaction?.undoable, false);
    assert.equal(await chat().undoCompaction(), false);
    assert.equal((await chat().history()).active.messages.length, 10, 'the stored conversation keeps every turn');
  });

  it('nothing is lost: the conversation search finds text in compacted turns, and the Markdown export writes the full history', async () => {
    const needle = 'zebracompactneedle';
    // the needle lies past the first 2,000 characters of the conversation, which is all the index keeps
    await chat().send(`Question 1: ${'what about the cache? '.repeat(100)}and the ${needle}? [[words:60]]`);
    await chat().send(`Question 2: ${'what about the cache? '.repeat(10)}[[words:60]]`);
    for (let i = 3; i <= 5; i++) await chat().send(`Question ${i}: ${'what about the cache? '.repeat(10)}[[call:read_file {"path":"${FIXTURE}/notes.ts"}]]`);
    await chat().compact();
    const sent = JSON.stringify(await chat().requestPreview());
    assert.ok(!sent.includes(needle), 'the turn is compacted: it is not sent any more');
    const id = (await chat().history()).active.id;

    const session = await mg.api.chat.conversationList();
    try {
      session.search(needle);
      const hits = await session.settled();
      assert.ok(
        hits.some((h) => h.entry.id === id && h.snippet?.includes(needle)),
        `found: ${hits.map((h) => h.entry.title).join(', ')}`,
      );
    } finally {
      session.dispose();
    }
    // a new window, another conversation on screen: this one is not in memory, its text file on disk is read
    const textFile = path.join(mg.api.chat.storageUri.fsPath, `conversation-${id}.txt`);
    await until(() => fs.existsSync(textFile) && fs.readFileSync(textFile, 'utf8').includes(needle), 'the store wrote its full text beside it');
    await chat().newChat();
    await chat().send('Another topic [[words:5]]');
    await mg.api.chat.reload();
    const fresh = await mg.api.chat.conversationList();
    try {
      fresh.search(needle);
      const hits = await fresh.settled();
      assert.ok(
        hits.some((h) => h.entry.id === id),
        `found after a reload: ${hits.map((h) => h.entry.title).join(', ')}`,
      );
    } finally {
      fresh.dispose();
    }
    await chat().switchConversation(id);

    const target = vscode.Uri.file(path.join(ws, FIXTURE, 'exported.md'));
    await vscode.commands.executeCommand('modelgate.exportConversation', target);
    const written = fs.readFileSync(target.fsPath, 'utf8');
    const c = (await chat().history()).active;
    assert.match(written, /^# Question 1: what about the cache/);
    assert.ok(written.includes(`${c.messages.length} messages`) && written.includes(needle));
    for (let i = 1; i <= 5; i++) assert.ok(written.includes(`Question ${i}`), `turn ${i} is in the file`);
    assert.ok(written.includes('**Compacted here**') && written.includes(c.compaction!.summary.slice(0, 40)), 'the summary where the history was cut');
    assert.ok(written.includes("export const value59 = 'the quick brown fox"), 'tool results whole');
    assert.ok(written.indexOf('Question 1') < written.indexOf('**Compacted here**'), 'the compacted turns come first, then the divider');
  });

  it('a gateway 400 for overflow is compacted and the request sent again, once; the window it names is used from then on (told once, kept across a reload); a vscode.lm caller gets the window size', async () => {
    // the settings claim a 64K window: the panel's own check lets the request go, the gateway refuses it
    await config().update('models', { [MODEL]: { ...SMALL, contextWindow: 64_000 } }, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.catalogue().chatModel(MODEL)?.contextWindow === 64_000, 'the wrong window from the settings');
    try {
      let overflowed = false;
      for (let i = 1; i <= 20 && !overflowed; i++) {
        const count = chatRequests().length;
        await chat().send(turnText(i, 'wide.ts'));
        const view = await chat().conversation();
        const last = view.messages.at(-1)!;
        assert.equal(last.role === 'assistant' && last.status, 'done', `turn ${i}: ${JSON.stringify(last.role === 'assistant' ? last.error : undefined)}`);
        overflowed = notices().some((n) => /did not fit the model’s context window/.test(n.message));
        if (overflowed) {
          const sent = chatRequests().slice(count).map(bodyOf);
          assert.equal(sent.filter((b) => b.provider?.channel === 'economical').length, 1, 'one summary');
          assert.ok(String(sent.at(-1)!.messages[1]!.content).startsWith(SUMMARY_HEADING), 'the request went again with the summary');
        }
      }
      assert.ok(overflowed, 'the gateway refused an overflow and the answer went on');
      assert.equal(notices().filter((n) => /did not fit the model’s context window/.test(n.message)).length, 1);

      // the window the gateway named replaces the settings' 64K for this model, the user told once, and kept across a reload
      const learned = /^The gateway says small-window takes at most 16,000 tokens here, not the 64,000 /;
      assert.equal(
        notices().filter((n) => learned.test(n.message)).length,
        1,
        notices()
          .map((n) => n.message)
          .join('\n'),
      );
      assert.equal((await chat().composer()).contextWindow, 16_000);
      for (let i = 21; i <= 26; i++) await chat().send(turnText(i, 'wide.ts'));
      assert.equal(
        notices().filter((n) => /did not fit the model’s context window/.test(n.message)).length,
        1,
        'no second overflow: the panel counts with 16K',
      );
      assert.equal(notices().filter((n) => learned.test(n.message)).length, 1, 'told once');
      await mg.api.chat.reload();
      assert.equal((await chat().composer()).contextWindow, 16_000, 'after a reload too');

      // vscode.lm callers are not compacted: their overflow is an error that says the window size
      const [lm] = await vscode.lm.selectChatModels({ vendor: 'modelgate', id: MODEL });
      assert.ok(lm, 'vscode.lm has the model');
      const cts = new vscode.CancellationTokenSource();
      await assert.rejects(async () => {
        const response = await lm.sendRequest([vscode.LanguageModelChatMessage.User('many words '.repeat(12_000))], {}, cts.token);
        for await (const part of response.stream) void part;
      }, /does not fit the context window of small-window, 16,000 tokens \(the answer included\)\. Modelgate does not shorten what an extension sends through vscode\.lm/);
      cts.dispose();
    } finally {
      await config().update('models', { [MODEL]: SMALL }, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.catalogue().chatModel(MODEL)?.contextWindow === 16_000, 'the 16K window again');
    }
  });

  it('with modelgate.chat.compaction off, a message that leaves no room is refused as before and nothing is compacted', async () => {
    await config().update('chat.compaction', 'off', vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().compaction === 'off', 'compaction off');
    try {
      const summaries = summaryRequests().length;
      let refused = false;
      for (let i = 1; i <= 20 && !refused; i++) {
        await chat().send(turnText(i));
        refused = notices().some((n) => /^Nothing was sent: this request is about/.test(n.message));
      }
      assert.ok(refused, 'the message that did not fit was refused');
      assert.equal(summaryRequests().length, summaries, 'nothing was compacted');
      assert.equal((await chat().conversation()).compaction, undefined);
    } finally {
      await config().update('chat.compaction', undefined, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().compaction === 'automatic', 'compaction automatic again');
    }
  });
});
