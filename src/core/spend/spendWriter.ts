// The one writer of the spend ledger in a window. Requests that end together
// used to each read the ledger from globalState, add their entry and write the whole ledger
// back: with several writes in flight (and VS Code echoing earlier writes back into
// globalState), later writes replaced earlier ones and entries were lost (8 requests, 3 entries).
// Now an append goes into this window's copy at once (the budgets see it), and one write at a
// time takes it to the store, merged with what the store holds then (another window's entries
// are never dropped; see spendMerge.ts). Appends made while a write is in flight go out together
// in the next one. Pure (the store is injected), unit-tested in plain Node.
import { addSpend, emptySpend, entryKey, MAX_RAW, parseSpend, type SpendEntry, type SpendState } from './spendBook';
import { mergeSpend } from './spendMerge';

/** The part of vscode.Memento the writer uses (globalState). */
export interface SpendStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export class SpendWriter {
  /** this window's copy: everything it read from the store or appended */
  private state: SpendState | undefined;
  /** the stored object `state` has already taken in */
  private seenRaw: unknown;
  /** appended here, not yet in a write the store confirmed */
  private readonly unwritten = new Map<string, SpendEntry>();
  private writing: Promise<void> | undefined;
  private dirty = false;

  constructor(
    private readonly store: SpendStore | undefined,
    private readonly key: string,
    private readonly maxRaw = MAX_RAW,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** The ledger: this window's copy merged with whatever the store holds now (another window may have written). */
  current(): SpendState {
    if (!this.store) return (this.state ??= emptySpend());
    const raw = this.store.get(this.key);
    if (this.state && raw === this.seenRaw) return this.state;
    const stored = parseSpend(raw);
    const merged = this.state ? mergeSpend(stored, this.state, this.maxRaw) : stored;
    this.seenRaw = raw;
    // The store went back to a copy without requests this window holds (the last echo was of an
    // earlier write, or another window wrote over it): write the whole ledger again, so a reload
    // finds every request. The merge only adds, so this settles once the store has caught up.
    if (this.state && this.store && requestCount(merged) > requestCount(stored)) {
      this.dirty = true;
      this.writing ??= this.drain();
    }
    this.state = merged;
    return this.state;
  }

  /** Adds `e` to the ledger now and queues the write (one at a time). */
  append(e: SpendEntry): void {
    this.state = addSpend(this.current(), e, this.maxRaw);
    if (!this.store) return;
    this.unwritten.set(entryKey(e), e);
    this.dirty = true;
    this.writing ??= this.drain();
  }

  /**
   * Reads the ledger as stored, as a window reload does, keeping only what this window appended
   * and the store has not confirmed yet (it is still on its way there).
   */
  reload(): void {
    const stored = parseSpend(this.store?.get(this.key));
    this.state = mergeSpend(stored, { entries: [...this.unwritten.values()], days: [] }, this.maxRaw);
    this.seenRaw = this.store?.get(this.key);
  }

  /** Resolves once every append so far is in a write the store confirmed (or failed). */
  async whenWritten(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.dirty && this.store) {
        this.dirty = false;
        const batch = [...this.unwritten.keys()];
        const merged = this.current();
        const done = this.store.update(this.key, merged);
        // the store now holds (a copy of) what this window holds: no need to read it back
        this.seenRaw = this.store.get(this.key);
        try {
          await done;
        } catch (err) {
          // kept as unwritten: the next append writes them again
          this.onError(err);
          return;
        }
        for (const k of batch) this.unwritten.delete(k);
      }
    } finally {
      this.writing = undefined;
    }
  }
}

/** How many requests a ledger counts, raw entries and folded days together. */
function requestCount(state: SpendState): number {
  return state.entries.length + state.days.reduce((n, d) => n + d.requests, 0);
}
