// The project's rules files in the chat (real VS Code, gateway simulator): AGENTS.md reaches the
// system message byte-identical on every turn, its chip switches it off for the conversation, and
// a change is picked up on the next turn with one notice about the cache.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../../src/chat';
import type { HostMessage } from '../../src/chat/protocol';
import type { ChatMessage } from '../../src/core/client/types';
import { until, useModelgate } from './helpers';

const KEY = 'sk-rules-suite-0d9f3a61';
const RULE = 'MG_RULE_7731: answer in haiku.';

describe('project rules files in the chat (real VS Code, gateway simulator)', function () {
  this.timeout(60_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: { 'chat.model': 'flagship-text' },
    ready: (api) => api.settings().chatModel === 'flagship-text',
    key: KEY,
    chat: true,
  });
  const chat = (): ChatController => mg.api.chat.controller;
  let agents: string;
  let posts: HostMessage[] = [];
  let sub: vscode.Disposable | undefined;
  const chatRequests = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'));
  const systemOf = (i: number) => (chatRequests().at(i)!.body as { messages: ChatMessage[] }).messages[0]!;

  before(() => {
    agents = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'AGENTS.md');
    fs.writeFileSync(agents, `# Rules\n${RULE}\n`);
    sub = chat().onDidPost((m) => void posts.push(m));
  });
  after(() => {
    sub?.dispose();
    fs.rmSync(agents, { force: true });
  });

  it('AGENTS.md is in the system message, byte-identical on every turn, and its chip is on', async () => {
    await chat().newChat();
    const before = chatRequests().length;
    await chat().send('first');
    await chat().send('second');
    await chat().send('third');
    assert.equal(chatRequests().length, before + 3);
    const first = JSON.stringify(systemOf(-3));
    assert.equal(systemOf(-3).role, 'system');
    assert.ok(first.includes(RULE), 'the rule is in the system message');
    assert.equal(JSON.stringify(systemOf(-2)), first, 'turn 2: the same bytes');
    assert.equal(JSON.stringify(systemOf(-1)), first, 'turn 3: the same bytes');
    assert.deepEqual((await chat().composer()).rules, [{ path: 'AGENTS.md', on: true }]);
  });

  it('the chip switches it off for this conversation only', async () => {
    mg.api.chat.view.receive({ type: 'toggleRules', path: 'AGENTS.md' });
    await until(async () => (await chat().composer()).rules?.[0]?.on === false, 'the chip is off');
    await chat().send('without rules');
    assert.ok(!JSON.stringify(systemOf(-1)).includes(RULE), 'switched off: not sent');
    await chat().newChat();
    await chat().send('a new conversation');
    assert.ok(JSON.stringify(systemOf(-1)).includes(RULE), 'another conversation still has it');
  });

  it('a chip switched off stays off after a window reload', async () => {
    await chat().newChat();
    await chat().send('rules on');
    const id = (await chat().conversation()).id;
    mg.api.chat.view.receive({ type: 'toggleRules', path: 'AGENTS.md' });
    await until(async () => (await chat().composer()).rules?.[0]?.on === false, 'the chip is off');
    const reloaded = await mg.api.chat.reload();
    sub?.dispose();
    sub = reloaded.onDidPost((m) => void posts.push(m));
    assert.equal((await reloaded.conversation()).id, id, 'the same conversation after the reload');
    await until(async () => (await reloaded.composer()).rules?.[0]?.on === false, 'the chip is still off after the reload');
    await reloaded.send('after the reload');
    assert.ok(!JSON.stringify(systemOf(-1)).includes(RULE), 'still not sent');
    mg.api.chat.view.receive({ type: 'toggleRules', path: 'AGENTS.md' });
    await until(async () => (await reloaded.composer()).rules?.[0]?.on === true, 'the chip is on again');
    await reloaded.send('rules on again'); // the next test's change is measured against this request
    assert.ok(JSON.stringify(systemOf(-1)).includes(RULE));
  });

  it('a change is picked up on the next turn, with one notice about the cache', async () => {
    posts = [];
    fs.writeFileSync(agents, `# Rules\n${RULE}\nMG_RULE_CHANGED\n`);
    await chat().send('after the change');
    assert.ok(JSON.stringify(systemOf(-1)).includes('MG_RULE_CHANGED'));
    await chat().send('and again');
    const notices = posts.filter((p) => p.type === 'notice' && /AGENTS\.md changed/.test(p.message));
    assert.equal(notices.length, 1, 'one notice for one change');
  });
});
