// The spend ledger's files in the folder every window of the user shares (the extension's global
// storage). VS Code keeps an extension's globalState as one stored object per extension, written
// whole by whichever window wrote last: two windows recording at once replaced each other's
// entries (a third window read 122 of 164). So each window writes only files of its own, and a
// reader merges them all:
// - `seg-<window>-<started>-<n>.json`: the entries one window recorded, appended in that window
//   only (rewritten whole by its single writer); a window starts a new segment after
//   SEGMENT_ENTRIES entries or SEGMENT_LIFETIME_MS, so a segment older than SEALED_AFTER_MS is
//   never written again (its window moved on or is gone);
// - `base-<window>-<at>.json`: a compaction's result (entries and folded days), never changed
//   after it is written;
// - `resv-<window>.json`: what that window's requests in flight reserve against the budgets;
// - `lease-<window>.json`: a window asking to compact (one compacts at a time).
// Pure (the folder is injected), unit-tested in plain Node.
import { emptySpend, parseSpend, type SpendState } from './spendBook';
import { mergeSpend } from './spendMerge';

/** The folder, as the extension host's file system offers it. */
export interface SpendFiles {
  /** the names of the files in the folder (none when it does not exist yet) */
  list(): Promise<string[]>;
  /** the file's text; undefined when it is gone */
  read(name: string): Promise<string | undefined>;
  /** replaces the file whole (the folder is created when missing) */
  write(name: string, text: string): Promise<void>;
  /** removes the file; a file already gone is not an error */
  remove(name: string): Promise<void>;
}

export const SEGMENT_ENTRIES = 200;
export const SEGMENT_LIFETIME_MS = 60 * 60_000;
/** a segment this old is never written again: twice the lifetime, for a write that was under way */
export const SEALED_AFTER_MS = 2 * SEGMENT_LIFETIME_MS;
/** a window's reservation file older than this is of a window that is gone (or stalled) */
export const RESERVATION_FRESH_MS = 15 * 60_000;
/** compaction starts once this many sealed segments (and bases) are in the folder */
export const COMPACT_AT_FILES = 12;

export type SpendFileName =
  | { kind: 'segment'; window: string; started: number; n: number }
  | { kind: 'base'; window: string; at: number }
  | { kind: 'reservation'; window: string }
  | { kind: 'lease'; window: string };

const WINDOW = '[a-z0-9]{1,40}';
const STAMP = '[a-z0-9]{1,12}';

/** A window's id in file names: letters and digits only. */
export function newWindowId(now: number, random: () => number = Math.random): string {
  return `${now.toString(36)}${Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')}`;
}

export const segmentName = (window: string, started: number, n: number) => `seg-${window}-${started.toString(36)}-${n.toString(36)}.json`;
export const baseName = (window: string, at: number) => `base-${window}-${at.toString(36)}.json`;
export const reservationName = (window: string) => `resv-${window}.json`;
export const leaseName = (window: string) => `lease-${window}.json`;

/** What a file of the folder is, from its name; undefined for anything else (ignored). */
export function parseSpendFileName(name: string): SpendFileName | undefined {
  let m = new RegExp(`^seg-(${WINDOW})-(${STAMP})-(${STAMP})\\.json$`).exec(name);
  if (m) return { kind: 'segment', window: m[1]!, started: parseInt(m[2]!, 36), n: parseInt(m[3]!, 36) };
  m = new RegExp(`^base-(${WINDOW})-(${STAMP})\\.json$`).exec(name);
  if (m) return { kind: 'base', window: m[1]!, at: parseInt(m[2]!, 36) };
  m = new RegExp(`^resv-(${WINDOW})\\.json$`).exec(name);
  if (m) return { kind: 'reservation', window: m[1]! };
  m = new RegExp(`^lease-(${WINDOW})\\.json$`).exec(name);
  if (m) return { kind: 'lease', window: m[1]! };
  return undefined;
}

/** True when nobody writes the file again: bases always, segments once old enough. */
export function isSealed(f: SpendFileName, now: number): boolean {
  return f.kind === 'base' || (f.kind === 'segment' && now - f.started >= SEALED_AFTER_MS);
}

/** A ledger file's text as a ledger; undefined when it is not whole JSON (a write under way). */
export function parseLedgerText(text: string): SpendState | undefined {
  try {
    return parseSpend(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The union of any number of copies (see spendMerge.ts), bounded like every ledger. */
export function mergeAll(copies: readonly SpendState[], maxRaw?: number): SpendState {
  let out = emptySpend();
  for (const c of copies) out = mergeSpend(out, c, maxRaw);
  return out;
}

/** A window's reservation file: what its requests in flight reserve (USD), and when it said so. */
export interface ReservationNote {
  at: number;
  usd: number;
}

export function parseReservation(text: string | undefined): ReservationNote | undefined {
  if (!text) return undefined;
  try {
    const r = JSON.parse(text) as Record<string, unknown>;
    const ok = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
    return ok(r.at) && ok(r.usd) ? { at: r.at, usd: r.usd } : undefined;
  } catch {
    return undefined;
  }
}

/** What the other windows reserve now: fresh notes only (a window that is gone reserves nothing). */
export function othersReserved(notes: ReadonlyMap<string, ReservationNote>, self: string, now: number): number {
  let sum = 0;
  for (const [window, n] of notes) if (window !== self && now - n.at < RESERVATION_FRESH_MS && n.at <= now + 60_000) sum += n.usd;
  return sum;
}

/**
 * Who may compact: the window whose lease name sorts first among fresh leases (written within
 * the last minute). Each window writes its lease, waits, then lists: two that ask together both
 * see both leases, and only one goes on.
 */
export function leaseWinner(leases: ReadonlyMap<string, number>, now: number): string | undefined {
  const fresh = [...leases].filter(([, at]) => now - at < 60_000).map(([w]) => w);
  fresh.sort();
  return fresh[0];
}
