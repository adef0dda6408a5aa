// Two windows editing the chat history at once (docs/reliability.md, category 8): two
// stores on one folder through the real FileBackend (Node's fs, as desktop and remote hosts
// write it, or workspace.fs, as the web host does; a real file watcher), and the
// extension's own controller next to a second store on its storage folder, the way a second
// window sees it. Both sets of messages survive, a deleted conversation stays deleted, and
// simultaneous saves never fail (ENOENT on the shared temporary name, before the fix).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ConversationStore } from '../../src/chat/conversations/conversationStore';
import { FileBackend } from '../../src/chat/conversations/conversationFiles';
import type { Conversation } from '../../src/chat/conversations/conversationTranscript';
import type { ModelgateApi } from '../../src/extension';
import { addTurn, until } from './helpers';

const userTexts = (c: { messages: { role: string; text?: string }[] }) => c.messages.filter((m) => m.role === 'user').map((m) => m.text);

describe('chat history: two windows at once (real VS Code file system and watcher)', function () {
  this.timeout(60_000);
  let dir: string;
  const warnings: string[] = [];
  const open = (onExternalChange?: () => void, throughVsCode = false) =>
    ConversationStore.open(new FileBackend(vscode.Uri.file(dir), { throughVsCode }), { warn: (m) => warnings.push(m), debounceMs: 5, onExternalChange });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-two-windows-'));
    warnings.length = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [pair, bThroughVsCode] of [
    ['both with Node', false],
    ['one with Node, one through workspace.fs', true],
  ] as const)
    it(`20 rounds of simultaneous saves of the same conversation (${pair}): every message of both windows survives, no save fails`, async () => {
      const seed = await open();
      addTurn(seed.active, 'seed', 'seed answer');
      seed.changed(seed.active, { touch: true });
      await seed.close();
      const a = await open();
      const b = await open(undefined, bThroughVsCode);
      const expected = ['seed'];
      for (let i = 0; i < 20; i++) {
        addTurn(a.active, `A${i}`, `answer A${i}`);
        a.changed(a.active, { touch: true });
        addTurn(b.active, `B${i}`, `answer B${i}`);
        b.changed(b.active, { touch: true });
        expected.push(`A${i}`, `B${i}`);
        await Promise.all([a.flush(), b.flush()]);
      }
      // A write that raced the other window's may have dropped its messages from the file for a
      // moment; the other window's next read (watcher, poll, or these explicit ones) merges them back.
      const file = path.join(dir, `conversation-${a.active.id}.json`);
      await until(async () => {
        await a.refresh();
        await b.refresh();
        const onDisk = JSON.parse(fs.readFileSync(file, 'utf8')) as Conversation;
        return (
          expected.every((t) => userTexts(onDisk).includes(t)) && expected.every((t) => userTexts(a.active).includes(t) && userTexts(b.active).includes(t))
        );
      }, 'both windows and the file hold every message');
      await Promise.all([a.close(), b.close()]);
      assert.deepEqual(warnings, [], 'no save failed');
      const again = await open();
      assert.deepEqual(new Set(userTexts(again.active)), new Set(expected));
      assert.equal(again.active.messages.length, expected.length * 2);
      assert.deepEqual(
        fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')),
        [],
        'no temporary file left behind',
      );
      await again.close();
    });

  it('a conversation deleted in one window stays deleted after the other saves its stale copy', async () => {
    const seed = await open();
    addTurn(seed.active, 'doomed', 'x');
    seed.changed(seed.active, { touch: true });
    const keep = seed.create();
    addTurn(keep, 'kept', 'y');
    seed.changed(keep, { touch: true });
    await seed.close();
    const a = await open();
    const b = await open();
    const doomed = a.list().find((s) => s.title === 'doomed')!.id;
    await a.activate(doomed);
    const stale = await b.activate(doomed);
    await a.delete(doomed);
    stale!.draft = 'a keystroke in the stale window';
    b.changed(stale!);
    await b.flush();
    await Promise.all([a.close(), b.close()]);
    assert.equal(fs.existsSync(path.join(dir, `conversation-${doomed}.json`)), false);
    const again = await open();
    assert.ok(!again.list().some((s) => s.id === doomed));
    assert.ok(again.list().some((s) => s.title === 'kept'));
    await again.close();
  });

  it("a window sees the other window's new answer by itself (file watcher), with no save of its own", async () => {
    const seed = await open();
    addTurn(seed.active, 'seed', 'x');
    seed.changed(seed.active, { touch: true });
    await seed.close();
    let told = 0;
    const a = await open();
    const b = await open(() => told++, true); // hears Node's writes through workspace.fs
    addTurn(a.active, 'from A', 'answer A');
    a.changed(a.active, { touch: true });
    await a.flush();
    await until(() => userTexts(b.active).includes('from A') && told >= 1, 'the other window merged the new message (watcher) and said so');
    await Promise.all([a.close(), b.close()]);
  });

  it("the extension's chat and a second window on its storage: neither loses the other's messages", async () => {
    const ext = vscode.extensions.getExtension<ModelgateApi>('modelgate.modelgate')!;
    const api = await ext.activate();
    let chat = api.chat.controller;
    await chat.newChat();
    await chat.handle({ type: 'draft', text: 'first draft in the extension window' });
    chat = await api.chat.reload(); // written and reopened
    const id = (await chat.conversation()).id;
    const second = await ConversationStore.open(new FileBackend(api.chat.storageUri), { debounceMs: 5 });
    const other = (await second.activate(id))!;
    assert.equal(other.draft, 'first draft in the extension window');
    addTurn(other, 'from the second window', 'its answer');
    second.changed(other, { touch: true });
    await second.flush();
    await until(
      async () => (await chat.conversation()).messages.some((m) => m.role === 'user' && m.text === 'from the second window'),
      "the extension merged the second window's message",
    );
    await second.close();
    chat = await api.chat.reload();
    assert.ok((await chat.conversation()).messages.some((m) => m.role === 'user' && m.text === 'from the second window'));
  });
});
