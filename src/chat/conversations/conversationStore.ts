// Keeps the conversations and writes them to storage: one JSON file per conversation plus a
// small index (titles, order, the active one). Pure apart from the injected backend, so its
// logic is unit-tested in Node; the extension uses `FileBackend` (workspace.fs under the
// extension's global storage).
//
// Writes during streaming are debounced (a long answer would otherwise rewrite the file per
// token) and flushed when an answer finishes. Each write serializes the conversation at once,
// so what reaches the disk is the state at the moment of the write, never a later one.
// Nothing here ever holds the API key: conversations hold text, context and usage only.
//
// Several windows share the folder. A write never blindly replaces a newer copy: each write
// reads the file first and merges (conversationMerge.ts: messages by id, explicit removals kept
// as tombstones), the index is merged too and keeps the ids of deleted conversations so a stale
// window does not bring them back, and a change on disk made by another window (reported by
// the backend's watcher) is read and merged into this window's copy (`onExternalChange`).
import * as z from 'zod';
import { cloneConversation, mergeInto, removedSince } from './conversationMerge';
import type { ConversationSummary } from '../protocol';
import { searchTextOf, type ListEntry } from './conversationSearch';
import { freshBody, fullTextBody, fullTextFile, fullTextFileOf, fullTextPieces, samePieces } from './conversationFullText';
import {
  isEmpty,
  isValidId,
  markInterrupted,
  newConversation,
  parseConversation,
  serializeConversation,
  summaryOf,
  type Conversation,
} from './conversationTranscript';
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

const INDEX = 'index.json';
const fileOf = (id: string) => `conversation-${id}.json`;
/**
 * A deleted conversation also leaves a marker file of its own. The index's `deleted` list can
 * lose an entry when two windows read-merge-write the index at the same moment; a marker is
 * written by one window only and never rewritten, so a stale copy in another window can never
 * bring the conversation back.
 */
const tombstoneOf = (id: string) => `conversation-${id}.deleted`;
const TOMBSTONE_PATTERN = /^conversation-([A-Za-z0-9_-]{1,64})\.deleted$/;
const FILE_PATTERN = /^conversation-([A-Za-z0-9_-]{1,64})\.json$/;

const indexSchema = z.object({
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
const DELETED_MAX = 1000;

/** An index entry: what the list shows, plus the bounded search text of the conversation. */
type IndexEntry = ConversationSummary & { text?: string };
const entryOf = (c: Conversation): IndexEntry => ({ ...summaryOf(c), text: searchTextOf(c) });
const summaryOfEntry = (e: IndexEntry): ConversationSummary => ({
  id: e.id,
  title: e.title,
  updatedAt: e.updatedAt,
  ...(e.totalCost !== undefined ? { totalCost: e.totalCost } : {}),
  ...(e.cachedShare !== undefined ? { cachedShare: e.cachedShare } : {}),
});

/** While an answer streams, the conversation is written at most this long after a change: a crash loses at most ~this much of it. */
export const DEFAULT_SAVE_DEBOUNCE_MS = 100;

export interface StoreOptions {
  debounceMs?: number;
  now?: () => number;
  /** told about damaged files and failed writes; never about contents */
  warn?: (message: string) => void;
  /** another window changed what this one shows (the active conversation, the list) */
  onExternalChange?: () => void;
}

export class ConversationStore {
  private readonly loaded = new Map<string, Conversation>();
  private summaries: IndexEntry[];
  private activeId: string;
  private readonly dirty = new Set<string>();
  private indexDirty = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** writes run one after another, in order */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly debounceMs: number;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  /** per conversation: what this window last read from or wrote to disk (the merge base) */
  private readonly synced = new Map<string, Conversation>();
  /** conversations deleted here or elsewhere (tombstones, written into the index) */
  private deleted: string[] = [];
  private watcher: { dispose(): void } | undefined;
  /** the index text this window last read or wrote, parsed */
  private indexCache: { raw: string; parsed: z.infer<typeof indexSchema> } | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** per conversation: what its full-text file held when this window last wrote it (the pieces are the cached strings, not copies) */
  private readonly fullTextWritten = new Map<string, { updatedAt: number; pieces: string[] }>();
  onExternalChange: (() => void) | undefined;

  private constructor(
    private readonly backend: StorageBackend,
    summaries: IndexEntry[],
    active: Conversation,
    options: StoreOptions,
  ) {
    this.summaries = summaries;
    this.activeId = active.id;
    this.loaded.set(active.id, active);
    this.debounceMs = options.debounceMs ?? DEFAULT_SAVE_DEBOUNCE_MS;
    this.now = options.now ?? Date.now;
    this.warn = options.warn ?? (() => undefined);
    this.onExternalChange = options.onExternalChange;
    this.watcher = backend.watch?.(() => this.refreshSoon());
  }

  /** Reads the index and the active conversation (marking an answer cut off by a reload). */
  static async open(backend: StorageBackend, options: StoreOptions = {}): Promise<ConversationStore> {
    const warn = options.warn ?? (() => undefined);
    const now = options.now ?? Date.now;
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
    // Conversation files the index does not list (its last write was cut off, or it is gone)
    // are listed again: a conversation is never lost because of the index.
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
    const store = new ConversationStore(backend, summaries, active ?? newConversation(now()), options);
    store.deleted = deleted;
    for (const c of loaded) if (c !== active) store.loaded.set(c.id, c);
    for (const c of store.loaded.values()) if (active === c || loaded.includes(c)) store.synced.set(c.id, cloneConversation(c));
    if (loaded.length) store.indexDirty = true;
    for (const c of store.loaded.values()) if (markInterrupted(c)) store.changed(c);
    if (store.indexDirty) store.schedule();
    return store;
  }

  get active(): Conversation {
    return this.loaded.get(this.activeId) as Conversation;
  }

  /** Whether conversation `id` was deleted (here or in another window, as far as this window knows). */
  wasDeleted(id: string): boolean {
    return this.deleted.includes(id);
  }

  /** Conversations, most recently updated first; the active one is listed even when empty. */
  list(): ConversationSummary[] {
    const list = this.summaries.map(summaryOfEntry);
    const a = this.active;
    if (!list.some((s) => s.id === a.id)) list.push(summaryOf(a));
    return list.sort((x, y) => y.updatedAt - x.updatedAt);
  }

  /**
   * The stored conversations with their bounded search text, for the conversation list (no
   * file is read: the text is kept in the index). Entries are replaced, never mutated, when a
   * conversation changes, so a caller may cache per entry object.
   */
  searchEntries(): readonly ListEntry[] {
    return this.summaries;
  }

  /**
   * The whole searchable text of a listed conversation, for the list's full search: from memory
   * when it is loaded, else from its text file; rebuilt from its JSON (and the file written) when
   * that is missing or older than the entry. Undefined when the conversation is gone.
   */
  async fullText(entry: ListEntry): Promise<string | undefined> {
    const live = this.loaded.get(entry.id);
    if (live) return fullTextBody(live);
    if (!isValidId(entry.id)) return undefined;
    const body = freshBody(await this.backend.read(fullTextFileOf(entry.id)).catch(() => undefined), entry.updatedAt);
    if (body !== undefined) return body;
    const c = await loadConversation(this.backend, entry.id, () => undefined);
    if (!c) return undefined;
    const pieces = fullTextPieces(c);
    if (!this.closed) this.enqueue(() => this.writeFullText(c.id, c, pieces));
    return pieces.join('\n');
  }

  /**
   * Writes the full-text file of a conversation beside its JSON when its text changed since this
   * window wrote it. Called on every save (each 100 ms while an answer streams), so the check
   * compares the cached pieces and joins nothing while they are the same.
   */
  private async writeFullText(id: string, c: Conversation, pieces = fullTextPieces(c)): Promise<void> {
    const last = this.fullTextWritten.get(id);
    if (last && last.updatedAt === c.updatedAt && samePieces(last.pieces, pieces)) return;
    try {
      await this.backend.write(fullTextFileOf(id), fullTextFile(c, pieces.join('\n')));
      this.fullTextWritten.set(id, { updatedAt: c.updatedAt, pieces });
    } catch (err) {
      this.warn(`Could not save the search text of a conversation: ${errorText(err)}`);
    }
  }

  /**
   * Fills the search text of entries written before it existed (an index from an older
   * version), reading their files `concurrency` at a time. Returns how many were filled.
   */
  async fillSearchText(concurrency = 8): Promise<number> {
    const missing = this.summaries.filter((s) => s.text === undefined).map((s) => s.id);
    let filled = 0;
    const next = async (): Promise<void> => {
      for (let id = missing.shift(); id !== undefined; id = missing.shift()) {
        if (this.closed) return;
        const c = this.loaded.get(id) ?? (await loadConversation(this.backend, id, () => undefined));
        const i = this.summaries.findIndex((s) => s.id === id);
        const entry = this.summaries[i];
        if (!c || !entry || entry.text !== undefined) continue;
        this.summaries[i] = { ...entry, text: searchTextOf(c) };
        filled++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, next));
    if (filled) {
      this.indexDirty = true;
      this.schedule();
    }
    return filled;
  }

  /** Gives conversation `id` the user's title (kept from then on); false when it is unknown. */
  async rename(id: string, title: string): Promise<boolean> {
    const c = await this.get(id);
    if (!c) return false;
    c.title = title;
    c.renamed = true;
    this.changed(c);
    await this.flush();
    return true;
  }

  has(id: string): boolean {
    return this.loaded.has(id) || this.summaries.some((s) => s.id === id);
  }

  /** A loaded conversation, from memory or storage; undefined when unknown or unreadable. */
  async get(id: string): Promise<Conversation | undefined> {
    const inMemory = this.loaded.get(id);
    if (inMemory) return inMemory;
    if (!isValidId(id) || !this.summaries.some((s) => s.id === id)) return undefined;
    const c = await loadConversation(this.backend, id, this.warn);
    if (!c) {
      this.summaries = this.summaries.filter((s) => s.id !== id);
      this.indexDirty = true;
      this.schedule();
      return undefined;
    }
    // Another call may have loaded it meanwhile: keep one object per conversation.
    const raced = this.loaded.get(id);
    if (raced) return raced;
    this.loaded.set(id, c);
    this.synced.set(id, cloneConversation(c));
    if (markInterrupted(c)) this.changed(c);
    return c;
  }

  async activate(id: string): Promise<Conversation | undefined> {
    const c = await this.get(id);
    if (!c) return undefined;
    this.setActive(c);
    this.refreshSoon(); // another window may have changed it since it was loaded
    return c;
  }

  /** Starts a new empty conversation (reusing the active one when it is still empty). */
  create(): Conversation {
    if (isEmpty(this.active)) return this.active;
    const c = newConversation(this.now());
    this.loaded.set(c.id, c);
    this.setActive(c);
    return c;
  }

  private setActive(c: Conversation): void {
    const previous = this.active;
    this.activeId = c.id;
    this.indexDirty = true;
    // An empty conversation that is left is forgotten rather than listed as "New chat".
    if (previous && previous.id !== c.id && isEmpty(previous)) this.loaded.delete(previous.id);
    this.schedule();
  }

  /** Marks a conversation changed (updating its time and title in the index); written soon. */
  changed(c: Conversation, options: { touch?: boolean } = {}): void {
    if (this.closed) return;
    if (options.touch) c.updatedAt = this.now();
    const i = this.summaries.findIndex((x) => x.id === c.id);
    if (i < 0 && isEmpty(c)) return; // nothing worth a file yet
    const s = entryOf(c);
    const old = this.summaries[i];
    if (i < 0) this.summaries.push(s);
    else if (
      !old ||
      old.title !== s.title ||
      old.updatedAt !== s.updatedAt ||
      old.text !== s.text ||
      old.totalCost !== s.totalCost ||
      old.cachedShare !== s.cachedShare
    )
      this.summaries[i] = s;
    // A streamed delta changes the answer, not its entry (a streaming answer is not in the search
    // text): the index (~2 MB with 1,000 conversations) is not written again for it.
    if (i < 0 || this.summaries[i] !== old) this.indexDirty = true;
    this.dirty.add(c.id);
    this.schedule();
  }

  async delete(id: string): Promise<void> {
    this.deleted = [...this.deleted.filter((d) => d !== id), id].slice(-DELETED_MAX);
    await this.forget(id);
    this.enqueue(async () => {
      await this.backend.write(tombstoneOf(id), '');
      await this.backend.delete(fileOf(id));
      await this.backend.delete(fullTextFileOf(id));
    });
    await this.flush();
  }

  /** Drops a conversation from memory and the list (deleted here or in another window). */
  private async forget(id: string): Promise<void> {
    this.loaded.delete(id);
    this.fullTextWritten.delete(id);
    this.synced.delete(id);
    this.dirty.delete(id);
    this.summaries = this.summaries.filter((s) => s.id !== id);
    this.indexDirty = true;
    if (this.activeId === id) {
      const next = this.summaries.slice().sort((x, y) => y.updatedAt - x.updatedAt)[0];
      const c = (next && (await this.get(next.id))) || newConversation(this.now());
      this.loaded.set(c.id, c);
      this.activeId = c.id;
    }
  }

  /** Reads what other windows wrote, soon (several change events make one read). */
  private refreshSoon(): void {
    if (this.closed || this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      void this.refresh();
    }, 150);
  }

  /**
   * Reads the index and every loaded conversation from disk and merges what another window
   * changed into this window's copies; writes back only what this window adds. Resolves when done.
   */
  refresh(): Promise<void> {
    if (this.closed) return this.queue;
    // Only the conversation on screen is re-read: a window can hold hundreds of loaded
    // conversations, and every save (ours included) changes the folder, so re-reading them all
    // made each save cost O(conversations). Another conversation is merged with the disk when
    // this window saves it, and re-read when it is activated (activate() calls refreshSoon()).
    const ids = this.loaded.has(this.activeId) ? [this.activeId] : [];
    this.enqueue(async () => {
      let external = await this.syncIndex(false);
      for (const id of ids) {
        const c = this.loaded.get(id);
        if (!c || (!this.synced.has(id) && !this.summaries.some((s) => s.id === id))) continue;
        if (await this.syncConversation(id, serializeConversation(c))) external = true;
      }
      if (this.indexDirty) await this.syncIndex(true);
      if (external) this.onExternalChange?.();
    });
    return this.queue;
  }

  /**
   * Merges conversation `id` with its file and writes the result when it differs. `text` is the
   * state at the moment of the flush (written even when the live copy changes meanwhile).
   * Returns whether another window's changes were merged into the live copy.
   */
  private async syncConversation(id: string, text: string): Promise<boolean> {
    if (!this.deleted.includes(id) && (await this.backend.read(tombstoneOf(id))) !== undefined) {
      this.deleted = [...this.deleted, id].slice(-DELETED_MAX);
    }
    if (this.deleted.includes(id)) {
      await this.forget(id);
      await this.backend.delete(fileOf(id));
      await this.backend.delete(fullTextFileOf(id));
      this.fullTextWritten.delete(id);
      return true;
    }
    const synced = this.synced.get(id);
    // A missing file does not mean "deleted": another window's replace can be between its
    // delete and its rename. Only the index's tombstones say a conversation was deleted.
    let diskText = await this.backend.read(fileOf(id));
    for (let i = 0; diskText === undefined && synced && i < 3; i++) {
      await new Promise((r) => setTimeout(r, 25)); // most likely between another window's delete and rename
      diskText = await this.backend.read(fileOf(id));
    }
    const disk = diskText === undefined ? undefined : parseConversation(diskText);
    const snapshot = parseConversation(text) ?? cloneConversation(JSON.parse(text) as Conversation);
    let external = false;
    if (disk) {
      const live = this.loaded.get(id);
      // Removals are judged on the live copy: the snapshot can predate an earlier job that
      // merged another window's messages into `synced` (they are not "removed" by the snapshot).
      const removedHere = removedSince(synced, live ?? snapshot);
      mergeInto(synced, snapshot, disk, removedHere);
      if (live && canonical(disk) !== canonical(synced)) external = mergeInto(synced, live, disk, removedHere);
      if (live) {
        this.updateSummary(live);
        if (external) this.indexDirty = true;
      }
    }
    if (!disk || canonical(snapshot) !== canonical(disk)) await this.backend.write(fileOf(id), serializeConversation(snapshot));
    this.synced.set(id, snapshot);
    // the live copy: its messages' plain text is cached per message object (the snapshot's is not)
    await this.writeFullText(id, this.loaded.get(id) ?? snapshot);
    return external;
  }

  private updateSummary(c: Conversation): void {
    const i = this.summaries.findIndex((x) => x.id === c.id);
    if (i >= 0) this.summaries[i] = entryOf(c);
  }

  /**
   * Merges the index with the one on disk: conversations listed by either (the newer entry),
   * minus the deleted ones of either. Writes it when `write`. Returns whether the list changed.
   */
  private async syncIndex(write: boolean): Promise<boolean> {
    let external = false;
    let raw: string | undefined;
    try {
      raw = await this.backend.read(INDEX);
      // A missing index is most likely another window's replace between its delete and its
      // rename: writing ours now would drop that window's tombstones. Read again first.
      for (let i = 0; raw === undefined && this.summaries.length > 0 && i < 3; i++) {
        await new Promise((r) => setTimeout(r, 25));
        raw = await this.backend.read(INDEX);
      }
    } catch {
      raw = undefined;
    }
    // With 1,000 conversations the index is ~2 MB (search texts): it is parsed again only when
    // its text differs from the one this window last read or wrote.
    const disk = raw === undefined ? undefined : raw === this.indexCache?.raw ? this.indexCache.parsed : safeJson(raw, indexSchema);
    if (raw !== undefined && disk) this.indexCache = { raw, parsed: disk };
    if (disk) {
      const gone = (disk.deleted ?? []).filter((id) => !this.deleted.includes(id));
      if (gone.length) this.deleted = [...this.deleted, ...gone].slice(-DELETED_MAX);
      for (const id of gone) {
        if (this.loaded.has(id) || this.summaries.some((s) => s.id === id)) {
          await this.forget(id);
          external = true;
        }
      }
      for (const s of disk.conversations) {
        if (this.deleted.includes(s.id)) continue;
        const i = this.summaries.findIndex((x) => x.id === s.id);
        if (i < 0) {
          this.summaries.push(s);
          external = true;
        } else if (
          !this.loaded.has(s.id) &&
          ((this.summaries[i] as IndexEntry).updatedAt < s.updatedAt || ((this.summaries[i] as IndexEntry).text === undefined && s.text !== undefined))
        ) {
          this.summaries[i] = s;
          external = true;
        }
      }
    }
    if (write) {
      this.indexDirty = false;
      const activeId = this.summaries.some((s) => s.id === this.activeId) ? this.activeId : undefined;
      const conversations = this.summaries.filter((s) => !this.deleted.includes(s.id));
      const index = JSON.stringify({ version: 1, activeId, conversations, deleted: this.deleted.length ? this.deleted : undefined });
      if (index !== raw) {
        await this.backend.write(INDEX, index);
        this.indexCache = { raw: index, parsed: { version: 1, activeId, conversations, deleted: this.deleted.length ? [...this.deleted] : undefined } };
      }
    }
    return external;
  }

  private schedule(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // One timed flush in flight at a time: when the disk (or the IPC to it) is slower than
      // the cadence, changes wait and are written together instead of queueing writes without
      // bound (10 streaming conversations made a Stop wait ~45 s for the backlog).
      if (this.timedFlush) return this.schedule();
      this.timedFlush = this.flush().finally(() => (this.timedFlush = undefined));
    }, this.debounceMs);
  }

  private timedFlush: Promise<void> | undefined;

  /** Writes everything that changed; resolves when it is on disk. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const texts: [string, string][] = [];
    for (const id of this.dirty) {
      const c = this.loaded.get(id);
      if (!c) continue;
      texts.push([id, serializeConversation(c)]); // now, not when the queue gets to it
    }
    this.dirty.clear();
    if (texts.length || this.indexDirty) {
      this.indexDirty = true;
      this.enqueue(async () => {
        let external = await this.syncIndex(false);
        for (const [id, text] of texts) {
          try {
            if (await this.syncConversation(id, text)) external = true;
          } catch (err) {
            this.warn(`Could not save the chat history: ${errorText(err)}`);
          }
        }
        await this.syncIndex(true);
        if (external && !this.closed) this.onExternalChange?.();
      });
    }
    return this.queue;
  }

  private enqueue(write: () => Promise<void>): void {
    this.queue = this.queue.then(write).catch((err: unknown) => {
      this.warn(`Could not save the chat history: ${errorText(err)}`);
    });
  }

  /** Final flush; nothing is written after this. */
  close(): Promise<void> {
    const written = this.flush(); // serializes everything now
    this.closed = true;
    this.watcher?.dispose();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    return written;
  }
}

async function loadConversation(backend: StorageBackend, id: string, warn: (m: string) => void): Promise<Conversation | undefined> {
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
function canonical(v: unknown): string {
  return JSON.stringify(v ?? null, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

function safeJson<T>(text: string, schema: z.ZodType<T>): T | undefined {
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
