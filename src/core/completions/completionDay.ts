// What the status bar says about today's completions besides their cost: how many were shown and
// how many of them were accepted (the acceptance rate), per local day. And the snooze: until when
// completions are paused (a time, or until the user turns them on again). Both are kept in
// globalState as these small records, checked when read.
import { localDay } from '../spend/spendBook';

export interface CompletionDay {
  /** local day, "2026-11-29" */
  day: string;
  /** completions shown (fresh ones; the rest of one typed through is not counted again) */
  shown: number;
  accepted: number;
}

const count = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);

/** Today's record: the stored one when it is of today, else a fresh one. */
export function today(raw: unknown, now: number): CompletionDay {
  const day = localDay(now);
  const r = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  if (r.day !== day) return { day, shown: 0, accepted: 0 };
  const shown = count(r.shown);
  return { day, shown, accepted: Math.min(shown, count(r.accepted)) };
}

/** "27 %" of shown completions accepted; undefined before any was shown. */
export function acceptanceRate(d: CompletionDay): number | undefined {
  return d.shown ? d.accepted / d.shown : undefined;
}

/** Snoozed until this time (ms), or `'untilOn'` (until the user turns completions on again). */
export type Snooze = number | 'untilOn';

export function parseSnooze(raw: unknown, now: number): Snooze | undefined {
  if (raw === 'untilOn') return raw;
  return typeof raw === 'number' && Number.isFinite(raw) && raw > now ? raw : undefined;
}

export const SNOOZE_CHOICES = { fiveMinutes: 5 * 60_000, oneHour: 60 * 60_000 } as const;
