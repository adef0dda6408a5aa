// Context changes that must not silently cost the prompt cache, and the diagnostics chip, in a
// real VS Code extension host against the gateway simulator (started in-process; the requests
// are read back from its control endpoint GET /__sim/requests, as a tester would).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../../src/chat';
import type { ChatMessage } from '../../src/core/types';
import type { ModelgateApi } from '../../src/extension';
import type { HostMessage, MessageView } from '../../src/protocol';
import { PRICE_CARD, startGateway, type RunningGateway } from '../gateway/index';
import { until } from './helpers';

const EXTENSION_ID = 'modelgate.modelgate';
const KEY = 'sk-context-suite-7a41c09e';
const FIXTURE = 'mg-context-fixture';
const FLAG_PRICE = PRICE_CARD.chat['flagship-text']!.stable;
const LCT_PRICE = PRICE_CARD.chat['long-context-tools']!.stable;

type Assistant = Extract<MessageView, { role: 'assistant' }>;
interface SimRequest {
  server: string;
  path: string;
  body: { model: string; messages: ChatMessage[] };
}

describe('context (real VS Code, gateway simulator)', function () {
  this.timeout(90_000);
  let gw: RunningGateway;
  let api: ModelgateApi;
  let ws: string;
  let posts: HostMessage[] = [];
  let subscription: vscode.Disposable | undefined;
  const config = () => vscode.workspace.getConfiguration('modelgate');
  const chat = (): ChatController => api.chat.controller;

  /** The chat requests the simulator recorded, from its control endpoint. */
  async function simChatRequests(): Promise<SimRequest[]> {
    const res = await fetch(`${gw.baseUrl.replace(/\/v1$/, '')}/__sim/requests`);
    assert.equal(res.status, 200);
    const all = (await res.json()) as SimRequest[];
    return all.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'));
  }

  async function useModel(model: string): Promise<void> {
    await config().update('chat.model', model, vscode.ConfigurationTarget.Global);
    await until(() => api.settings().chatModel === model, `chat.model = ${model}`);
  }

  async function lastAssistant(): Promise<Assistant> {
    const m = (await chat().conversation()).messages.at(-1);
    assert.ok(m && m.role === 'assistant', 'the last message is an answer');
    return m;
  }

  before(async () => {
    gw = await startGateway({ keys: { [KEY]: { balance: 100 } } });
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.mkdirSync(path.join(ws, FIXTURE), { recursive: true });
    await config().update('baseUrl', gw.baseUrl, vscode.ConfigurationTarget.Global);
    await config().update(
      'models',
      { 'flagship-text': { prices: { default: FLAG_PRICE } }, 'long-context-tools': { prices: { default: LCT_PRICE } } },
      vscode.ConfigurationTarget.Global,
    );
    await config().update('channel', 'default', vscode.ConfigurationTarget.Global);
    const ext = vscode.extensions.getExtension<ModelgateApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    await until(() => api.settings().baseUrl === gw.baseUrl, 'the base URL setting');
    await useModel('flagship-text');
    await vscode.commands.executeCommand('modelgate.setApiKey', KEY);
    await chat().ready;
  });

  beforeEach(async () => {
    await chat().newChat();
    subscription?.dispose();
    posts = [];
    subscription = chat().onDidPost((m) => posts.push(m));
  });

  after(async () => {
    subscription?.dispose();
    await chat().whenIdle();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const k of ['baseUrl', 'models', 'chat.model', 'channel']) await config().update(k, undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(path.join(ws, FIXTURE), { recursive: true, force: true });
    await gw.close();
  });

  it('a file pinned mid-conversation goes after the turns already sent: their bytes and their cache are kept', async () => {
    // A first question large enough for the cache (it caches from 1,024 tokens on).
    const filler = Array.from({ length: 600 }, (_, i) => `line ${i}: the quick brown fox`).join('\n');
    await chat().send(`Summarize this log [[words:20]]\n${filler}`);
    const a1 = await lastAssistant();
    assert.equal(a1.status, 'done');

    const late = vscode.Uri.file(path.join(ws, FIXTURE, 'late.ts'));
    fs.writeFileSync(late.fsPath, 'export const PINNED_LATE_MARKER = 42;\n');
    assert.equal(await chat().attachFile(late), true);
    await chat().send('Now look at late.ts [[words:20]]');
    const a2 = await lastAssistant();
    assert.equal(a2.status, 'done');
    await chat().send('And once more [[words:20]]');
    const a3 = await lastAssistant();

    const [r1, r2, r3] = (await simChatRequests()).slice(-3).map((r) => r.body.messages);
    // turn 2 starts with turn 1's messages, byte for byte (the system message is not rewritten) ...
    assert.deepEqual(r2!.slice(0, r1!.length), r1);
    assert.ok(JSON.stringify(r2).startsWith(JSON.stringify(r1).slice(0, -1)), 'turn 2 starts with the bytes of turn 1');
    assert.ok(!JSON.stringify(r2![0]).includes('PINNED_LATE_MARKER'), 'the late file is not in the system message');
    // ... then the answer, the pinned file, the new question
    assert.deepEqual(r2!.slice(r1!.length).map((m) => m.role), ['assistant', 'user', 'user']);
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
});
