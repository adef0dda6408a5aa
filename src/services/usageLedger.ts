// Records what each request cost so the status bar can show the last request and the running
// totals. The totals and the last entry are kept in globalState so they survive a reload:
// figures only (model and channel ids, token counts, USD), never prompt text, never the key.
// Conversations keep their own per-answer figures (chat transcript).
// It also keeps the spend ledger (src/core/spend/spendBook.ts): every billed request with its source,
// persisted (bounded) under its own key, for the budgets and "Modelgate: Show Spending".
import * as vscode from 'vscode';
import type { SpendSource, SpendState } from '../core/spend/spendBook';
import { SpendWriter } from '../core/spend/spendWriter';
import type { Usage } from '../core/client/types';
import { addToTotals, parseTotals, type UsageTotals } from '../core/spend/usageTotals';

export interface UsageEntry {
  source: 'chat' | 'image';
  model: string;
  channel: string;
  usage?: Usage;
  /** USD; undefined when no price is configured for this model and channel */
  cost?: number;
  /** images generated, for image requests */
  images?: number;
  /** where the request came from; default: 'image' for images, 'panel' for chat */
  via?: SpendSource;
  /** the extension that asked through vscode.lm, when VS Code says ('core' = VS Code itself) */
  requester?: string;
  at: number;
}

/** The part of vscode.Memento the ledger uses (globalState). */
export interface UsageStore {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

export const USAGE_STATE_KEY = 'modelgate.usageTotals';
export const SPEND_STATE_KEY = 'modelgate.spend';

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Only the figures of an entry, checked, so nothing else can reach globalState or back. */
function figuresOf(raw: unknown): UsageEntry | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  if ((r.source !== 'chat' && r.source !== 'image') || typeof r.model !== 'string' || typeof r.channel !== 'string' || !num(r.at)) return undefined;
  const u = r.usage as Record<string, unknown> | undefined;
  const usage =
    u && num(u.promptTokens) && num(u.completionTokens) && num(u.cachedTokens)
      ? { promptTokens: u.promptTokens, completionTokens: u.completionTokens, cachedTokens: u.cachedTokens }
      : undefined;
  return {
    source: r.source,
    model: r.model.slice(0, 200),
    channel: r.channel.slice(0, 50),
    at: r.at,
    ...(usage ? { usage } : {}),
    ...(num(r.cost) ? { cost: r.cost } : {}),
    ...(num(r.images) ? { images: r.images } : {}),
  };
}

export class UsageLedger implements vscode.Disposable {
  private lastEntry: UsageEntry | undefined;
  private totals: UsageTotals;
  /** the spend ledger's one writer in this window (appends queued, merged on write, never lost) */
  private readonly writer: SpendWriter;
  /** this window's part of each entry's id: entries are told apart when two windows' writes merge */
  private readonly windowId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  private sequence = 0;
  private readonly recorded = new vscode.EventEmitter<UsageEntry>();
  readonly onDidRecord = this.recorded.event;

  constructor(private readonly store?: UsageStore) {
    const saved = store?.get(USAGE_STATE_KEY) as { totals?: unknown; last?: unknown } | undefined;
    this.totals = parseTotals(saved?.totals, Date.now());
    this.lastEntry = this.totals.requests > 0 ? figuresOf(saved?.last) : undefined;
    // the ledger (up to 1,000 entries) is read from the store on first use, not at activation
    this.writer = new SpendWriter(store, SPEND_STATE_KEY);
  }

  /**
   * Reads the spend ledger again from the store. With `force` (a window reload, in tests) this
   * window's copy is dropped, except what it recorded that is still on its way to the store.
   */
  reloadSpend(force = false): void {
    if (force) this.writer.reload();
    else this.writer.current();
  }

  /** Resolves once every request recorded so far is in globalState. */
  whenWritten(): Promise<void> {
    return this.writer.whenWritten();
  }

  /**
   * Records a chat answer's request. One the gateway started answering is billed even when it
   * was stopped (or cut off) before its usage arrived: it is then recorded with an unknown cost,
   * never as $0. One that never got an answer and reported no usage is not recorded.
   */
  recordAnswer(entry: Omit<UsageEntry, 'at'>, answered: boolean): void {
    if (!entry.usage && !answered) return;
    this.record(entry.usage ? entry : { ...entry, cost: undefined });
  }

  record(entry: Omit<UsageEntry, 'at'>): void {
    const e = { ...entry, at: Date.now() };
    // A completion as you type is not the status bar's "last request" (it would change at every
    // pause in typing); it counts in the totals and the ledger like any request.
    if (e.via !== 'completions') this.lastEntry = e;
    this.totals = addToTotals(this.totals, e.cost);
    void this.store?.update(USAGE_STATE_KEY, { totals: this.totals, last: this.lastEntry ? figuresOf(this.lastEntry) : undefined });
    const u = e.usage;
    // In this window's ledger at once (the budgets count it from now on); written by the queue.
    this.writer.append({
      id: `${this.windowId}-${++this.sequence}`,
      at: e.at,
      source: e.via ?? (e.source === 'image' ? 'image' : 'panel'),
      ...(e.requester ? { requester: e.requester.slice(0, 200) } : {}),
      model: e.model.slice(0, 200),
      channel: e.channel.slice(0, 50),
      promptTokens: u?.promptTokens ?? 0,
      cachedTokens: u?.cachedTokens ?? 0,
      completionTokens: u?.completionTokens ?? 0,
      images: e.images ?? 0,
      ...(typeof e.cost === 'number' && Number.isFinite(e.cost) ? { cost: e.cost } : {}),
    });
    this.recorded.fire(e);
  }

  /** the spend ledger (every billed request, bounded), as last stored by any window */
  spend(): SpendState {
    return this.writer.current();
  }

  last(): UsageEntry | undefined {
    return this.lastEntry;
  }

  /** running total of priced requests (since `since`), and how many requests had no price */
  total(): UsageTotals {
    return { ...this.totals };
  }

  dispose(): void {
    this.recorded.dispose();
  }
}
