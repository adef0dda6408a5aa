// The conversation list's search over a long history: 200 stored conversations of 500 messages
// each (a long day's conversation, about 0.4 MB of text each, 75 MB in all), on disk in a temporary
// folder through a Node file backend. Measured: opening the store (nothing but the index is read),
// the index's matches (at once), the first and last match of the full-text search (the word deep
// in a few conversations), a longer query after it (only the previous matches are read again),
// the same search on a store an earlier version wrote (no text files: each is rebuilt from the
// JSON), and the heap: after opening and its peak while searching.
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fullTextFile, fullTextFileOf, fullTextPieces, indexTextIsCut, samePieces, searchFullText } from '../../src/chat/conversations/conversationFullText';
import { searchConversations, searchTextOf, titleFrom, type ListEntry } from '../../src/chat/conversations/conversationSearch';
import { ConversationStore } from '../../src/chat/conversations/conversationStore';
import type { StorageBackend } from '../../src/chat/conversations/conversationStorage';
import type { Conversation } from '../../src/chat/conversations/conversationTranscript';
import { serializeConversation } from '../../src/chat/conversations/conversationFormat';
import { figure } from './report';

const CONVERSATIONS = 200;
const MESSAGES = 500;
/** the conversations (by age: 0 is the newest) with the needle deep inside, in turn 40 of 250 */
const NEEDLES = new Set([12, 90, 170]);

class NodeBackend implements StorageBackend {
  constructor(readonly folder: string) {}
  async list(): Promise<string[]> {
    return readdir(this.folder).catch(() => []);
  }
  async read(name: string): Promise<string | undefined> {
    try {
      return await readFile(join(this.folder, name), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }
  async write(name: string, text: string): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    const tmp = join(this.folder, `${name}.${Math.random().toString(36).slice(2)}.tmp`);
    await writeFile(tmp, text);
    await rename(tmp, join(this.folder, name));
  }
  async delete(name: string): Promise<void> {
    await rm(join(this.folder, name), { force: true });
  }
}

function longDay(i: number, now: number): Conversation {
  const messages: Conversation['messages'] = [];
  for (let t = 0; t < MESSAGES / 2; t++) {
    const q = `Turn ${t} of task ${i}: can you look at \`src/module${t % 17}.ts\` and tell me why the **cache** misses? ${'Some context about the task. '.repeat(8)}`;
    const needle = NEEDLES.has(i) && t === 40 ? ' The okapi-protocol is the cause. ' : ' ';
    const a = `## Why it misses\n\nThe prefix changes because ${'the volatile context is placed before the stable part of the prompt, '.repeat(12)}${needle}\n\n\`\`\`ts\nconst key = prefix(${t});\n\`\`\``;
    messages.push({ id: `u${i}-${t}`, role: 'user', text: q, attachments: [], createdAt: t, context: [], wire: { role: 'user', content: q } });
    messages.push({
      id: `a${i}-${t}`,
      role: 'assistant',
      parts: [{ kind: 'text', text: a }],
      status: 'done',
      model: 'm',
      channel: 'direct',
      createdAt: t,
      wire: [{ role: 'assistant', content: a }],
    });
  }
  const first = messages[0] as { text: string };
  return { id: `d${i}`, title: titleFrom(first.text), createdAt: now - i * 60_000, updatedAt: now - i * 60_000, pinned: [], pending: [], draft: '', messages };
}

const mb = (bytes: number) => bytes / 1024 / 1024;
setFlagsFromString('--expose-gc');
/** a full collection before a heap figure, so it counts what is held, not what waits to be collected */
const gc = runInNewContext('gc') as () => void;

export async function benchConversationSearch(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'modelgate-bench-search-'));
  try {
    const now = Date.now();
    const backend = new NodeBackend(folder);
    let textChars = 0;
    const index: ListEntry[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      const c = longDay(i, now);
      await backend.write(`conversation-${c.id}.json`, serializeConversation(c));
      const txt = fullTextFile(c);
      textChars += txt.length;
      await backend.write(fullTextFileOf(c.id), txt);
      index.push({ id: c.id, title: c.title, updatedAt: c.updatedAt, text: searchTextOf(c) });
    }
    await backend.write('index.json', JSON.stringify({ version: 1, activeId: 'd0', conversations: index }));

    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const t = performance.now();
    const store = await ConversationStore.open(backend);
    const openMs = performance.now() - t;
    gc();
    const heapOpen = process.memoryUsage().heapUsed;
    figure({
      name: 'conversationSearch.storeOpen.200x500',
      value: openMs,
      unit: 'ms',
      note: `index and the active conversation only; ${(textChars / 1e6).toFixed(0)} M characters of text on disk`,
    });
    figure({
      name: 'conversationSearch.heapAfterOpen.200x500',
      value: mb(heapOpen - heapBefore),
      unit: 'MB',
      note: 'the index plus the one active conversation',
    });

    // what each save of the active conversation adds while an answer streams: its text's pieces
    // from the per-message cache, compared with those last written (the file is written only when they differ)
    const saves: number[] = [];
    let lastPieces = fullTextPieces(store.active);
    for (let r = 0; r < 21; r++) {
      const start = performance.now();
      const pieces = fullTextPieces(store.active);
      if (!samePieces(lastPieces, pieces)) lastPieces = pieces;
      saves.push(performance.now() - start);
    }
    figure({
      name: 'conversationSearch.perSaveCost.500messages',
      value: saves.sort((x, y) => x - y)[10]!,
      unit: 'ms',
      note: `median of 21, the text unchanged (the first pieces, filling the plain-text cache, are not counted)`,
    });

    const query = 'okapi-protocol';
    const run = async (s: ConversationStore, q: string, candidates?: ListEntry[]) => {
      const entries = s.searchEntries();
      const start = performance.now();
      const indexHits = searchConversations(entries, q);
      const indexMs = performance.now() - start;
      const listed = new Set(indexHits.map((h) => h.entry.id));
      const todo = (candidates ?? entries.filter((e) => !listed.has(e.id) && indexTextIsCut(e))).slice().sort((a, b) => b.updatedAt - a.updatedAt);
      let firstMs: number | undefined;
      let peak = process.memoryUsage().heapUsed;
      const result = await searchFullText(
        todo,
        q,
        async (e) => {
          const text = await s.fullText(e);
          peak = Math.max(peak, process.memoryUsage().heapUsed);
          return text;
        },
        { onMatch: () => (firstMs ??= performance.now() - start) },
      );
      return { indexMs, firstMs, allMs: performance.now() - start, result, peak };
    };
    const cold = await run(store, query);
    figure({
      name: 'conversationSearch.indexResults.200x500',
      value: cold.indexMs,
      unit: 'ms',
      note: 'the index’s matches, shown at once (first 2,000 characters of each)',
    });
    figure({
      name: 'conversationSearch.firstFullTextMatch.200x500',
      value: cold.firstMs ?? -1,
      unit: 'ms',
      note: `the word deep in the 13th newest conversation; ${cold.result.matches.length} of ${NEEDLES.size} found`,
    });
    figure({
      name: 'conversationSearch.fullSearch.200x500',
      value: cold.allMs,
      unit: 'ms',
      note: `all ${cold.result.searched} conversations read, ${(cold.result.chars / 1e6).toFixed(0)} M characters${cold.result.rest.length ? `, cut: ${cold.result.rest.length} left` : ''}`,
    });
    figure({
      name: 'conversationSearch.heapPeakSearching.200x500',
      value: mb(cold.peak - heapBefore),
      unit: 'MB',
      note: 'over the heap before the store opened; files are read 2 at a time and dropped',
    });

    const matched = cold.result.matches.map((m) => m.entry);
    const longer = await run(store, `${query} cause`, matched);
    figure({ name: 'conversationSearch.longerQuery.200x500', value: longer.allMs, unit: 'ms', note: 'typing on: only the previous matches are read again' });
    await store.close();

    // the first search on a store written by an earlier version: no text files yet
    for (let i = 0; i < CONVERSATIONS; i++) await backend.delete(fullTextFileOf(`d${i}`));
    const upgraded = await ConversationStore.open(backend);
    const rebuilt = await run(upgraded, query);
    await upgraded.close();
    const written = (await backend.list()).filter((n) => n.endsWith('.txt')).length;
    figure({
      name: 'conversationSearch.fullSearchFromJson.200x500',
      value: rebuilt.allMs,
      unit: 'ms',
      peerName: 'with text files',
      peer: cold.allMs,
      note: `first search after an upgrade: each text rebuilt from the JSON and written back; ${rebuilt.result.searched} read${rebuilt.result.rest.length ? `, then the 5 s bound: ${rebuilt.result.rest.length} left to "Search more"` : ''} (${written} text files on disk after it)`,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
