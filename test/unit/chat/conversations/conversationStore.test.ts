import * as assert from 'node:assert/strict';
import { userMessage } from '../../../../src/core/prompt/promptLayout';
import { ConversationStore, MemoryBackend } from '../../../../src/chat/conversations/conversationStore';
import type { AssistantRecord, Conversation } from '../../../../src/chat/conversations/conversationTranscript';

const KEY = 'sk-test-secret-key-123';

function addTurn(c: Conversation, text: string, answer: string, status: AssistantRecord['status'] = 'done') {
  c.messages.push({ id: `u${c.messages.length}`, role: 'user', text, attachments: [], createdAt: 1, context: [], wire: userMessage(text) });
  c.messages.push({ id: `a${c.messages.length}`, role: 'assistant', parts: [{ kind: 'text', text: answer }], status, model: 'm', channel: 'default', createdAt: 2, wire: [] });
  c.title = text;
}

describe('chat: conversation store', () => {
  let clock = 1000;
  const now = () => ++clock;

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
    assert.deepEqual(s2.list().map((x) => x.title), ['second chat', 'first chat']);
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
    assert.equal(writes, 2, 'one conversation file and the index');
    const file = [...backend.files.entries()].find(([n]) => n.startsWith('conversation-'))![1];
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

  it('does not write empty conversations, and reuses an empty one for "new chat"', async () => {
    const backend = new MemoryBackend();
    const s = await ConversationStore.open(backend, { now });
    const a = s.active;
    assert.equal(s.create(), a);
    s.changed(a);
    await s.flush();
    assert.equal([...backend.files.keys()].filter((n) => n.startsWith('conversation-')).length, 0);
    assert.deepEqual(s.list().map((x) => x.id), [a.id]);
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
    assert.deepEqual(s.list().map((x) => x.id), [a.id]);
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
    assert.deepEqual(s2.list().map((x) => x.title), ['newer', 'older']);
    assert.equal(s2.active.id, a.id, 'the index still names the active one');
    assert.equal((await s2.get(b.id))?.messages.length, 2);
    await s2.flush();
    assert.ok(backend.files.get('index.json')!.includes(b.id), 'the index is repaired');

    backend.files.delete('index.json');
    const s3 = await ConversationStore.open(backend, { now });
    assert.deepEqual(s3.list().map((x) => x.title), ['newer', 'older']);
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
    assert.deepEqual(s2.list().map((x) => x.title), ['kept']);
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
