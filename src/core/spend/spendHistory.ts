// What each task cost afterwards, for "Modelgate: Show Spending": the spend by panel
// conversation (its title, total and share of the prompt read from the cache) and the cost of
// each of the last 30 local days. Raw entries and folded days count alike. Pure, unit-tested.
import { dayStart, localDay, type DayAggregate, type SpendEntry, type SpendState } from './spendBook';

/** the days the spending page's chart and conversation table cover */
export const HISTORY_DAYS = 30;

/** Local midnight `days - 1` days before the day that holds `now`: the start of the last `days` days. */
export function periodStart(now: number, days = HISTORY_DAYS): number {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() - (days - 1)).getTime();
}

export interface ConversationSpend {
  conversation: string;
  /** the newest title seen; the id's start when no request carried one */
  title: string;
  requests: number;
  unpriced: number;
  cost: number;
  promptTokens: number;
  cachedTokens: number;
  /** when its newest request was made (raw entries) or its newest day began (folded days) */
  last: number;
}

export interface DaySpend {
  day: string;
  cost: number;
  requests: number;
  unpriced: number;
}

/** The spend of each conversation in [start, end), most expensive first; `limit` rows at most. */
export function byConversation(state: SpendState, start: number, end: number, limit = 20): ConversationSpend[] {
  const rows = new Map<string, ConversationSpend>();
  const add = (at: number, src: SpendEntry | DayAggregate, requests: number, unpriced: number, cost: number) => {
    if (!src.conversation || at < start || at >= end) return;
    let r = rows.get(src.conversation);
    if (!r) {
      r = { conversation: src.conversation, title: '', requests: 0, unpriced: 0, cost: 0, promptTokens: 0, cachedTokens: 0, last: -Infinity };
      rows.set(src.conversation, r);
    }
    if (src.title && at >= r.last) r.title = src.title;
    r.last = Math.max(r.last, at);
    r.requests += requests;
    r.unpriced += unpriced;
    r.cost += cost;
    r.promptTokens += src.promptTokens;
    r.cachedTokens += src.cachedTokens;
  };
  for (const a of state.days) add(dayStart(a.day), a, a.requests, a.unpriced, a.cost);
  for (const e of state.entries) add(e.at, e, 1, e.cost === undefined ? 1 : 0, e.cost ?? 0);
  const list = [...rows.values()].map((r) => ({ ...r, title: r.title || r.conversation.slice(0, 8) }));
  list.sort((a, b) => b.cost - a.cost || b.last - a.last || a.conversation.localeCompare(b.conversation));
  return list.slice(0, limit);
}

/** Share of the prompt tokens billed at the cache price (0 when there were none). */
export function cachedShare(r: { promptTokens: number; cachedTokens: number }): number {
  return r.promptTokens > 0 ? Math.min(1, r.cachedTokens / r.promptTokens) : 0;
}

/** The cost of each of the `days` local days up to and including the one that holds `now`, oldest first. */
export function lastDays(state: SpendState, now: number, days = 30): DaySpend[] {
  const out: DaySpend[] = [];
  const index = new Map<string, DaySpend>();
  const d = new Date(now);
  for (let i = days - 1; i >= 0; i--) {
    const day = localDay(new Date(d.getFullYear(), d.getMonth(), d.getDate() - i).getTime());
    const row = { day, cost: 0, requests: 0, unpriced: 0 };
    out.push(row);
    index.set(day, row);
  }
  for (const a of state.days) {
    const row = index.get(a.day);
    if (!row) continue;
    row.cost += a.cost;
    row.requests += a.requests;
    row.unpriced += a.unpriced;
  }
  for (const e of state.entries) {
    const row = index.get(localDay(e.at));
    if (!row) continue;
    row.cost += e.cost ?? 0;
    row.requests += 1;
    row.unpriced += e.cost === undefined ? 1 : 0;
  }
  return out;
}
