import * as assert from 'node:assert/strict';
import { freshBody, fullTextBody, fullTextFile, fullTextFileOf, indexTextIsCut, searchFullText } from '../../../../src/chat/conversations/conversationFullText';
import { searchConversations, SEARCH_TEXT_MAX, type ListEntry } from '../../../../src/chat/conversations/conversationSearch';
import { ConversationStore } from '../../../../src/chat/conversations/conversationStore';
import { MemoryBackend } from '../../../../src/chat/conversations/conversationStorage';
import type { Conversation } from '../../../../src/chat/conversations/conversationTranscript';
import type { StoredCompaction } from '../../../../src/core/compaction/compactionRecord';
import { addTurn } from '../../helpers';

const FILLER = 'We talked about the cache and the API design at length. ';

/** A long day's conversation: `turns` turns, `needle` in the answer of turn `at` (1-based), the first `compacted` turns compacted. */
function longDay(c: Conversation, turns: number, needle: string, at: number, compacted = 0): void {
  for (let i = 1; i <= turns; i++)
    addTurn(c, `Question ${i}: ${FILLER.repeat(4)}`, `Answer ${i}: ${FILLER.repeat(6)}${i === at ? ` the ${needle} is here.` : ''}`);
  if (compacted) {
    const cut = c.messages[2 * compacted]!.id;
    c.compaction = {
      summary: 'Summary of the earlier turns: the zebu plan.',
      cutId: cut,
      keptRounds: [],
      stubbedCalls: [],
      model: 'm',
      channel: 'economical',
      createdAt: 1,
    } satisfies StoredCompaction;
  }
}

describe('chat: the full text of a conversation and its search', () => {
  let clock = 1000;
  const now = () => ++clock;

  it('finds a word deep in a long conversation (a compacted turn, past the index’s first 2,000 characters) that the index cannot find', async () => {
    const backend = new MemoryBackend();
    const s1 = await ConversationStore.open(backend, { now, debounceMs: 5 });
    longDay(s1.active, 40, 'okapineedle', 3, 20);
    s1.changed(s1.active, { touch: true });
    const deep = s1.active.id;
    const other = s1.create();
    longDay(other, 40, 'nothing', 0);
    s1.changed(other, { touch: true });
    await s1.close();
    assert.ok(backend.files.has(fullTextFileOf(deep)), 'the store wrote the full text beside the JSON');

    let reads = 0;
    const read = backend.read.bind(backend);
    backend.read = async (name) => {
      if (name.endsWith('.txt')) reads++;
      return read(name);
    };
    const s2 = await ConversationStore.open(backend, { now });
    assert.equal(reads, 0, 'opening the store reads no full text');
    const entries = s2.searchEntries();
    assert.deepEqual(searchConversations(entries, 'okapineedle'), [], 'the index holds only the first 2,000 characters');
    assert.ok(entries.every(indexTextIsCut));
    const result = await searchFullText(entries, 'OKAPINEEDLE here', (e) => s2.fullText(e));
    assert.deepEqual(
      result.matches.map((m) => m.entry.id),
      [deep],
    );
    assert.match(result.matches[0]!.snippet ?? '', /the okapineedle is here/);
    assert.deepEqual(result.rest, [], 'nothing left unread');
    assert.ok(reads >= 1, 'the full text came from the text file');
    const summary = await searchFullText(entries, 'zebu', (e) => s2.fullText(e));
    assert.deepEqual(
      summary.matches.map((m) => m.entry.id),
      [deep],
      'the compaction summary is searched too',
    );
    await s2.close();
  });

  it('writes the text file only when the searchable text changed (not per streamed delta), and removes it with the conversation', async () => {
    const backend = new MemoryBackend();
    const writes: string[] = [];
    const write = backend.write.bind(backend);
    backend.write = async (name, text) => {
      writes.push(name);
      return write(name, text);
    };
    const store = await ConversationStore.open(backend, { now, debounceMs: 1 });
    addTurn(store.active, 'first', 'answer', 'streaming');
    store.changed(store.active, { touch: true });
    await store.flush();
    const id = store.active.id;
    const txt = () => writes.filter((n) => n === fullTextFileOf(id)).length;
    const first = txt();
    const answer = store.active.messages[1]!;
    for (let i = 0; i < 5; i++) {
      if (answer.role === 'assistant' && answer.parts[0]?.kind === 'text') answer.parts[0] = { kind: 'text', text: `answer ${'more '.repeat(i)}` };
      store.changed(store.active);
      await store.flush();
    }
    assert.equal(txt(), first, 'a streaming answer is not in the text: no rewrite per delta');
    if (answer.role === 'assistant') answer.status = 'done';
    store.changed(store.active);
    await store.flush();
    assert.equal(txt(), first + 1, 'the finished answer is');
    assert.match(backend.files.get(fullTextFileOf(id)) ?? '', /answer more more more more/);
    const keep = store.create();
    addTurn(keep, 'kept', 'x');
    store.changed(keep, { touch: true });
    await store.delete(id);
    assert.ok(!backend.files.has(fullTextFileOf(id)), 'deleted with the conversation');
    await store.close();
  });

  it('rebuilds a missing or older text file from the conversation (a store written by an earlier version) and writes it back', async () => {
    const backend = new MemoryBackend();
    const s1 = await ConversationStore.open(backend, { now, debounceMs: 5 });
    longDay(s1.active, 30, 'capybaraneedle', 25);
    s1.changed(s1.active, { touch: true });
    const id = s1.active.id;
    s1.create();
    await s1.close();
    backend.files.delete(fullTextFileOf(id));
    const s2 = await ConversationStore.open(backend, { now, debounceMs: 5 });
    const entry = s2.searchEntries().find((e) => e.id === id)!;
    const hits = await searchFullText([entry], 'capybaraneedle', (e) => s2.fullText(e));
    assert.equal(hits.matches.length, 1);
    await s2.flush();
    assert.ok(backend.files.has(fullTextFileOf(id)), 'written back');
    // older than the entry: not trusted
    backend.files.set(fullTextFileOf(id), fullTextFile({ ...s2.active, title: 'stale', messages: [], updatedAt: entry.updatedAt - 1 }));
    assert.equal(freshBody(backend.files.get(fullTextFileOf(id)), entry.updatedAt), undefined);
    assert.equal((await searchFullText([entry], 'capybaraneedle', (e) => s2.fullText(e))).matches.length, 1);
    assert.equal(freshBody('not ours', 0), undefined);
    await s2.close();
  });

  it('reads newest first within a bound on the characters, and says which conversations it left', async () => {
    const entries: ListEntry[] = Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, title: `t${i}`, updatedAt: 100 - i }));
    const texts = new Map(entries.map((e, i) => [e.id, `${'x'.repeat(1000)} ${i % 3 === 0 ? 'needle' : ''}`]));
    const order: string[] = [];
    const read = async (e: ListEntry) => (order.push(e.id), texts.get(e.id));
    const cut = await searchFullText(entries, 'needle', read, { maxChars: 3500, concurrency: 1 });
    assert.deepEqual(order, ['c0', 'c1', 'c2', 'c3'], 'newest first, and the one that passes the bound is still read whole');
    assert.deepEqual(
      cut.matches.map((m) => m.entry.id),
      ['c0', 'c3'],
    );
    assert.deepEqual(
      cut.rest.map((e) => e.id),
      ['c4', 'c5', 'c6', 'c7', 'c8', 'c9'],
    );
    const onward = await searchFullText(cut.rest, 'needle', read, { concurrency: 3 });
    assert.deepEqual(
      onward.matches.map((m) => m.entry.id),
      ['c6', 'c9'],
      'in the order given, whatever order the reads end in',
    );
    let tick = 0;
    const timed = await searchFullText(entries, 'needle', async (e) => ((tick += 400), texts.get(e.id)), { maxMs: 1000, now: () => tick, concurrency: 1 });
    assert.equal(timed.searched, 3, 'no read starts once the time bound went by');
    assert.equal(timed.rest.length, 7);
    let stop = false;
    const stopped = await searchFullText(entries, 'needle', async (e) => ((stop = e.id === 'c1'), texts.get(e.id)), { cancelled: () => stop, concurrency: 1 });
    assert.deepEqual(
      stopped.matches.map((m) => m.entry.id),
      ['c0'],
      'a newer search stops it',
    );
    assert.deepEqual((await searchFullText(entries, '  ', read)).matches, []);
  });

  it('the full text keeps every message in order and leaves out an answer still streaming', () => {
    const c: Conversation = { id: 'c', title: 'Title', createdAt: 0, updatedAt: 0, messages: [], pinned: [], pending: [], draft: '' };
    addTurn(c, 'first **question**', 'an answer');
    addTurn(c, 'second', 'still streaming about giraffes', 'streaming');
    assert.equal(fullTextBody(c), 'first question\nfirst question\nan answer\nsecond', 'the title (here the first message), then every message');
    const short: ListEntry = { id: 'a', title: 'x', updatedAt: 1, text: 'short' };
    assert.equal(indexTextIsCut(short), false, 'a conversation the index holds whole is not read again');
    assert.equal(indexTextIsCut({ ...short, text: 'y'.repeat(SEARCH_TEXT_MAX) }), true);
  });
});
