// The conversation list with 1,000 conversations: opening the store (its index now
// carries a bounded search text per conversation, ~2 MB), building the list, and a content search
// per keystroke. In-memory backend: what is measured is parsing and filtering, not the disk.
import { searchConversations, searchTextOf, titleFrom, relativeDate } from '../../src/chat/conversations/conversationSearch';
import { ConversationStore } from '../../src/chat/conversations/conversationStore';
import { MemoryBackend } from '../../src/chat/conversations/conversationStorage';
import type { Conversation } from '../../src/chat/conversations/conversationTranscript';
import { serializeConversation } from '../../src/chat/conversations/conversationFormat';
import { figure } from './report';

const COUNT = 1000;

function seeded(i: number, now: number): Conversation {
  const q = `How do I configure module-${i}? ${'context words '.repeat(20)}`;
  const a = `needle${i}x ${'Some explanation of the answer. '.repeat(60)}`;
  return {
    id: `s${i}`,
    title: titleFrom(q),
    createdAt: now - i * 1000,
    updatedAt: now - i * 1000,
    pinned: [],
    pending: [],
    draft: '',
    messages: [
      { id: `u${i}`, role: 'user', text: q, attachments: [], createdAt: 0, context: [], wire: { role: 'user', content: q } },
      { id: `a${i}`, role: 'assistant', parts: [{ kind: 'text', text: a }], status: 'done', model: 'm', channel: 'c', createdAt: 0, wire: [] },
    ],
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchConversationList(): Promise<void> {
  const now = Date.now();
  const all = Array.from({ length: COUNT }, (_, i) => seeded(i, now));
  const withText = new MemoryBackend();
  const without = new MemoryBackend();
  for (const c of all) {
    withText.files.set(`conversation-${c.id}.json`, serializeConversation(c));
    without.files.set(`conversation-${c.id}.json`, serializeConversation(c));
  }
  withText.files.set(
    'index.json',
    JSON.stringify({
      version: 1,
      activeId: 's0',
      conversations: all.map((c) => ({ id: c.id, title: c.title, updatedAt: c.updatedAt, text: searchTextOf(c) })),
    }),
  );
  without.files.set(
    'index.json',
    JSON.stringify({ version: 1, activeId: 's0', conversations: all.map((c) => ({ id: c.id, title: c.title, updatedAt: c.updatedAt })) }),
  );
  const open = async (b: MemoryBackend) => {
    const samples: number[] = [];
    for (let r = 0; r < 5; r++) {
      const t = performance.now();
      const s = await ConversationStore.open(b);
      samples.push(performance.now() - t);
      await s.close();
    }
    return median(samples);
  };
  const plain = await open(without);
  figure({
    name: 'conversationList.storeOpen.1000',
    value: await open(withText),
    unit: 'ms',
    peerName: 'index without search text',
    peer: plain,
    note: `index ${(withText.files.get('index.json')!.length / 1024).toFixed(0)} KB vs ${(without.files.get('index.json')!.length / 1024).toFixed(0)} KB, median of 5`,
  });
  const store = await ConversationStore.open(withText);
  let t = performance.now();
  const items = searchConversations(store.searchEntries(), '').map((m) => ({ label: m.entry.title, description: relativeDate(m.entry.updatedAt, now) }));
  figure({ name: 'conversationList.listItems.1000', value: performance.now() - t, unit: 'ms', note: `${items.length} items, newest first` });
  t = performance.now();
  searchConversations(store.searchEntries(), 'needle417x');
  figure({ name: 'conversationList.firstSearch.1000', value: performance.now() - t, unit: 'ms', note: 'includes lower-casing every search text once' });
  const keystrokes: number[] = [];
  for (let k = 0; k < 30; k++) {
    t = performance.now();
    searchConversations(store.searchEntries(), `needle${k * 31}x`);
    keystrokes.push(performance.now() - t);
  }
  figure({ name: 'conversationList.searchKeystroke.1000', value: median(keystrokes), unit: 'ms', note: 'content search, median of 30' });
  await store.close();
}
