// The conversation list ("Modelgate: Open Conversation…") in the real extension host,
// with 1,000 conversations in the store: it opens from the index without reading the
// conversation files, searches their content, renames and deletes (the delete confirmed inside
// the list, leaving the store's tombstone), and opens the picked one in the panel. Figures are
// printed, never asserted (the machine is shared); `npm run bench` is not involved.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { relativeDate, searchTextOf, titleFrom } from '../../src/chat/conversations/conversationSearch';
import type { ConversationItem } from '../../src/chat/conversations/conversationList';
import type { Conversation } from '../../src/chat/conversations/conversationTranscript';
import { serializeConversation } from '../../src/chat/conversations/conversationFormat';
import { userMessage } from '../../src/core/prompt/promptLayout';
import { EXTENSION_ID, until, useModelgate, useOwnChatHistory } from './helpers';

const COUNT = 1000;
const HOUR = 3600_000;

function seeded(i: number, now: number): Conversation {
  const question = `## Question ${i}: how do I **configure** module-${i}?`;
  const c: Conversation = {
    id: `seed-${String(i).padStart(4, '0')}`,
    title: titleFrom(question),
    createdAt: now - (i + 1) * HOUR,
    updatedAt: now - (i + 1) * HOUR, // seed-0000 is the newest
    messages: [],
    pinned: [],
    pending: [],
    draft: '',
  };
  c.messages.push({ id: `${c.id}-u1`, role: 'user', text: question, attachments: [], createdAt: c.createdAt, context: [], wire: userMessage(question) });
  const answer = `Use the settings file. ${'Some explanation. '.repeat(40)}The secret word of this one is needle${i}x.`;
  c.messages.push({
    id: `${c.id}-a1`,
    role: 'assistant',
    parts: [{ kind: 'text', text: answer }],
    status: 'done',
    model: 'flagship-text',
    channel: 'stable',
    createdAt: c.createdAt,
    wire: [{ role: 'assistant', content: answer }],
  });
  return c;
}

describe('conversation list: 1,000 conversations (real VS Code)', function () {
  this.timeout(120_000);
  const mg = useModelgate({ gateway: false, chat: true });
  const now = Date.now();
  // The suite replaces the stored history with its own and puts the old one back afterwards.
  const history = useOwnChatHistory(mg, (dir) => {
    const conversations = Array.from({ length: COUNT }, (_, i) => seeded(i, now));
    for (const c of conversations) fs.writeFileSync(path.join(dir, `conversation-${c.id}.json`), serializeConversation(c));
    const index = {
      version: 1,
      activeId: conversations[500]!.id,
      conversations: conversations.map((c) => ({ id: c.id, title: c.title, updatedAt: c.updatedAt, text: searchTextOf(c) })),
    };
    fs.writeFileSync(path.join(dir, 'index.json'), JSON.stringify(index));
    console.log(`    [convlist] seeded ${COUNT} conversations; index.json ${(fs.statSync(path.join(dir, 'index.json')).size / 1024).toFixed(0)} KB`);
  });

  it('opens newest first with titles and dates, searches content, renames, deletes (confirmed), and opens the pick', async () => {
    const t0 = performance.now();
    const session = await mg.api.chat.conversationList({ askTitle: async () => '  Renamed   module 7 ' });
    const openMs = performance.now() - t0;
    try {
      const qp = session.quickPick;
      const items = () => qp.items as readonly ConversationItem[];
      assert.equal(items().length, COUNT);
      assert.equal(items()[0]!.id, 'seed-0000', 'newest first');
      assert.equal(items()[COUNT - 1]!.id, 'seed-0999');
      assert.equal(items()[0]!.label, 'Question 0: how do I configure module-0?', 'markdown out of the title');
      assert.equal(items()[0]!.description, relativeDate(now - HOUR, Date.now()));
      assert.match(items()[500]!.description ?? '', /open now/, 'the conversation on screen is marked');
      assert.deepEqual(
        items()[0]!.buttons?.map((b) => b.tooltip),
        ['Rename', 'Delete'],
      );

      // Content search: the word is only in the answer, never in a title.
      const t1 = performance.now();
      const hits = session.search('NEEDLE417X');
      const searchMs = performance.now() - t1;
      assert.deepEqual(
        items().map((i) => i.id),
        ['seed-0417'],
      );
      assert.equal(hits[0]?.in, 'content');
      assert.match(items()[0]!.detail ?? '', /needle417x/, 'the matching piece of the content is shown');
      // Several words: every one must match, in the title or the content.
      session.search('module-41 configure');
      assert.deepEqual(
        items().map((i) => i.id),
        ['seed-0041', ...Array.from({ length: 10 }, (_, k) => `seed-04${10 + k}`)],
      );
      console.log(`    [convlist] open with ${COUNT} conversations: ${openMs.toFixed(1)} ms; content search: ${searchMs.toFixed(2)} ms`);

      // Rename (the item's Rename button).
      await session.rename('seed-0007');
      session.search('renamed');
      assert.deepEqual(
        items().map((i) => [i.id, i.label]),
        [['seed-0007', 'Renamed module 7']],
      );
      await mg.api.chat.controller.whenIdle();
      const file7 = JSON.parse(fs.readFileSync(path.join(history.dir, 'conversation-seed-0007.json'), 'utf8')) as Conversation;
      assert.equal(file7.title, 'Renamed module 7');
      assert.equal(file7.renamed, true);
      await until(() => fs.readFileSync(path.join(history.dir, 'index.json'), 'utf8').includes('Renamed module 7'), 'the index holds the new title');

      // Delete (the item's Delete button), confirmed inside the list.
      session.search('');
      session.askDelete('seed-0003');
      assert.deepEqual(
        items().map((i) => i.confirm),
        ['delete', 'keep'],
      );
      await session.accept(items()[1]); // Keep it
      assert.equal(items().length, COUNT, 'Keep it deletes nothing');
      session.askDelete('seed-0003');
      await session.accept(items()[0]); // Delete
      assert.equal(items().length, COUNT - 1);
      assert.ok(!items().some((i) => i.id === 'seed-0003'));
      assert.ok(!fs.existsSync(path.join(history.dir, 'conversation-seed-0003.json')), 'its file is gone');
      assert.ok(fs.existsSync(path.join(history.dir, 'conversation-seed-0003.deleted')), 'and its tombstone is there');

      // Pick one: the panel shows it.
      session.search('needle999x');
      await session.accept(items()[0]);
      assert.equal((await mg.api.chat.controller.conversation()).id, 'seed-0999');
      await session.closed;
    } finally {
      session.dispose();
    }

    // A reopen (a new window) sees the rename and the delete.
    const again = await mg.api.chat.reload();
    const list = await again.conversations();
    assert.equal(list.length, COUNT - 1);
    assert.equal(list.find((s) => s.id === 'seed-0007')?.title, 'Renamed module 7');
    assert.ok(!list.some((s) => s.id === 'seed-0003'));
  });

  it('a search that reaches its bound offers to search the older conversations in full, and that finds the rest', async () => {
    // Three long conversations (their text passes the 2,000 characters the index keeps), the word
    // only deep in the oldest; the list reads one conversation's full text per search at the most.
    const store = await mg.api.chat.controller.history();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const c = store.create();
      const question = `Long talk ${i}: ${'background that pushes the rest past the index. '.repeat(60)}${i === 0 ? 'the deepneedle word.' : 'nothing here.'}`;
      const at = Date.now();
      c.messages.push({ id: `${c.id}-u1`, role: 'user', text: question, attachments: [], createdAt: at, context: [], wire: userMessage(question) });
      c.title = titleFrom(`Long talk ${i}`);
      store.changed(c, { touch: true });
      ids.push(c.id);
      await new Promise((resolve) => setTimeout(resolve, 5)); // a distinct updatedAt each: the oldest is read last
    }
    await store.flush();
    const session = await mg.api.chat.conversationList({ fullTextBounds: { maxChars: 1 } });
    try {
      const items = () => session.quickPick.items as readonly ConversationItem[];
      session.search('deepneedle');
      await session.settled();
      const more = items().find((i) => i.more);
      assert.ok(
        more,
        `a "Search N more" item (items: ${items()
          .map((i) => i.label)
          .join(' | ')})`,
      );
      assert.match(more.label, /Search \d+ more conversations? in full/);
      assert.ok(!items().some((i) => i.id === ids[0]), 'the oldest long conversation was not read yet');
      await session.accept(more);
      await session.settled();
      // one read per search: the item is offered again until the oldest has been read
      for (let k = 0; k < 3 && !items().some((i) => i.id === ids[0]); k++) {
        const again = items().find((i) => i.more);
        if (!again) break;
        await session.accept(again);
        await session.settled();
      }
      assert.ok(
        items().some((i) => i.id === ids[0] && (i.detail ?? '').includes('deepneedle')),
        `found in the oldest, with the piece around the word (items: ${items()
          .map((i) => i.label)
          .join(' | ')})`,
      );
      assert.ok(!items().some((i) => i.more), 'nothing is left to search');
    } finally {
      session.dispose();
    }
  });

  it("the command is registered and sits in the chat view's title bar next to New chat", async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('modelgate.openConversation'));
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]> };
    };
    // the title bar's buttons are its `navigation` group; the other groups are in its "…" menu
    const viewTitle = pkg.contributes.menus['view/title']!.filter((m) => m.when === 'view == modelgate.chat' && m.group?.startsWith('navigation')).map(
      (m) => m.command,
    );
    assert.deepEqual(viewTitle.sort(), ['modelgate.newChat', 'modelgate.openConversation']);
  });
});
