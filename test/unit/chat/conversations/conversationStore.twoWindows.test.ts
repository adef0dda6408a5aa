// Two windows share one chat history folder: two stores on one backend. Each test fails on the
// store that wrote its copy over the file (the state before the merge).
import * as assert from 'node:assert/strict';
import { userMessage } from '../../../../src/core/prompt/promptLayout';
import { ConversationStore, MemoryBackend } from '../../../../src/chat/conversations/conversationStore';
import type { Conversation } from '../../../../src/chat/conversations/conversationTranscript';

let seq = 0;
function addTurn(c: Conversation, text: string, answer: string) {
  const n = ++seq;
  c.messages.push({ id: `u-${n}`, role: 'user', text, attachments: [], createdAt: n, context: [], wire: userMessage(text) });
  c.messages.push({ id: `a-${n}`, role: 'assistant', parts: [{ kind: 'text', text: answer }], status: 'done', model: 'm', channel: 'direct', createdAt: n, wire: [] });
}
const texts = (c: Conversation) => c.messages.map((m) => (m.role === 'user' ? m.text : m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')));

describe('chat: conversation store, two windows on one folder', () => {
  let clock = 1000;
  const now = () => ++clock;

  async function twoWindows() {
    const backend = new MemoryBackend();
    const first = await ConversationStore.open(backend, { now });
    addTurn(first.active, 'shared question', 'shared answer');
    first.changed(first.active, { touch: true });
    await first.close();
    const a = await ConversationStore.open(backend, { now });
    const b = await ConversationStore.open(backend, { now });
    assert.equal(a.active.id, b.active.id);
    return { backend, a, b, id: a.active.id };
  }

  it('a stale window saving its copy (a draft keystroke) keeps the other window\'s new answer', async () => {
    const { backend, a, b } = await twoWindows();
    addTurn(a.active, 'from A', 'answer A');
    a.changed(a.active, { touch: true });
    await a.flush();
    b.active.draft = 'typing in B';
    b.changed(b.active);
    await b.flush();
    const again = await ConversationStore.open(backend, { now });
    assert.deepEqual(texts(again.active), ['shared question', 'shared answer', 'from A', 'answer A']);
    assert.equal(again.active.draft, 'typing in B');
  });

  it('both windows answering in the same conversation: every message survives, each answer after its question', async () => {
    const { backend, a, b } = await twoWindows();
    addTurn(a.active, 'from A', 'answer A');
    a.changed(a.active, { touch: true });
    addTurn(b.active, 'from B', 'answer B');
    b.changed(b.active, { touch: true });
    await Promise.all([a.flush(), b.flush()]); // reads and writes interleave: the last write wins...
    await a.refresh(); // ...until the watcher tells the other window, which merges its messages back
    await b.refresh();
    const again = await ConversationStore.open(backend, { now });
    const t = texts(again.active);
    assert.equal(t.length, 6);
    assert.equal(t[t.indexOf('from A') + 1], 'answer A');
    assert.equal(t[t.indexOf('from B') + 1], 'answer B');
    // and B's live copy took A's messages in
    assert.equal(texts(b.active).length, 6);
  });

  it('a conversation deleted in one window stays deleted when the other saves its copy', async () => {
    const { backend, a, b, id } = await twoWindows();
    const other = a.create();
    addTurn(other, 'other chat', 'other answer');
    a.changed(other, { touch: true });
    await a.flush();
    await a.delete(id);
    b.active.draft = 'stale keystroke';
    b.changed(b.active);
    await b.flush();
    assert.ok(![...backend.files.keys()].includes(`conversation-${id}.json`));
    assert.ok(!b.list().some((s) => s.id === id), 'the deleting window\'s tombstone reached the other one');
    const again = await ConversationStore.open(backend, { now });
    assert.ok(!again.list().some((s) => s.id === id));
    assert.ok(again.list().some((s) => s.id === other.id), 'the other window\'s new conversation is listed');
  });

  it('an edit that removed messages in one window is not undone by the other window\'s stale copy', async () => {
    const { backend, a, b } = await twoWindows();
    addTurn(a.active, 'second', 'second answer');
    a.changed(a.active, { touch: true });
    await a.flush();
    await b.refresh();
    assert.equal(b.active.messages.length, 4);
    a.active.messages.splice(2); // regenerate/edit from the second question
    addTurn(a.active, 'second, edited', 'new answer');
    a.changed(a.active, { touch: true });
    await a.flush();
    b.active.draft = 'x';
    b.changed(b.active);
    await b.flush();
    const again = await ConversationStore.open(backend, { now });
    assert.deepEqual(texts(again.active), ['shared question', 'shared answer', 'second, edited', 'new answer']);
  });

  it('a window picks up what the other wrote (refresh) and says so', async () => {
    const { a, b } = await twoWindows();
    let told = 0;
    b.onExternalChange = () => told++;
    addTurn(a.active, 'from A', 'answer A');
    a.changed(a.active, { touch: true });
    const created = a.create();
    addTurn(created, 'new in A', 'x');
    a.changed(created, { touch: true });
    await a.flush();
    await b.refresh();
    assert.equal(told, 1);
    assert.deepEqual(texts(b.active).slice(2), ['from A', 'answer A']);
    assert.ok(b.list().some((s) => s.id === created.id));
    await b.refresh(); // nothing new: no second notice, no write
    assert.equal(told, 1);
  });

  it('repairs a lost update (the other window overwrote the file between read and write)', async () => {
    const { backend, a, id } = await twoWindows();
    const name = `conversation-${id}.json`;
    const stale = backend.files.get(name)!;
    addTurn(a.active, 'from A', 'answer A');
    a.changed(a.active, { touch: true });
    await a.flush();
    backend.files.set(name, stale); // a racing writer's stale copy landed last
    await a.refresh();
    const again = await ConversationStore.open(backend, { now });
    assert.deepEqual(texts(again.active).slice(2), ['from A', 'answer A']);
  });

  it('a save queued behind a re-read does not count the messages that re-read brings in as removed', async () => {
    const { backend, a, b } = await twoWindows();
    addTurn(b.active, 'from B', 'answer B');
    b.changed(b.active, { touch: true });
    await b.flush();
    const reread = a.refresh(); // queued: merges B's messages into A
    a.active.draft = 'typed meanwhile';
    a.changed(a.active);
    await Promise.all([reread, a.flush()]); // this save's snapshot predates the re-read
    const again = await ConversationStore.open(backend, { now });
    assert.deepEqual(texts(again.active).slice(2), ['from B', 'answer B']);
  });

  it('adds up what both windows spent', async () => {
    const { backend, a, b } = await twoWindows();
    a.active.totalCost = 0.5;
    a.changed(a.active);
    await a.flush();
    b.active.totalCost = 0.25;
    b.changed(b.active);
    await b.flush();
    const again = await ConversationStore.open(backend, { now });
    assert.equal(again.active.totalCost, 0.75);
  });
});
