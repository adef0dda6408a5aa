// Merging two copies of the spend ledger: the one in globalState, which any
// window may have written since, and the one this window holds. Nothing either side holds is
// dropped: the entries are united by identity (an id per request), the day aggregates come from
// the copy that folded the most, and entries that copy already folded are not added again.
// Pure, unit-tested in plain Node.
import { compact, compareOrder, entryKey, MAX_RAW, orderKey, type OrderKey, type SpendEntry, type SpendState } from './spendBook';

const later = (a: OrderKey | undefined, b: OrderKey | undefined): OrderKey | undefined => (!a ? b : !b ? a : compareOrder(a, b) >= 0 ? a : b);

/** The union of `a` and `b` (see above), bounded like every ledger (the oldest folded into days). */
export function mergeSpend(a: SpendState, b: SpendState, maxRaw = MAX_RAW): SpendState {
  const through = later(a.foldedThrough, b.foldedThrough);
  // the day aggregates of the copy that folded the most (with equal marks both folded the same)
  const days = through === a.foldedThrough ? a.days : b.days;
  const fresh = (e: SpendEntry) => !through || compareOrder(orderKey(e), through) > 0;
  // Entries without an id (stored before ids) may repeat within one copy: keep as many of each
  // as the copy with more of them has.
  const counts = (s: SpendState) => {
    const m = new Map<string, SpendEntry[]>();
    for (const e of s.entries) {
      if (!fresh(e)) continue;
      const k = entryKey(e);
      const list = m.get(k);
      if (list) list.push(e);
      else m.set(k, [e]);
    }
    return m;
  };
  const fromA = counts(a);
  const fromB = counts(b);
  const entries: SpendEntry[] = [];
  for (const [k, list] of fromA) {
    const other = fromB.get(k);
    entries.push(...(other && other.length > list.length ? other : list));
  }
  for (const [k, list] of fromB) if (!fromA.has(k)) entries.push(...list);
  return compact(entries, days, through, maxRaw);
}
