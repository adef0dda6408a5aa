// The chat in Restricted Mode (the harness runs *.untrusted suites in a workspace that is not
// trusted): it still chats, but offers no workspace tools, says why, and runs none even when
// a model asks for one.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatMessage } from '../../src/core/client/types';
import { useModelgate } from './helpers';

const KEY = 'sk-chat-untrusted-44c1a9';

describe('chat in an untrusted workspace (real VS Code)', function () {
  this.timeout(60_000);
  const mg = useModelgate({ gateway: { keys: { [KEY]: { balance: 100 } } }, key: KEY });

  before(async () => {
    await mg.api.chat.controller.newChat();
  });

  it('runs in Restricted Mode', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('says in the composer why tools are off', async () => {
    const composer = await mg.api.chat.controller.composer();
    assert.match(composer.toolsDisabledReason ?? '', /not trusted/);
  });

  it('offers no tools and runs none, but still answers', async () => {
    const chat = mg.api.chat.controller;
    await chat.send('Read it [[call:read_file {"path":"src/a.ts"}]]');
    const requests = mg.gw.requests.filter((r) => r.path.endsWith('/chat/completions'));
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

  it('offers no edit tool and writes nothing when a model asks for one', async () => {
    const chat = mg.api.chat.controller;
    const before = mg.gw.requests.length;
    const ws = vscode.workspace.workspaceFolders![0]!.uri;
    const target = vscode.Uri.joinPath(ws, 'mg-untrusted-edit.txt');
    await chat.send('Write it [[call:create_file {"path":"mg-untrusted-edit.txt","content":"x"}]]');
    const body = mg.gw.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'))!.body as { tools?: unknown };
    assert.equal(body.tools, undefined, 'no tool offered, the edit tools included');
    assert.deepEqual(mg.api.chat.edits.available() && vscode.workspace.isTrusted, false);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(target)), 'nothing was created');
    const c = await chat.conversation();
    assert.deepEqual((await mg.api.chat.edits.state(c.id)).answers, []);
  });
});
