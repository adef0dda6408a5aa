// The chat in Restricted Mode (the harness runs *.untrusted suites in a workspace that is not
// trusted): it still chats, but offers no workspace tools, says why, and runs none even when
// a model asks for one.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatMessage } from '../../src/core/client/types';
import type { ModelgateApi } from '../../src/extension';
import { startGateway, type RunningGateway } from '../gateway/index';

const KEY = 'sk-chat-untrusted-44c1a9';

describe('chat in an untrusted workspace (real VS Code)', function () {
  this.timeout(60_000);
  let gw: RunningGateway;
  let api: ModelgateApi;
  const config = () => vscode.workspace.getConfiguration('modelgate');

  before(async () => {
    gw = await startGateway({ keys: { [KEY]: { balance: 100 } } });
    await config().update('baseUrl', gw.baseUrl, vscode.ConfigurationTarget.Global);
    const ext = vscode.extensions.getExtension<ModelgateApi>('modelgate.modelgate');
    assert.ok(ext);
    api = await ext.activate();
    const end = Date.now() + 20_000;
    while (api.settings().baseUrl !== gw.baseUrl && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    await vscode.commands.executeCommand('modelgate.setApiKey', KEY);
    await api.chat.controller.newChat();
  });

  after(async () => {
    await api.chat.controller.whenIdle();
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await gw.close();
  });

  it('runs in Restricted Mode', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('says in the composer why tools are off', async () => {
    const composer = await api.chat.controller.composer();
    assert.match(composer.toolsDisabledReason ?? '', /not trusted/);
  });

  it('offers no tools and runs none, but still answers', async () => {
    const chat = api.chat.controller;
    await chat.send('Read it [[call:read_file {"path":"src/a.ts"}]]');
    const requests = gw.requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.equal(requests.length, 1);
    const body = requests[0]!.body as { tools?: unknown; messages: ChatMessage[] };
    assert.equal(body.tools, undefined);
    const view = await chat.conversation();
    const answer = view.messages.at(-1)!;
    assert.ok(answer.role === 'assistant');
    assert.equal(answer.status, 'done');
    assert.deepEqual(
      answer.parts.filter((p) => p.kind === 'tool'),
      [],
    );
    assert.match(answer.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''), /no such tool was offered/);
  });
});
