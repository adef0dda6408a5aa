// The write side of the chat history: what a store (conversationStore.ts) shares with the disk
// and with the other windows of this user. Changes are written after a short debounce, one write
// after another; each write reads the file first and merges (conversationMerge.ts), the index is
// merged too and keeps the ids of deleted conversations, and a change another window made (told
// by the backend's watcher) is read and merged into this window's copy.
import type * as z from 'zod';
import { cloneConversation, mergeInto, removedSince } from './conversationMerge';
import { fullTextFileOf } from './conversationFullText';
import { newConversation, type Conversation } from './conversationTranscript';
import { parseConversation, serializeConversation } from './conversationFormat';
import {
  canonical,
  DELETED_MAX,
  entryOf,
  fileOf,
  FullTextFiles,
  INDEX,
  indexSchema,
  safeJson,
  tombstoneOf,
  type IndexEntry,
  type StorageBackend,
} from './conversationStorage';
import { errorText } from '../../core/errorText';

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

export abstract class SyncedConversations {
  protected readonly loaded = new Map<string, Conversation>();
  protected summaries: IndexEntry[];
  protected activeId: string;
  protected readonly dirty = new Set<string>();
  protected indexDirty = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** writes run one after another, in order */
  private queue: Promise<void> = Promise.resolve();
  protected closed = false;
  private readonly debounceMs: number;
  protected readonly now: () => number;
  protected readonly warn: (message: string) => void;
  /** per conversation: what this window last read from or wrote to disk (the merge base) */
  protected readonly synced = new Map<string, Conversation>();
  /** conversations deleted here or elsewhere (tombstones, written into the index) */
  protected deleted: string[] = [];
  private watcher: { dispose(): void } | undefined;
  /** the index text this window last read or wrote, parsed */
  private indexCache: { raw: string; parsed: z.infer<typeof indexSchema> } | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  protected readonly fullTextFiles: FullTextFiles;
  onExternalChange: (() => void) | undefined;

  protected constructor(
    protected readonly backend: StorageBackend,
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
    this.fullTextFiles = new FullTextFiles(backend, this.warn);
    this.watcher = backend.watch?.(() => this.refreshSoon());
  }

  /** A loaded conversation, from memory or storage; undefined when unknown or unreadable. */
  abstract get(id: string): Promise<Conversation | undefined>;

  /** Drops a conversation from memory and the list (deleted here or in another window). */
  protected async forget(id: string): Promise<void> {
    this.loaded.delete(id);
    this.fullTextFiles.forget(id);
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
  protected refreshSoon(): void {
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
      // Queued before the window closed and run after: the close wrote the history as it was, and
      // the live copies may have moved on since (an answer the close aborted now reads "stopped").
      if (this.closed) return;
      let external = await this.syncIndex(false);
      for (const id of ids) {
        // Closed while this re-read was reading the index: it stops here too; the close's own
        // write, queued behind it, holds the history as it was at the close.
        if (this.closed) return;
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
    await this.fullTextFiles.write(id, this.loaded.get(id) ?? snapshot);
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

  protected schedule(): void {
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

  protected enqueue(write: () => Promise<void>): void {
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
