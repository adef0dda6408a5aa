// Records what each request cost so the status bar can show the last request and the running
// totals. The totals and the last entry are kept in globalState so they survive a reload:
// figures only (model and channel ids, token counts, USD), never prompt text, never the key.
// Conversations keep their own per-answer figures (chat transcript).
import * as vscode from 'vscode';
import type { Usage } from '../core/types';
import { addToTotals, parseTotals, type UsageTotals } from '../core/usageTotals';

export interface UsageEntry {
  source: 'chat' | 'image';
  model: string;
  channel: string;
  usage?: Usage;
  /** USD; undefined when no price is configured for this model and channel */
  cost?: number;
  /** images generated, for image requests */
  images?: number;
  at: number;
}

/** The part of vscode.Memento the ledger uses (globalState). */
export interface UsageStore {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

export const USAGE_STATE_KEY = 'modelgate.usageTotals';

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Only the figures of an entry, checked, so nothing else can reach globalState or back. */
function figuresOf(raw: unknown): UsageEntry | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  if ((r.source !== 'chat' && r.source !== 'image') || typeof r.model !== 'string' || typeof r.channel !== 'string' || !num(r.at)) return undefined;
  const u = r.usage as Record<string, unknown> | undefined;
  const usage = u && num(u.promptTokens) && num(u.completionTokens) && num(u.cachedTokens)
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
  private readonly recorded = new vscode.EventEmitter<UsageEntry>();
  readonly onDidRecord = this.recorded.event;

  constructor(private readonly store?: UsageStore) {
    const saved = store?.get(USAGE_STATE_KEY) as { totals?: unknown; last?: unknown } | undefined;
    this.totals = parseTotals(saved?.totals, Date.now());
    this.lastEntry = this.totals.requests > 0 ? figuresOf(saved?.last) : undefined;
  }

  record(entry: Omit<UsageEntry, 'at'>): void {
    const e = { ...entry, at: Date.now() };
    this.lastEntry = e;
    this.totals = addToTotals(this.totals, e.cost);
    void this.store?.update(USAGE_STATE_KEY, { totals: this.totals, last: figuresOf(e) });
    this.recorded.fire(e);
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
