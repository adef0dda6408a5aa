// The spend ledger's data: every billed request (chat panel, language-model provider, images, completions as you type)
// with its time, source, model, channel, tokens and cost. Figures only: never prompt text,
// never the key. Bounded: the newest MAX_RAW entries are kept as they are; older ones are
// folded into per-day aggregates (local day), so today/week/month totals stay exact while the
// stored state stays small. Pure, unit-tested in plain Node.
//
// An entry without a price (no price configured for the model and channel) has cost
// undefined: it is counted apart as "unpriced", never as $0.

import { english, l10n as userLanguage, type Translate } from '../l10n';

const plainEnglish = { t: english };

/** 'image': the image command; 'imageTool': the image tool another extension or VS Code's chat called */
export type SpendSource = 'panel' | 'lm' | 'image' | 'imageTool' | 'completions';
export const SPEND_SOURCES: readonly SpendSource[] = ['panel', 'lm', 'image', 'imageTool', 'completions'];

/** The panel conversation a request belongs to: its id, and its title when the request was made. */
export interface SpendConversation {
  conversation?: string;
  title?: string;
}

export interface SpendEntry extends SpendConversation {
  /** unique per request (the recording window's id and a counter): merges of two windows' writes never add it twice */
  id?: string;
  at: number;
  source: SpendSource;
  /** the extension that asked through vscode.lm ('core' = VS Code itself; absent when unknown) */
  requester?: string;
  model: string;
  channel: string;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  /** images generated (image requests) */
  images: number;
  /** USD; undefined = no known price */
  cost?: number;
}

/** Older entries of one local day, one source/requester, conversation, model and channel, summed. */
export interface DayAggregate extends SpendConversation {
  day: string;
  source: SpendSource;
  requester?: string;
  model: string;
  channel: string;
  requests: number;
  unpriced: number;
  /** USD of the priced requests */
  cost: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  images: number;
}

export interface SpendState {
  entries: SpendEntry[];
  days: DayAggregate[];
  /** the order key of the newest entry folded into `days`: a merge never adds it (or older ones) again */
  foldedThrough?: OrderKey;
}

/** Where an entry sits in the ledger's order: its time, then its identity. */
export interface OrderKey {
  at: number;
  key: string;
}

/** An entry's identity: its id, or (entries stored before ids) its figures. */
export function entryKey(e: SpendEntry): string {
  return (
    e.id ??
    `${e.at}|${e.source}|${e.requester ?? ''}|${e.conversation ?? ''}|${e.model}|${e.channel}|${e.promptTokens}|${e.cachedTokens}|${e.completionTokens}|${e.images}|${e.cost ?? ''}`
  );
}

/** Negative when `a` comes before `b` in the ledger's order. */
export function compareOrder(a: OrderKey, b: OrderKey): number {
  return a.at - b.at || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export const orderKey = (e: SpendEntry): OrderKey => ({ at: e.at, key: entryKey(e) });

export const MAX_RAW = 1000;

export function emptySpend(): SpendState {
  return { entries: [], days: [] };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-11-23": the local calendar day of `ms`. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Local midnight at the start of the day given as "YYYY-MM-DD". */
export function dayStart(day: string): number {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d!).getTime();
}

export type Period = 'day' | 'week' | 'month';

/** [start, end) of the local day, week (Monday to Sunday) or month that holds `now`. */
export function periodRange(period: Period, now: number): { start: number; end: number } {
  const d = new Date(now);
  if (period === 'day') {
    return { start: new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime(), end: new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() };
  }
  if (period === 'week') {
    const back = (d.getDay() + 6) % 7; // days since Monday
    return {
      start: new Date(d.getFullYear(), d.getMonth(), d.getDate() - back).getTime(),
      end: new Date(d.getFullYear(), d.getMonth(), d.getDate() - back + 7).getTime(),
    };
  }
  return { start: new Date(d.getFullYear(), d.getMonth(), 1).getTime(), end: new Date(d.getFullYear(), d.getMonth() + 1, 1).getTime() };
}

const sameGroup = (a: DayAggregate, day: string, e: SpendEntry) =>
  a.day === day && a.source === e.source && a.requester === e.requester && a.conversation === e.conversation && a.model === e.model && a.channel === e.channel;

function fold(days: DayAggregate[], e: SpendEntry): void {
  const day = localDay(e.at);
  let a = days.find((x) => sameGroup(x, day, e));
  if (!a) {
    a = {
      day,
      source: e.source,
      ...(e.requester ? { requester: e.requester } : {}),
      ...(e.conversation ? { conversation: e.conversation } : {}),
      ...(e.title ? { title: e.title } : {}),
      model: e.model,
      channel: e.channel,
      requests: 0,
      unpriced: 0,
      cost: 0,
      promptTokens: 0,
      cachedTokens: 0,
      completionTokens: 0,
      images: 0,
    };
    days.push(a);
  }
  if (e.title) a.title = e.title; // the newest title the conversation had
  a.requests += 1;
  if (e.cost === undefined) a.unpriced += 1;
  else a.cost += e.cost;
  a.promptTokens += e.promptTokens;
  a.cachedTokens += e.cachedTokens;
  a.completionTokens += e.completionTokens;
  a.images += e.images;
}

/** A new state with `e` added; the oldest entries beyond `maxRaw` are folded into day aggregates. */
export function addSpend(state: SpendState, e: SpendEntry, maxRaw = MAX_RAW): SpendState {
  return compact([...state.entries, e], state.days, state.foldedThrough, maxRaw);
}

/** Folds the oldest of `entries` (in any order) beyond `maxRaw` into day aggregates; the rest stay sorted. */
export function compact(entries: SpendEntry[], days: readonly DayAggregate[], foldedThrough: OrderKey | undefined, maxRaw = MAX_RAW): SpendState {
  const sorted = entries.map((e) => ({ e, k: orderKey(e) })).sort((a, b) => compareOrder(a.k, b.k));
  const out = days.map((a) => ({ ...a }));
  let through = foldedThrough;
  const cut = Math.max(0, sorted.length - maxRaw);
  for (let i = 0; i < cut; i++) {
    fold(out, sorted[i]!.e);
    through = sorted[i]!.k;
  }
  return { entries: sorted.slice(cut).map((x) => x.e), days: out, ...(through ? { foldedThrough: through } : {}) };
}

// ---------- reading stored state (globalState): anything malformed is dropped ----------

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const str = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;
const src = (v: unknown): v is SpendSource => (SPEND_SOURCES as readonly unknown[]).includes(v);

/** The conversation fields of a stored entry or day, when well-formed (a bad title is dropped, not the entry). */
function conversationOf(r: Record<string, unknown>): SpendConversation {
  if (!str(r.conversation, 100)) return {};
  return { conversation: r.conversation as string, ...(str(r.title, TITLE_CHARS) ? { title: r.title as string } : {}) };
}

/** a conversation title kept in the ledger: at most this many characters */
export const TITLE_CHARS = 120;

function parseEntry(raw: unknown): SpendEntry | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  if (!num(r.at) || !src(r.source) || !str(r.model, 200) || !str(r.channel, 50)) return undefined;
  if (!num(r.promptTokens) || !num(r.cachedTokens) || !num(r.completionTokens) || !num(r.images)) return undefined;
  if (r.cost !== undefined && !num(r.cost)) return undefined;
  if (r.requester !== undefined && !str(r.requester, 200)) return undefined;
  if (r.id !== undefined && !str(r.id, 100)) return undefined;
  return {
    ...conversationOf(r),
    ...(r.id !== undefined ? { id: r.id as string } : {}),
    at: r.at,
    source: r.source,
    ...(r.requester !== undefined ? { requester: r.requester as string } : {}),
    model: r.model,
    channel: r.channel,
    promptTokens: r.promptTokens,
    cachedTokens: r.cachedTokens,
    completionTokens: r.completionTokens,
    images: r.images,
    ...(r.cost !== undefined ? { cost: r.cost } : {}),
  };
}

function parseDay(raw: unknown): DayAggregate | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.day !== 'string' || !/^\d{4}-\d\d-\d\d$/.test(r.day) || !src(r.source) || !str(r.model, 200) || !str(r.channel, 50)) return undefined;
  const keys = ['requests', 'unpriced', 'cost', 'promptTokens', 'cachedTokens', 'completionTokens', 'images'] as const;
  if (!keys.every((k) => num(r[k]))) return undefined;
  if (r.requester !== undefined && !str(r.requester, 200)) return undefined;
  const out = { day: r.day, source: r.source, ...conversationOf(r), model: r.model, channel: r.channel } as DayAggregate;
  if (r.requester !== undefined) out.requester = r.requester as string;
  for (const k of keys) out[k] = r[k] as number;
  return out;
}

export function parseSpend(raw: unknown): SpendState {
  if (!raw || typeof raw !== 'object') return emptySpend();
  const r = raw as Record<string, unknown>;
  const entries = Array.isArray(r.entries) ? r.entries.map(parseEntry).filter((e): e is SpendEntry => !!e) : [];
  const days = Array.isArray(r.days) ? r.days.map(parseDay).filter((d): d is DayAggregate => !!d) : [];
  const f = r.foldedThrough as Record<string, unknown> | undefined;
  const foldedThrough = f && typeof f === 'object' && num(f.at) && str(f.key, 1000) ? { at: f.at, key: f.key } : undefined;
  return { entries, days, ...(foldedThrough ? { foldedThrough } : {}) };
}

// ---------- summaries ----------

export interface SpendRow {
  key: string;
  requests: number;
  unpriced: number;
  cost: number;
}

export interface SpendSummary {
  start: number;
  end: number;
  requests: number;
  /** requests without a known price (their cost is unknown, not $0) */
  unpriced: number;
  /** USD of the priced requests */
  cost: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  images: number;
  byModel: SpendRow[];
  byChannel: SpendRow[];
  bySource: SpendRow[];
}

/**
 * "chat panel", "image command", "vscode.lm: publisher.name", "vscode.lm (caller not reported)".
 * In the user's language on the spending page (`l10n` = core's l10n); English in the CSV export
 * (the default), which scripts read. The parameter is named `l10n` so the bundle scanner finds
 * these messages.
 */
export function sourceLabel(source: SpendSource, requester?: string, l10n: { t: Translate } = plainEnglish): string {
  if (source === 'panel') return l10n.t('chat panel');
  if (source === 'image') return l10n.t('image command');
  if (source === 'imageTool') {
    if (!requester) return l10n.t('image tool (caller not reported)');
    return requester === 'core' ? l10n.t('image tool: VS Code chat') : l10n.t('image tool: {0}', requester);
  }
  if (source === 'completions') return l10n.t('completions as you type');
  if (!requester) return l10n.t('vscode.lm (caller not reported)');
  return requester === 'core' ? l10n.t('vscode.lm: VS Code chat') : l10n.t('vscode.lm: {0}', requester);
}

function addRow(rows: Map<string, SpendRow>, key: string, requests: number, unpriced: number, cost: number): void {
  const r = rows.get(key) ?? { key, requests: 0, unpriced: 0, cost: 0 };
  r.requests += requests;
  r.unpriced += unpriced;
  r.cost += cost;
  rows.set(key, r);
}

const sorted = (rows: Map<string, SpendRow>) => [...rows.values()].sort((a, b) => b.cost - a.cost || b.requests - a.requests || a.key.localeCompare(b.key));

/** Totals and breakdowns of what was spent in [start, end). */
export function summarize(state: SpendState, start: number, end: number): SpendSummary {
  const s = { start, end, requests: 0, unpriced: 0, cost: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0, images: 0 };
  const byModel = new Map<string, SpendRow>();
  const byChannel = new Map<string, SpendRow>();
  const bySource = new Map<string, SpendRow>();
  const add = (
    g: { source: SpendSource; requester?: string; model: string; channel: string },
    f: { requests: number; unpriced: number; cost: number; promptTokens: number; cachedTokens: number; completionTokens: number; images: number },
  ) => {
    s.requests += f.requests;
    s.unpriced += f.unpriced;
    s.cost += f.cost;
    s.promptTokens += f.promptTokens;
    s.cachedTokens += f.cachedTokens;
    s.completionTokens += f.completionTokens;
    s.images += f.images;
    addRow(byModel, g.model, f.requests, f.unpriced, f.cost);
    addRow(byChannel, g.channel, f.requests, f.unpriced, f.cost);
    addRow(bySource, sourceLabel(g.source, g.requester, userLanguage), f.requests, f.unpriced, f.cost);
  };
  for (const a of state.days) {
    const t = dayStart(a.day);
    if (t >= start && t < end) add(a, a);
  }
  for (const e of state.entries) {
    if (e.at >= start && e.at < end) add(e, { ...e, requests: 1, unpriced: e.cost === undefined ? 1 : 0, cost: e.cost ?? 0 });
  }
  return { ...s, byModel: sorted(byModel), byChannel: sorted(byChannel), bySource: sorted(bySource) };
}

export function summarizePeriod(state: SpendState, period: Period, now: number): SpendSummary {
  const { start, end } = periodRange(period, now);
  return summarize(state, start, end);
}
