// Crash safety (docs/reliability.md, category 8), the store's side, in the real extension host: what a kill in
// the middle of a write can leave on disk, planted exactly, then the history reopened the way a
// restarted extension host opens it (ChatApi.reload). The e2e suite (test/e2e/crash.e2e.test.ts)
// kills the real extension host mid-stream; this one covers the instants it cannot aim at.
//  - A write is a temporary file renamed over the old one: a kill before the rename leaves a
//    half-written `*.tmp`. It must be ignored (the previous version loads) and replaced later.
//  - A conversation file cut short anyway (a filesystem without atomic rename) must cost only
//    that conversation, with a warning, never the rest of the store or the extension.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MessageView } from '../../src/chat/protocol';
import { useModelgate } from './helpers';

const KEY = 'sk-crash-store-8e2d4c19';

describe('crash safety: half-written store files (real VS Code)', function () {
  this.timeout(60_000);
  const mg = useModelgate({ gateway: { keys: { [KEY]: { balance: 100 } } }, settings: { 'chat.model': 'flagship-text' }, key: KEY, chat: true });
  const dir = () => mg.api.chat.storageUri.fsPath;
  const file = (id: string) => path.join(dir(), `conversation-${id}.json`);
  const usersOf = (messages: MessageView[]) => messages.filter((m) => m.role === 'user').map((m) => (m as { text: string }).text);

  it('a kill between writing the temporary file and the rename: the previous version loads, the temp file is replaced later', async () => {
    let chat = mg.api.chat.controller;
    await chat.newChat();
    await chat.send('crash A one [[words:5]]');
    const id = (await chat.conversation()).id;
    chat = await mg.api.chat.reload(); // flushed
    const saved = fs.readFileSync(file(id), 'utf8');
    // What a kill mid-write leaves: a newer version, half written, under the temporary name.
    const newer = saved.replace('crash A one', 'crash A one, edited later');
    fs.writeFileSync(`${file(id)}.tmp`, newer.slice(0, Math.floor(newer.length / 2)));
    const index = fs.readFileSync(path.join(dir(), 'index.json'), 'utf8');
    fs.writeFileSync(path.join(dir(), 'index.json.tmp'), index.slice(0, Math.floor(index.length / 3)));
    // Left by a kill some time ago: a temporary file of a live write (another window's) is
    // renamed within milliseconds and must not be touched, a stale one is removed.
    const past = new Date(Date.now() - 10 * 60_000);
    for (const p of [`${file(id)}.tmp`, path.join(dir(), 'index.json.tmp')]) fs.utimesSync(p, past, past);
    const live = path.join(dir(), `index.json.${'0'.repeat(8)}-live.tmp`);
    fs.writeFileSync(live, '{}');

    chat = await mg.api.chat.reload();
    assert.ok(await chat.switchConversation(id), 'the conversation opens');
    const view = await chat.conversation();
    assert.deepEqual(usersOf(view.messages), ['crash A one [[words:5]]'], 'the previous version, whole');
    assert.equal(view.messages.length, 2);
    // The next save goes through the same temporary names and leaves none behind.
    await chat.send('crash A two [[words:5]]');
    chat = await mg.api.chat.reload();
    assert.deepEqual(
      fs.readdirSync(dir()).filter((n) => n.endsWith('.tmp')),
      [path.basename(live)],
      'no stale temporary file left, a live one untouched',
    );
    fs.rmSync(live);
    await chat.switchConversation(id);
    assert.deepEqual(usersOf((await chat.conversation()).messages), ['crash A one [[words:5]]', 'crash A two [[words:5]]']);
  });

  it('a conversation file cut short costs that conversation only (with a warning), not the store', async () => {
    let chat = mg.api.chat.controller;
    await chat.newChat();
    await chat.send('crash B keep [[words:5]]');
    const keep = (await chat.conversation()).id;
    await chat.newChat();
    await chat.send('crash B cut [[words:5]]');
    const cut = (await chat.conversation()).id;
    await chat.switchConversation(keep);
    chat = await mg.api.chat.reload();
    const text = fs.readFileSync(file(cut), 'utf8');
    fs.writeFileSync(file(cut), text.slice(0, Math.floor(text.length / 2)));

    chat = await mg.api.chat.reload();
    assert.ok(await chat.switchConversation(keep), 'the other conversation opens');
    assert.deepEqual(usersOf((await chat.conversation()).messages), ['crash B keep [[words:5]]']);
    assert.equal(await chat.switchConversation(cut), false, 'the damaged one does not open');
    // and the extension goes on
    await chat.newChat();
    await chat.send('after the damage [[words:3]]');
    const last = (await chat.conversation()).messages.at(-1);
    assert.ok(last && last.role === 'assistant' && last.status === 'done');
    fs.rmSync(file(cut), { force: true }); // leave no planted damage for the suites after this one
  });
});
