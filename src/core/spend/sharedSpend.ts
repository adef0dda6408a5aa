// The spend ledger of one window in the folder all windows share (see spendFolder.ts for the
// files). An append goes into this window's copy at once (the budgets count it from then on) and
// one write at a time takes this window's current segment to its file; nobody else writes that
// file, so no window can replace another's entries. Reading merges every window's files (and the
// ledger older versions kept in globalState) by entry id; a file caught half-written or removed
// by a compaction keeps its last good copy until the next read. The windows' reservations for
// the budgets travel the same way: each window writes what its requests in flight reserve, after
// its ledger entries are on disk, so another window never sees a request neither spent nor
// reserved. Pure (the folder and the clock are injected), unit-tested in plain Node.
import { emptySpend, MAX_RAW, type SpendEntry, type SpendState } from './spendBook';
import {
  baseName,
  COMPACT_AT_FILES,
  isSealed,
  leaseName,
  leaseWinner,
  mergeAll,
  newWindowId,
  othersReserved,
  parseLedgerText,
  parseReservation,
  parseSpendFileName,
  reservationName,
  SEGMENT_ENTRIES,
  SEGMENT_LIFETIME_MS,
  segmentName,
  type ReservationNote,
  type SpendFiles,
} from './spendFolder';

export interface SharedSpendOptions {
  now?: () => number;
  /** this window's id (a new one by default) */
  windowId?: string;
  maxRaw?: number;
  /** the ledger as older versions kept it (globalState), merged on read, never written */
  legacy?: () => SpendState;
  onError?: (err: unknown) => void;
  /** waits between writing a compaction lease and reading the others' */
  sleep?: (ms: number) => Promise<void>;
}

export class SharedSpend {
  readonly windowId: string;
  private readonly now: () => number;
  private readonly maxRaw: number;
  private readonly legacy: () => SpendState;
  private readonly onError: (err: unknown) => void;
  private readonly sleep: (ms: number) => Promise<void>;
  /** the segment this window appends to */
  private segment: { name: string; started: number; n: number; entries: SpendEntry[] };
  /** this window's segments whose last form is not confirmed on disk yet (the current one included) */
  private readonly open = new Map<string, SpendEntry[]>();
  /** the last good copy of every other ledger file, by name */
  private readonly files = new Map<string, SpendState>();
  /** this window's finished segments, with the read generation that confirmed them */
  private readonly ownConfirmed = new Map<string, number>();
  private notes = new Map<string, ReservationNote>();
  private filesMerged: SpendState = emptySpend();
  private merged: SpendState | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private generation = 0;
  private reserved = { want: 0, written: -1 };
  private publishing: Promise<void> | undefined;
  private lastCompaction = 0;

  constructor(
    private readonly folder: SpendFiles,
    options: SharedSpendOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.windowId = options.windowId ?? newWindowId(this.now());
    this.maxRaw = options.maxRaw ?? MAX_RAW;
    this.legacy = options.legacy ?? emptySpend;
    this.onError = options.onError ?? (() => undefined);
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    const started = this.now();
    this.segment = { name: segmentName(this.windowId, started, 0), started, n: 0, entries: [] };
  }

  /** The ledger: every window's files as last read, this window's appends, the legacy copy. */
  current(): SpendState {
    this.merged ??= mergeAll([this.legacy(), this.filesMerged, { entries: [...this.open.values()].flat(), days: [] }], this.maxRaw);
    return this.merged;
  }

  /** Adds `e` to the ledger now and queues the write of this window's segment. */
  append(e: SpendEntry): void {
    const now = this.now();
    const s = this.segment;
    if (s.entries.length >= SEGMENT_ENTRIES || now - s.started >= SEGMENT_LIFETIME_MS) {
      const n = s.n + 1;
      this.segment = { name: segmentName(this.windowId, now, n), started: now, n, entries: [] };
    }
    this.segment.entries.push(e);
    this.open.set(this.segment.name, this.segment.entries);
    this.merged = undefined;
    this.dirty = true;
    this.writing ??= this.drain();
  }

  /** Resolves once every append so far is in a write the folder confirmed (or failed). */
  async whenWritten(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** What the other windows' requests in flight reserve now (as last read). */
  othersReserved(): number {
    return othersReserved(this.notes, this.windowId, this.now());
  }

  /** Reads every window's files again (one read at a time; a call during a read gets the next one). */
  refresh(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      try {
        do {
          this.readAgain = false;
          await this.readFolder();
        } while (this.readAgain);
      } catch (err) {
        this.onError(err);
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  /** As a window reload: forgets what it read and reads the folder again (its own appends stay). */
  async reload(): Promise<void> {
    await this.whenWritten();
    this.files.clear();
    this.notes.clear();
    this.filesMerged = emptySpend();
    this.merged = undefined;
    await this.refresh();
  }

  /**
   * Tells the other windows what this window's requests in flight reserve (USD), once this
   * window's recorded entries are on disk. Resolves when a write of this figure (or a later one) is done.
   */
  publishReserved(usd: number): Promise<void> {
    this.reserved.want = usd;
    if (this.reserved.written === usd && !this.publishing) return Promise.resolve();
    this.publishing ??= (async () => {
      try {
        while (this.reserved.written !== this.reserved.want) {
          await this.whenWritten();
          const usdNow = this.reserved.want;
          await this.folder.write(reservationName(this.windowId), JSON.stringify({ at: this.now(), usd: usdNow }));
          this.reserved.written = usdNow;
        }
      } catch (err) {
        this.onError(err);
        this.reserved.written = -1;
      } finally {
        this.publishing = undefined;
      }
    })();
    return this.publishing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        for (const [name, entries] of [...this.open]) {
          const snapshot = entries.slice();
          try {
            await this.folder.write(name, JSON.stringify({ entries: snapshot }));
          } catch (err) {
            // kept open: the next append writes it again
            this.onError(err);
            return;
          }
          // a finished segment whose whole content is on disk is read like any other file from now on
          if (name !== this.segment.name && snapshot.length === entries.length) {
            this.files.set(name, { entries: snapshot, days: [] });
            this.ownConfirmed.set(name, this.generation);
            this.open.delete(name);
            this.filesMerged = mergeAll([this.filesMerged, { entries: snapshot, days: [] }], this.maxRaw);
            this.merged = undefined;
          }
        }
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async readFolder(): Promise<void> {
    const generation = ++this.generation;
    const names = await this.folder.list();
    const now = this.now();
    const listed = new Set<string>();
    const notes = new Map<string, ReservationNote>();
    let sealed = 0;
    for (const name of names) {
      const f = parseSpendFileName(name);
      if (!f || f.kind === 'lease') continue;
      if (f.kind === 'reservation') {
        const note = f.window === this.windowId ? undefined : parseReservation(await this.folder.read(name));
        if (note) notes.set(f.window, note);
        continue;
      }
      if (isSealed(f, now)) sealed++;
      if (this.open.has(name)) continue; // this window holds it whole
      listed.add(name);
      // a sealed file or one of this window's never changes once read
      if (this.files.has(name) && (isSealed(f, now) || f.window === this.windowId)) continue;
      const text = await this.folder.read(name);
      const state = text === undefined ? undefined : parseLedgerText(text);
      if (state) this.files.set(name, state); // else the last good copy stays (a write under way)
    }
    for (const name of [...this.files.keys()]) {
      // gone: a compaction folded it into a base, which this listing holds (written before removal).
      // This window's own segment confirmed after the listing began is not in it yet: kept.
      const mine = this.ownConfirmed.get(name);
      if (!listed.has(name) && (mine === undefined || mine < generation)) {
        this.files.delete(name);
        this.ownConfirmed.delete(name);
      }
    }
    this.notes = notes;
    this.filesMerged = mergeAll([...this.files.values()], this.maxRaw);
    this.merged = undefined;
    if (sealed >= COMPACT_AT_FILES && now - this.lastCompaction > SEGMENT_LIFETIME_MS) {
      this.lastCompaction = now;
      void this.compact().catch((err) => this.onError(err));
    }
  }

  /**
   * Folds the sealed files into one base. One window at a time: it writes a lease, waits, and
   * goes on only when its lease sorts first among the fresh ones. The base is written before
   * anything is removed, and only files that were read whole are removed.
   */
  async compact(): Promise<boolean> {
    const lease = leaseName(this.windowId);
    await this.folder.write(lease, JSON.stringify({ at: this.now(), usd: 0 }));
    try {
      await this.sleep(1500);
      const leases = new Map<string, number>();
      for (const name of await this.folder.list()) {
        const f = parseSpendFileName(name);
        if (f?.kind !== 'lease') continue;
        const note = parseReservation(await this.folder.read(name)); // { at, usd: 0 }
        if (note) leases.set(f.window, note.at);
      }
      if (leaseWinner(leases, this.now()) !== this.windowId) return false;
      const now = this.now();
      const taken: string[] = [];
      const states: SpendState[] = [];
      for (const name of await this.folder.list()) {
        const f = parseSpendFileName(name);
        if (!f || !isSealed(f, now)) continue;
        const state = parseLedgerText((await this.folder.read(name)) ?? '');
        if (!state) return false; // removed under us or unreadable: leave everything as it is
        taken.push(name);
        states.push(state);
      }
      if (taken.length < 2) return false;
      const base = baseName(this.windowId, now);
      const merged = mergeAll(states, this.maxRaw);
      await this.folder.write(base, JSON.stringify(merged));
      this.files.set(base, merged);
      for (const name of taken) await this.folder.remove(name);
      return true;
    } finally {
      await this.folder.remove(lease);
    }
  }
}
