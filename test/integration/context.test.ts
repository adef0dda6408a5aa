// Context changes that must not silently cost the prompt cache, and the diagnostics chip, in a
// real VS Code extension host against the gateway simulator (started in-process; the requests
// are read back from its control endpoint GET /__sim/requests, as a tester would).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../../src/chat';
import type { ChatMessage } from '../../src/core/client/types';
import { parseWebviewMessage, type HostMessage } from '../../src/chat/protocol';
import { formatUsd } from '../../src/core/spend/cost';
import { PRICE_CARD } from '../gateway/index';
import { config, lastAssistant, until, useModelgate } from './helpers';

const KEY = 'sk-context-suite-7a41c09e';
const FIXTURE = 'mg-context-fixture';
const FLAG_PRICE = PRICE_CARD.chat['flagship-text']!.stable;
const LCT_PRICE = PRICE_CARD.chat['long-context-tools']!.stable;

interface SimRequest {
  server: string;
  path: string;
  body: { model: string; messages: ChatMessage[] };
}

describe('context (real VS Code, gateway simulator)', function () {
  this.timeout(90_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: {
      models: { 'flagship-text': { prices: { default: FLAG_PRICE } }, 'long-context-tools': { prices: { default: LCT_PRICE } } },
      channel: 'default',
      'chat.model': 'flagship-text',
    },
    ready: (api) => api.settings().chatModel === 'flagship-text',
    key: KEY,
    chat: true,
  });
  let ws: string;
  let posts: HostMessage[] = [];
  let subscription: vscode.Disposable | undefined;
  const chat = (): ChatController => mg.api.chat.controller;

  /** The chat requests the simulator recorded, from its control endpoint. */
  async function simChatRequests(): Promise<SimRequest[]> {
    const res = await fetch(`${mg.gw.baseUrl.replace(/\/v1$/, '')}/__sim/requests`);
    assert.equal(res.status, 200);
    const all = (await res.json()) as SimRequest[];
    return all.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'));
  }

  async function useModel(model: string): Promise<void> {
    await config().update('chat.model', model, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().chatModel === model, `chat.model = ${model}`);
  }

  before(() => {
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.mkdirSync(path.join(ws, FIXTURE), { recursive: true });
  });

  beforeEach(async () => {
    await chat().newChat();
    subscription?.dispose();
    posts = [];
    subscription = chat().onDidPost((m) => posts.push(m));
  });

  after(async () => {
    subscription?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.join(ws, FIXTURE), { recursive: true, force: true });
  });

  it('a file pinned mid-conversation goes after the turns already sent: their bytes and their cache are kept', async () => {
    // A first question large enough for the cache (it caches from 1,024 tokens on).
    const filler = Array.from({ length: 600 }, (_, i) => `line ${i}: the quick brown fox`).join('\n');
    await chat().send(`Summarize this log [[words:20]]\n${filler}`);
    const a1 = await lastAssistant(chat());
    assert.equal(a1.status, 'done');

    const late = vscode.Uri.file(path.join(ws, FIXTURE, 'late.ts'));
    fs.writeFileSync(late.fsPath, 'export const PINNED_LATE_MARKER = 42;\n');
    assert.equal(await chat().attachFile(late), true);
    await chat().send('Now look at late.ts [[words:20]]');
    const a2 = await lastAssistant(chat());
    assert.equal(a2.status, 'done');
    await chat().send('And once more [[words:20]]');
    const a3 = await lastAssistant(chat());

    const [r1, r2, r3] = (await simChatRequests()).slice(-3).map((r) => r.body.messages);
    // turn 2 starts with turn 1's messages, byte for byte (the system message is not rewritten) ...
    assert.deepEqual(r2!.slice(0, r1!.length), r1);
    assert.ok(JSON.stringify(r2).startsWith(JSON.stringify(r1).slice(0, -1)), 'turn 2 starts with the bytes of turn 1');
    assert.ok(!JSON.stringify(r2![0]).includes('PINNED_LATE_MARKER'), 'the late file is not in the system message');
    // ... then the answer, the pinned file, the new question
    assert.deepEqual(
      r2!.slice(r1!.length).map((m) => m.role),
      ['assistant', 'user', 'user'],
    );
    assert.match(r2![r1!.length + 1]!.content as string, /File: mg-context-fixture\/late\.ts[\s\S]*PINNED_LATE_MARKER/);
    // turn 3 starts with all of turn 2: the pin stays where it was
    assert.ok(JSON.stringify(r3).startsWith(JSON.stringify(r2).slice(0, -1)), 'turn 3 starts with the bytes of turn 2');
    assert.equal(JSON.stringify(r3).split('PINNED_LATE_MARKER').length, 2, 'the file is sent once');

    // The simulator's prefix cache served turn 1's prompt to turn 2 (whole 128-token blocks).
    const u1 = a1.usage!;
    const u2 = a2.usage!;
    const u3 = a3.usage!;
    assert.ok(u1.promptTokens > 2_000, `turn 1 is large enough to be cached: ${u1.promptTokens}`);
    assert.ok(u2.cachedTokens / u1.promptTokens > 0.9, `turn 2: ${u2.cachedTokens} cached of turn 1's ${u1.promptTokens}`);
    assert.ok(u3.cachedTokens / u2.promptTokens > 0.9, `turn 3: ${u3.cachedTokens} cached of turn 2's ${u2.promptTokens}`);
    console.log(`      cached tokens after a mid-conversation pin: turn 2 ${u2.cachedTokens}/${u2.promptTokens}, turn 3 ${u3.cachedTokens}/${u3.promptTokens}`);
  });

  it('changing model or channel mid-conversation: cache advice that compares like with like, once per change', async () => {
    const cacheNotices = () => posts.filter((p): p is Extract<HostMessage, { type: 'notice' }> => p.type === 'notice' && /prompt cache/.test(p.message));
    const useChannel = async (channel: string) => {
      await config().update('channel', channel, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().channel === channel, `channel = ${channel}`);
    };
    // flagship-text's price is cheaper than long-context-tools' cache only on economical (a price set for this test)
    const CHEAP = { input: LCT_PRICE.cacheRead! / 2, output: 1 };
    try {
      // an empty conversation has no cache to lose
      await useModel('flagship-text');
      await useModel('long-context-tools');
      assert.deepEqual(cacheNotices(), []);

      await chat().send('Hello there [[words:10]]');
      assert.equal((await lastAssistant(chat())).status, 'done');
      await useModel('flagship-text');
      assert.equal(cacheNotices().length, 1);
      const first = cacheNotices()[0]!;
      assert.equal(first.level, 'info');
      assert.match(first.message, /^Switched from long-context-tools to flagship-text:/);
      // the estimate the composer shows for the next request: uncached at the new input price, against the old route's own cache price
      const tokens = (await chat().composer()).contextTokens;
      assert.ok(first.message.includes(`about ${tokens.toLocaleString('en-US')} tokens uncached`), first.message);
      assert.ok(
        first.message.includes(`about ${formatUsd((tokens * FLAG_PRICE.input) / 1e6)}, against about ${formatUsd((tokens * LCT_PRICE.cacheRead!) / 1e6)}`),
        first.message,
      );
      assert.match(first.message, /Switch back to keep the cache/);

      // back to the cached route: the notice goes (its condition is fixed); the same change
      // again: no second notice
      const resolvedBefore = posts.filter((p) => p.type === 'noticeResolved' && p.topic === 'cache').length;
      await useModel('long-context-tools');
      await until(() => posts.filter((p) => p.type === 'noticeResolved' && p.topic === 'cache').length > resolvedBefore, 'the cache notice resolved');
      await useModel('flagship-text');
      assert.equal(
        cacheNotices().length,
        1,
        cacheNotices()
          .map((n) => n.message)
          .join('\n'),
      );

      // a route cheaper uncached than the old one cached: no advice to switch back; each model and channel named once
      await config().update(
        'models',
        { 'flagship-text': { prices: { default: FLAG_PRICE, economical: CHEAP } }, 'long-context-tools': { prices: { default: LCT_PRICE } } },
        vscode.ConfigurationTarget.Global,
      );
      await until(() => mg.api.catalogue().price('flagship-text', 'economical')?.input === CHEAP.input, 'the cheap economical price');
      await useChannel('economical');
      assert.equal(cacheNotices().length, 2);
      const cheaper = cacheNotices()[1]!.message;
      assert.match(cheaper, /^Switched from long-context-tools on the default channel to flagship-text on the economical channel:/);
      assert.doesNotMatch(cheaper, /Switch back/);
      assert.match(cheaper, /no more than about/);

      // the old route has no cache price (flagship-text's card has none): nothing to advise
      await useChannel('default');
      await chat().newChat();
      await chat().send('Hello again [[words:10]]');
      assert.equal((await lastAssistant(chat())).model, 'flagship-text');
      await useModel('long-context-tools');
      assert.equal(
        cacheNotices().length,
        2,
        cacheNotices()
          .map((n) => n.message)
          .join('\n'),
      );
    } finally {
      await config().update(
        'models',
        { 'flagship-text': { prices: { default: FLAG_PRICE } }, 'long-context-tools': { prices: { default: LCT_PRICE } } },
        vscode.ConfigurationTarget.Global,
      );
      await useChannel('default');
      await useModel('flagship-text');
    }
  });

  it("attaches the current file's problems as a removable chip, and sends them with the next message", async () => {
    const file = vscode.Uri.file(path.join(ws, FIXTURE, 'broken.json'));
    fs.writeFileSync(file.fsPath, '{\n  "name": "x",\n  "version": 1,,\n}\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    // VS Code's built-in JSON language service reports the syntax error
    await until(() => vscode.languages.getDiagnostics(file).length > 0, 'a diagnostic for broken.json', 60_000);

    await chat().handle(parseWebviewMessage({ type: 'attachDiagnostics' })!);
    let chips = (await chat().composer()).attachments;
    assert.equal(chips.length, 1);
    assert.equal(chips[0]!.kind, 'diagnostics');
    assert.match(chips[0]!.label, /^Problems: mg-context-fixture\/broken\.json \(\d+\)$/);
    // removable like the other chips
    await chat().handle(parseWebviewMessage({ type: 'removeAttachment', attachmentId: chips[0]!.id })!);
    assert.deepEqual((await chat().composer()).attachments, []);

    assert.equal(await chat().attachProblems(), true);
    // the palette command does the same (with the editor that was active before the panel)
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('modelgate.attachProblems');
    chips = (await chat().composer()).attachments;
    assert.equal(chips.length, 1, "attaching the same file's problems again replaces the chip");
    await chat().send('Why does this not parse? [[words:5]]');
    const sent = (await simChatRequests()).at(-1)!.body.messages.at(-1)!;
    assert.equal(sent.role, 'user');
    const content = sent.content as string;
    assert.match(content, /Problems VS Code reports in mg-context-fixture\/broken\.json:/);
    assert.match(content, /mg-context-fixture\/broken\.json:3:\d+: error: /);
    assert.ok(content.endsWith('Why does this not parse? [[words:5]]'));
    const user = (await chat().conversation()).messages.at(-2)!;
    assert.ok(user.role === 'user' && user.attachments.some((a) => a.kind === 'diagnostics'), 'the sent message shows the chip');
    assert.deepEqual((await chat().composer()).attachments, [], 'the chip went with that message');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("without an active file, attaches the workspace's errors: bounded, and only files inside the workspace", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const collection = vscode.languages.createDiagnosticCollection('mg-context-test');
    try {
      const inside = vscode.Uri.file(path.join(ws, FIXTURE, 'many.ts'));
      const outside = vscode.Uri.file('/tmp/mg-outside-workspace/secret.ts');
      const errors = Array.from(
        { length: 200 },
        (_, i) => new vscode.Diagnostic(new vscode.Range(i, 0, i, 1), `error number ${i}`, vscode.DiagnosticSeverity.Error),
      );
      collection.set(inside, errors);
      collection.set(outside, [new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'OUTSIDE_ERROR', vscode.DiagnosticSeverity.Error)]);
      collection.set(vscode.Uri.file(path.join(ws, FIXTURE, 'warn.ts')), [
        new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'ONLY_A_WARNING', vscode.DiagnosticSeverity.Warning),
      ]);
      assert.equal(await chat().attachProblems(undefined), true);
      const chip = (await chat().composer()).attachments[0]!;
      assert.equal(chip.kind, 'diagnostics');
      assert.match(chip.label, /^Errors: workspace \(\d+\)$/);
      await chat().send('Fix these [[words:5]]');
      const content = (await simChatRequests()).at(-1)!.body.messages.at(-1)!.content as string;
      assert.match(content, /Errors VS Code reports in the workspace/);
      assert.ok(content.includes('mg-context-fixture/many.ts:1:1: error: error number 0'), content.slice(0, 500));
      assert.ok(!content.includes('OUTSIDE_ERROR') && !content.includes('/tmp/'), 'nothing from outside the workspace');
      assert.ok(!content.includes('ONLY_A_WARNING'), 'workspace-wide: errors only');
      const lines = content.split('\n').filter((l) => l.includes('many.ts:'));
      assert.ok(lines.length <= 50, `${lines.length} lines`);
      assert.match(content, /\(\d+ more not shown\)/);
    } finally {
      collection.dispose();
    }
  });
});
