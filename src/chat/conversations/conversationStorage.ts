// The chat history's files: their names, the index's format, reading one conversation, reading
// the whole folder at start-up (putting back a replace a closing window did not finish), the
// full-text files beside the conversations, and an in-memory backend. conversationStore.ts keeps
// the conversations and decides when and what to write; this module knows how it lies on disk.
import * as z from 'zod';
import type { ConversationSummary } from '../protocol';
import { searchTextOf } from './conversationSearch';
import { freshBody, fullTextFile, fullTextFileOf, fullTextPieces, samePieces } from './conversationFullText';
import { isEmpty, isValidId, summaryOf, type Conversation } from './conversationTranscript';
import { parseConversation } from './conversationFormat';
import { errorText } from '../../core/errorText';

export interface StorageBackend {
  /** names of the files there are (empty when the folder does not exist yet) */
  list(): Promise<string[]>;
  /** the file's text, or undefined when it does not exist (other failures throw) */
  read(name: string): Promise<string | undefined>;
  /** replaces the file as a whole (atomically where the platform allows) */
  write(name: string, text: string): Promise<void>;
  delete(name: string): Promise<void>;
  /** calls back when files may have been changed by someone else (another window); optional */
  watch?(onChange: () => void): { dispose(): void };
}

export const INDEX = 'index.json';
export const fileOf = (id: string) => `conversation-${id}.json`;
/**
 * A deleted conversation also leaves a marker file of its own. The index's `deleted` list can
 * lose an entry when two windows read-merge-write the index at the same moment; a marker is
 * written by one window only and never rewritten, so a stale copy in another window can never
 * bring the conversation back.
 */
export const tombstoneOf = (id: string) => `conversation-${id}.deleted`;
const TOMBSTONE_PATTERN = /^conversation-([A-Za-z0-9_-]{1,64})\.deleted$/;
const FILE_PATTERN = /^conversation-([A-Za-z0-9_-]{1,64})\.json$/;

export const indexSchema = z.object({
  version: z.literal(1),
  activeId: z.string().optional(),
  conversations: z.array(
    z.object({
      id: z.string().refine(isValidId),
      title: z.string(),
      updatedAt: z.number(),
      totalCost: z.number().nonnegative().finite().optional(),
      cachedShare: z.number().min(0).max(1).optional(),
      /** bounded search text (conversationSearch.ts); missing in indexes written before it existed */
      text: z.string().optional(),
    }),
  ),
  /** ids of deleted conversations (newest last), so a window holding a stale copy drops it */
  deleted: z.array(z.string()).optional(),
});
export const DELETED_MAX = 1000;

/** An index entry: what the list shows, plus the bounded search text of the conversation. */
export type IndexEntry = ConversationSummary & { text?: string };
export const entryOf = (c: Conversation): IndexEntry => ({ ...summaryOf(c), text: searchTextOf(c) });
export const summaryOfEntry = (e: IndexEntry): ConversationSummary => ({
  id: e.id,
  title: e.title,
  updatedAt: e.updatedAt,
  ...(e.totalCost !== undefined ? { totalCost: e.totalCost } : {}),
  ...(e.cachedShare !== undefined ? { cachedShare: e.cachedShare } : {}),
});

/** What the folder holds at start-up, read and repaired (see readStoredState). */
export interface StoredState {
  summaries: IndexEntry[];
  activeId: string | undefined;
  deleted: string[];
  /** conversations read because the index did not list them */
  loaded: Conversation[];
  /** the active conversation, read (undefined when there is none or it could not be read) */
  active: Conversation | undefined;
}

/**
 * Reads the index and the active conversation. Conversation files the index does not list (its
 * last write was cut off, or it is gone) are listed again: a conversation is never lost because
 * of the index.
 */
export async function readStoredState(backend: StorageBackend, warn: (m: string) => void): Promise<StoredState> {
  let summaries: IndexEntry[] = [];
  let activeId: string | undefined;
  let rawIndex: string | undefined;
  let deleted: string[] = [];
  try {
    rawIndex = await backend.read(INDEX);
  } catch (err) {
    warn(`The chat history index could not be read (${errorText(err)}); it is rebuilt from the conversation files.`);
  }
  if (rawIndex !== undefined) {
    const parsed = safeJson(rawIndex, indexSchema);
    if (parsed) {
      summaries = parsed.conversations;
      activeId = parsed.activeId;
      deleted = parsed.deleted ?? [];
    } else warn('The chat history index was damaged; it is rebuilt from the conversation files.');
  }
  const loaded: Conversation[] = [];
  let names = await backend.list().catch(() => [] as string[]);
  if (await recoverInterruptedReplaces(backend, names, warn)) names = await backend.list().catch(() => names);
  if (rawIndex === undefined && names.includes(INDEX)) {
    const again = await backend.read(INDEX).catch(() => undefined);
    const parsed = again === undefined ? undefined : safeJson(again, indexSchema);
    if (parsed) {
      summaries = parsed.conversations;
      activeId = parsed.activeId;
      deleted = parsed.deleted ?? [];
    }
  }
  // Sets, not array scans: a store of n conversations is listed in O(n), not O(n²).
  const deletedSet = new Set(deleted);
  for (const name of names) {
    const id = TOMBSTONE_PATTERN.exec(name)?.[1];
    if (id && !deletedSet.has(id)) (deletedSet.add(id), deleted.push(id));
  }
  summaries = summaries.filter((x) => !deletedSet.has(x.id));
  const listed = new Set(summaries.map((s) => s.id));
  for (const name of names) {
    const id = FILE_PATTERN.exec(name)?.[1];
    if (!id || listed.has(id) || deletedSet.has(id)) continue;
    const c = await loadConversation(backend, id, () => undefined);
    if (!c || isEmpty(c)) continue;
    loaded.push(c);
    summaries.push(entryOf(c));
    listed.add(id);
  }
  if (loaded.length && !(activeId && summaries.some((s) => s.id === activeId))) {
    activeId = [...summaries].sort((x, y) => y.updatedAt - x.updatedAt)[0]?.id;
  }
  let active: Conversation | undefined;
  if (activeId && summaries.some((s) => s.id === activeId)) {
    active = loaded.find((c) => c.id === activeId) ?? (await loadConversation(backend, activeId, warn));
    if (!active) summaries = summaries.filter((s) => s.id !== activeId);
  }
  return { summaries, activeId, deleted, loaded, active };
}

/**
 * The full-text file beside each conversation (conversationFullText.ts): read on demand for the
 * list's full search, written on every save but only when the text changed since this window
 * wrote it.
 */
export class FullTextFiles {
  /** per conversation: what its file held when this window last wrote it (the pieces are the cached strings, not copies) */
  private readonly written = new Map<string, { updatedAt: number; pieces: string[] }>();

  constructor(
    private readonly backend: StorageBackend,
    private readonly warn: (message: string) => void,
  ) {}

  /** The file's text when it is as new as `updatedAt`; undefined when missing or older. */
  async readFresh(id: string, updatedAt: number): Promise<string | undefined> {
    return freshBody(await this.backend.read(fullTextFileOf(id)).catch(() => undefined), updatedAt);
  }

  /**
   * Writes the file when the text changed. Called on every save (each 100 ms while an answer
   * streams), so the check compares the cached pieces and joins nothing while they are the same.
   */
  async write(id: string, c: Conversation, pieces = fullTextPieces(c)): Promise<void> {
    const last = this.written.get(id);
    if (last && last.updatedAt === c.updatedAt && samePieces(last.pieces, pieces)) return;
    try {
      await this.backend.write(fullTextFileOf(id), fullTextFile(c, pieces.join('\n')));
      this.written.set(id, { updatedAt: c.updatedAt, pieces });
    } catch (err) {
      this.warn(`Could not save the search text of a conversation: ${errorText(err)}`);
    }
  }

  forget(id: string): void {
    this.written.delete(id);
  }
}

export async function loadConversation(backend: StorageBackend, id: string, warn: (m: string) => void): Promise<Conversation | undefined> {
  let text: string | undefined;
  try {
    text = await backend.read(fileOf(id));
  } catch (err) {
    warn(`A conversation of the chat history could not be read (${id}): ${errorText(err)}.`);
    return undefined;
  }
  if (text === undefined) {
    warn(`A conversation of the chat history is missing (${id}); it was removed from the list.`);
    return undefined;
  }
  const c = parseConversation(text);
  if (!c || c.id !== id) {
    warn(`A conversation of the chat history could not be read (${id}); it was removed from the list.`);
    return undefined;
  }
  return c;
}

/** JSON with sorted keys: equal for equal contents whatever order the keys were set in. */
export function canonical(v: unknown): string {
  return JSON.stringify(v ?? null, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

export function safeJson<T>(text: string, schema: z.ZodType<T>): T | undefined {
  try {
    const r = schema.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/** In-memory backend (tests, and a fallback when no storage folder is available). */
export class MemoryBackend implements StorageBackend {
  readonly files = new Map<string, string>();
  async list(): Promise<string[]> {
    return [...this.files.keys()];
  }
  async read(name: string): Promise<string | undefined> {
    return this.files.get(name);
  }
  async write(name: string, text: string): Promise<void> {
    this.files.set(name, text);
  }
  async delete(name: string): Promise<void> {
    this.files.delete(name);
  }
}

const TEMP_PATTERN = /^(.+\.json)\.[^.]+\.tmp$/;

/**
 * A file is replaced by writing `<name>.<uuid>.tmp` and renaming it over `<name>`, which
 * workspace.fs does as "delete, then rename". A window killed between the two leaves no
 * `<name>` at all, only the complete temporary file: put it back. A temporary file that is not
 * whole JSON was cut off before the rename and is left to the stale-file sweep.
 * Returns whether anything was recovered.
 */
async function recoverInterruptedReplaces(backend: StorageBackend, names: string[], warn: (m: string) => void): Promise<boolean> {
  let recovered = false;
  const newest = new Map<string, string>();
  for (const name of names) {
    const target = TEMP_PATTERN.exec(name)?.[1];
    if (!target || names.includes(target)) continue;
    const text = await backend.read(name).catch(() => undefined);
    if (text === undefined) continue;
    try {
      JSON.parse(text);
    } catch {
      continue;
    }
    newest.set(target, text); // several whole ones: any is a complete version; the last listed wins
  }
  for (const [target, text] of newest) {
    try {
      await backend.write(target, text);
      recovered = true;
      warn(`The chat history file ${target} was restored from a save that a closing window did not finish.`);
    } catch {
      // Still missing: the conversation is rebuilt or dropped as before.
    }
  }
  return recovered;
}
