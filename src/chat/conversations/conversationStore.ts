// Keeps the conversations: one JSON file per conversation plus a small index (titles, order, the
// active one), what the panel and the list read and change. Pure apart from the injected backend,
// so its logic is unit-tested in Node; the extension uses `FileBackend` (workspace.fs under the
// extension's global storage). Nothing here ever holds the API key: conversations hold text,
// context and usage only.
//
// How changes reach the disk, merged with what other windows wrote, is conversationSync.ts; the
// files' names and formats are conversationStorage.ts.
import { cloneConversation } from './conversationMerge';
import type { ConversationSummary } from '../protocol';
import { searchTextOf, type ListEntry } from './conversationSearch';
import { fullTextBody, fullTextFileOf, fullTextPieces } from './conversationFullText';
import { isEmpty, isValidId, markInterrupted, newConversation, summaryOf, type Conversation } from './conversationTranscript';
import {
  DELETED_MAX,
  entryOf,
  fileOf,
  loadConversation,
  readStoredState,
  summaryOfEntry,
  tombstoneOf,
  type IndexEntry,
  type StorageBackend,
} from './conversationStorage';
import { SyncedConversations, type StoreOptions } from './conversationSync';

export class ConversationStore extends SyncedConversations {
  protected constructor(backend: StorageBackend, summaries: IndexEntry[], active: Conversation, options: StoreOptions) {
    super(backend, summaries, active, options);
  }

  /** Reads the index and the active conversation (marking an answer cut off by a reload). */
  static async open(backend: StorageBackend, options: StoreOptions = {}): Promise<ConversationStore> {
    const now = options.now ?? Date.now;
    const { summaries, deleted, loaded, active } = await readStoredState(backend, options.warn ?? (() => undefined));
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
    const body = await this.fullTextFiles.readFresh(entry.id, entry.updatedAt);
    if (body !== undefined) return body;
    const c = await loadConversation(this.backend, entry.id, () => undefined);
    if (!c) return undefined;
    const pieces = fullTextPieces(c);
    if (!this.closed) this.enqueue(() => this.fullTextFiles.write(c.id, c, pieces));
    return pieces.join('\n');
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
}
