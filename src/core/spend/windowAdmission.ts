// Whether a request that reserved its estimate may go, with the other windows' reservations in
// view. A window writes what it reserves, then reads what the others reserve: of two windows
// that do so at the same moment, at least one sees the other's reservation (its read came after
// the other's write). Both may see each other and both hold back: then each withdraws its
// reservation, waits a random moment and tries again (a few times), so one goes first and the
// other then sees it. So two windows together pass a budget by at most one request each.
// Pure (the window's side is injected), unit-tested in plain Node.
import type { Hold } from './reservations';

export interface WindowSide<Over> {
  /** writes what this window reserves now, then reads every window's ledger and reservations */
  publishAndRead(): Promise<void>;
  /** the budget used up by what was spent and this window reserved before `hold` (with `others`: and what the other windows reserve) */
  overBefore(hold: Hold, others: boolean): Over | undefined;
  /** a new reservation of `usd` (after the last of this window's) */
  hold(usd: number): Hold;
  /** tells the other windows that this window withdrew a reservation */
  publish(): Promise<void>;
  sleep(ms: number): Promise<void>;
}

export const ADMISSION_ATTEMPTS = 4;

/** The reservation to keep (a new one after a retry), or the budget that refuses the request (its reservation released). */
export async function admitAcrossWindows<Over>(
  side: WindowSide<Over>,
  hold: Hold,
  random: () => number = Math.random,
): Promise<{ hold: Hold } | { refused: Over }> {
  for (let attempt = 1; ; attempt++) {
    await side.publishAndRead().catch(() => undefined); // unreadable folder: this window's own figures still hold
    const over = side.overBefore(hold, true);
    if (!over) return { hold };
    hold.settle();
    // used up by what this window spent and reserved itself, or still after the retries
    if (attempt >= ADMISSION_ATTEMPTS || side.overBefore(hold, false)) return { refused: over };
    await side.publish().catch(() => undefined);
    await side.sleep(40 + Math.floor(random() * 200 * attempt));
    hold = side.hold(hold.usd);
  }
}
