// ConversationStore (src/chat/conversations/conversationStore.ts): saving, loading and the key never
// written; the write cadence while an answer streams; two windows on one history folder.
import * as assert from 'node:assert/strict';
import { userMessage } from '../../../../src/core/prompt/promptLayout';
import { ConversationStore } from '../../../../src/chat/conversations/conversationStore';
import { MemoryBackend } from '../../../../src/chat/conversations/conversationStorage';
import { DEFAULT_SAVE_DEBOUNCE_MS } from '../../../../src/chat/conversations/conversationSync';
import type { AssistantRecord, Conversation } from '../../../../src/chat/conversations/conversationTranscript';
import { addTurn } from '../../helpers';

const KEY = 'sk-test-secret-key-123';

describe('chat: conversation store', () => {
  let clock = 1000;
  const now = () => ++clock;

  /**
   * A store whose streaming answer is on disk (nothing left for a close to write), the conversation
   * texts it writes from then on, the close's abort of that answer, and the check that what was
   * written is the answer as it was at the close, so that the next window shows it interrupted.
   */
  async function streamingAnswerOnDisk() {
    const backend = new MemoryBackend();
    const store = await ConversationStore.open(backend, { now });
    addTurn(store.active, 'q', 'before', 'streaming');
    store.changed(store.active);
    await store.flush();
    const written: string[] = [];
    const write = backend.write.bind(backend);
    backend.write = async (name, text) => {
      if (name.startsWith('conversation-')) written.push(text);
      return write(name, text);
    };
    return {
      backend,
      store,
      abortAnswer: () => ((store.active.messages[1] as AssistantRecord).status = 'stopped'),
      async assertWrittenAsAtTheClose(): Promise<void> {
        assert.ok(
          written.every((t) => !t.includes('"status":"stopped"')),
          'the answer is written as it was at the close (streaming), so the next window shows it interrupted',
        );
        const again = await ConversationStore.open(backend, { now });
        assert.equal((again.active.messages[1] as AssistantRecord).status, 'interrupted');
      },
    };
  }

  it('persists conversations and the active one, and reopens them', async () => {
    const backend = new MemoryBackend();
    const s1 = await ConversationStore.open(backend, { now, debounceMs: 5 });
    const first = s1.active;
    addTurn(first, 'first chat', 'answer 1');
    s1.changed(first, { touch: true });
    const second = s1.create();
    assert.notEqual(second.id, first.id);
    addTurn(second, 'second chat', 'answer 2');
    s1.changed(second, { touch: true });
    await s1.flush();

    const s2 = await ConversationStore.open(backend, { now });
    assert.equal(s2.active.id, second.id);
    assert.deepEqual(
      s2.list().map((x) => x.title),
      ['second chat', 'first chat'],
    );
    const back = await s2.get(first.id);
    assert.equal(back?.messages.length, 2);
    assert.equal((back?.messages[1] as AssistantRecord).parts[0]!.kind, 'text');
  });

  it('debounces writes while streaming and writes at flush', async () => {
    const backend = new MemoryBackend();
    let writes = 0;
    const write = backend.write.bind(backend);
    backend.write = async (n, t) => {
      writes++;
      return write(n, t);
    };
    const s = await ConversationStore.open(backend, { now, debounceMs: 10_000 });
    addTurn(s.active, 'q', '');
    for (let i = 0; i < 200; i++) {
      ((s.active.messages[1] as AssistantRecord).parts[0] as { text: string }).text += 'x';
      s.changed(s.active);
    }
    assert.equal(writes, 0, 'no write per delta');
    await s.flush();
    assert.equal(writes, 3, 'one conversation file, its search text and the index');
    const file = [...backend.files.entries()].find(([n]) => n.startsWith('conversation-') && n.endsWith('.json'))![1];
    assert.ok(file.includes('x'.repeat(200)));
  });

  it('marks an answer that was streaming when the window went away as interrupted', async () => {
    const backend = new MemoryBackend();
    const s1 = await ConversationStore.open(backend, { now });
    addTurn(s1.active, 'q', 'half an ans', 'streaming');
    s1.changed(s1.active);
    await s1.close();
    const s2 = await ConversationStore.open(backend, { now });
    const a = s2.active.messages[1] as AssistantRecord;
    assert.equal(a.status, 'interrupted');
    assert.deepEqual(a.parts, [{ kind: 'text', text: 'half an ans' }]);
  });

  it('a window killed between the delete and the rename of a replace: the whole temporary file is put back', async () => {
    const backend = new MemoryBackend();
    const s1 = await ConversationStore.open(backend, { now });
    addTurn(s1.active, 'q', 'half an ans', 'streaming');
    s1.changed(s1.active, { touch: true });
    await s1.close();
    const name = [...backend.files.keys()].find((n) => n.startsWith('conversation-'))!;
    // What the kill leaves: the target deleted, the new version whole under its temporary name,
    // and an older temporary file of another write that was cut off mid-way.
    backend.files.set(`${name}.1234.tmp`, backend.files.get(name)!);
    backend.files.set(`${name}.5678.tmp`, '{"version":1,"id":');
    backend.files.delete(name);
    const s2 = await ConversationStore.open(backend, { now });
    assert.equal(s2.active.messages.length, 2, 'the conversation is back, not a new chat');
    assert.equal((s2.active.messages[1] as AssistantRecord).status, 'interrupted');
    assert.ok(backend.files.has(name));
    await s2.close();
  });

  it('a deletion survives another window overwriting the index without its tombstone', async () => {
    const backend = new MemoryBackend();
    const seed = await ConversationStore.open(backend, { now });
    addTurn(seed.active, 'doomed', 'x');
    seed.changed(seed.active, { touch: true });
    await seed.close();
    const a = await ConversationStore.open(backend, { now });
    const b = await ConversationStore.open(backend, { now });
    const staleIndex = backend.files.get('index.json')!;
    const id = a.active.id;
    const stale = b.active;
    await a.delete(id);
    await a.close();
    // The other window's read-merge-write of the index raced a's and won: no tombstone in it.
    backend.files.set('index.json', staleIndex);
    stale.draft = 'a keystroke in the stale window';
    b.changed(stale);
    await b.close();
    assert.ok(![...backend.files.keys()].includes(`conversation-${id}.json`), 'the stale copy was not written back');
    const again = await ConversationStore.open(backend, { now });
    assert.ok(!again.list().some((x) => x.id === id), 'not listed again');
    await again.close();
  });

  it('writes the state at the moment of the write, not a later one', async () => {
    const backend = new MemoryBackend();
    const s = await ConversationStore.open(backend, { now });
    addTurn(s.active, 'q', 'before', 'streaming');
    s.changed(s.active);
    const written = s.close();
    (s.active.messages[1] as AssistantRecord).status = 'stopped'; // after close: must not land
    s.changed(s.active);
    await written;
    const file = [...backend.files.entries()].find(([n]) => n.startsWith('conversation-'))![1];
    assert.ok(file.includes('"status":"streaming"'));
  });

  it('a read of the other windows queued before the close writes nothing of what changed after it', async () => {
    const saved = await streamingAnswerOnDisk();
    void saved.store.refresh(); // a change another window made, noticed just before the window goes
    const closed = saved.store.close();
    saved.abortAnswer();
    await closed;
    await saved.assertWrittenAsAtTheClose();
  });

  it('a read of the other windows already under way at the close writes nothing of what changed after it', async () => {
    const saved = await streamingAnswerOnDisk();
    const { backend } = saved;
    // the read's first file read waits until the close has aborted the answer
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const read = backend.read.bind(backend);
    let reads = 0;
    backend.read = async (name) => {
      if (reads++ === 0) await held;
      return read(name);
    };
    const refreshed = saved.store.refresh(); // a change another window made, noticed just before the window goes
    await new Promise((r) => setTimeout(r, 0)); // the read is under way
    assert.equal(reads, 1, 'the read has started');
    const closed = saved.store.close();
    saved.abortAnswer();
    release();
    await Promise.all([refreshed, closed]);
    await saved.assertWrittenAsAtTheClose();
  });

  it('does not write empty conversations, and reuses an empty one for "new chat"', async () => {
    const backend = new MemoryBackend();
    const s = await ConversationStore.open(backend, { now });
    const a = s.active;
    assert.equal(s.create(), a);
    s.changed(a);
    await s.flush();
    assert.equal([...backend.files.keys()].filter((n) => n.startsWith('conversation-')).length, 0);
    assert.deepEqual(
      s.list().map((x) => x.id),
      [a.id],
    );
  });

  it('deletes a conversation and its file, and activates the most recent other', async () => {
    const backend = new MemoryBackend();
    const s = await ConversationStore.open(backend, { now });
    const a = s.active;
    addTurn(a, 'a', 'x');
    s.changed(a, { touch: true });
    const b = s.create();
    addTurn(b, 'b', 'y');
    s.changed(b, { touch: true });
    await s.flush();
    await s.delete(b.id);
    assert.equal(s.active.id, a.id);
    assert.deepEqual(
      s.list().map((x) => x.id),
      [a.id],
    );
    assert.equal(backend.files.has(`conversation-${b.id}.json`), false);
    const again = await ConversationStore.open(backend, { now });
    assert.equal(again.active.id, a.id);
    assert.equal(await again.get(b.id), undefined);
  });

  it('survives a damaged index or conversation file', async () => {
    const backend = new MemoryBackend();
    const s = await ConversationStore.open(backend, { now });
    addTurn(s.active, 'q', 'a');
    s.changed(s.active);
    await s.flush();
    const id = s.active.id;
    backend.files.set(`conversation-${id}.json`, '{"version":1, broken');
    const warnings: string[] = [];
    const s2 = await ConversationStore.open(backend, { now, warn: (m) => warnings.push(m) });
    assert.notEqual(s2.active.id, id);
    assert.equal(s2.active.messages.length, 0);
    assert.equal(warnings.length, 1);
    backend.files.set('index.json', 'not json');
    const s3 = await ConversationStore.open(backend, { now, warn: (m) => warnings.push(m) });
    assert.equal(s3.active.messages.length, 0);
    assert.equal(warnings.length, 2);
  });

  it('lists conversation files the index does not know (a cut-off index write), or all of them when it is gone', async () => {
    const backend = new MemoryBackend();
    const s = await ConversationStore.open(backend, { now });
    const a = s.active;
    addTurn(a, 'older', 'x');
    s.changed(a, { touch: true });
    await s.flush();
    const oldIndex = backend.files.get('index.json')!;
    const b = s.create();
    addTurn(b, 'newer', 'y');
    s.changed(b, { touch: true });
    await s.flush();
    backend.files.set('index.json', oldIndex); // the last index write never landed
    const s2 = await ConversationStore.open(backend, { now });
    assert.deepEqual(
      s2.list().map((x) => x.title),
      ['newer', 'older'],
    );
    assert.equal(s2.active.id, a.id, 'the index still names the active one');
    assert.equal((await s2.get(b.id))?.messages.length, 2);
    await s2.flush();
    assert.ok(backend.files.get('index.json')!.includes(b.id), 'the index is repaired');

    backend.files.delete('index.json');
    const s3 = await ConversationStore.open(backend, { now });
    assert.deepEqual(
      s3.list().map((x) => x.title),
      ['newer', 'older'],
    );
    assert.equal(s3.active.id, b.id, 'the most recent one is active');
  });

  it('does not treat a failed read of the index as "no history"', async () => {
    const backend = new MemoryBackend();
    const s = await ConversationStore.open(backend, { now });
    addTurn(s.active, 'kept', 'x');
    s.changed(s.active, { touch: true });
    await s.flush();
    const read = backend.read.bind(backend);
    backend.read = async (name) => {
      if (name === 'index.json') throw new Error('EIO');
      return read(name);
    };
    const warnings: string[] = [];
    const s2 = await ConversationStore.open(backend, { now, warn: (m) => warnings.push(m) });
    assert.deepEqual(
      s2.list().map((x) => x.title),
      ['kept'],
    );
    assert.equal(s2.active.messages.length, 2);
    assert.match(warnings[0]!, /could not be read \(EIO\)/);
  });

  it('never writes anything the conversation does not hold (no key)', async () => {
    const backend = new MemoryBackend();
    const s = await ConversationStore.open(backend, { now });
    addTurn(s.active, 'q', 'a');
    s.changed(s.active);
    await s.flush();
    for (const text of backend.files.values()) assert.ok(!text.includes(KEY));
  });
});

// The store's write cadence while an answer streams: soon enough that a crash loses at most
// ~100 ms of it, and never piling writes up when the disk is slower than that.
describe('chat: conversation store write cadence', () => {
  function startAnswer(c: Conversation): { text: string } {
    c.messages.push({ id: 'u0', role: 'user', text: 'q', attachments: [], createdAt: 1, context: [], wire: userMessage('q') });
    c.messages.push({
      id: 'a1',
      role: 'assistant',
      parts: [{ kind: 'text', text: '' }],
      status: 'streaming',
      model: 'm',
      channel: 'default',
      createdAt: 2,
      wire: [],
    });
    return (c.messages[1] as AssistantRecord).parts[0] as { text: string };
  }

  const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('writes a streaming answer at most 100 ms after a change by default', () => {
    assert.ok(DEFAULT_SAVE_DEBOUNCE_MS <= 100, `${DEFAULT_SAVE_DEBOUNCE_MS} ms`);
  });

  it('keeps one timed write in flight: a slow disk gets the latest state, not a backlog', async () => {
    const backend = new MemoryBackend();
    let release!: () => void;
    let gate = new Promise<void>((r) => (release = r));
    const writes: string[] = [];
    const write = backend.write.bind(backend);
    backend.write = async (name, text) => {
      if (name.startsWith('conversation-')) {
        writes.push(text);
        await gate; // the disk is slow
      }
      return write(name, text);
    };
    const s = await ConversationStore.open(backend, { debounceMs: 1 });
    const part = startAnswer(s.active);
    for (let i = 0; i < 40; i++) {
      part.text += `w${i} `;
      s.changed(s.active);
      await tick(3); // the debounce fires many times while the first write hangs
    }
    assert.equal(writes.length, 1, 'one write started; the rest wait for it');
    gate = Promise.resolve();
    release();
    await tick(30);
    await s.flush();
    assert.ok(writes.length <= 3, `${writes.length} conversation writes for 40 changes behind a slow one`);
    assert.ok(writes.at(-1)!.includes('w39 '), 'the last write has the latest text');
  });
});

// Two windows share one chat history folder: two stores on one backend. Each test fails on the
// store that wrote its copy over the file (the state before the merge).
describe('chat: conversation store, two windows on one folder', () => {
  const texts = (c: Conversation) => c.messages.map((m) => (m.role === 'user' ? m.text : m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')));

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

  it("a stale window saving its copy (a draft keystroke) keeps the other window's new answer", async () => {
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
    assert.ok(!b.list().some((s) => s.id === id), "the deleting window's tombstone reached the other one");
    const again = await ConversationStore.open(backend, { now });
    assert.ok(!again.list().some((s) => s.id === id));
    assert.ok(
      again.list().some((s) => s.id === other.id),
      "the other window's new conversation is listed",
    );
  });

  it("an edit that removed messages in one window is not undone by the other window's stale copy", async () => {
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
