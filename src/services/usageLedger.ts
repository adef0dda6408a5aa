// Records what each request cost so the status bar can show the last request and the running
// totals. The totals and the last entry are kept in globalState so they survive a reload:
// figures only (model and channel ids, token counts, USD), never prompt text, never the key.
// Conversations keep their own per-answer figures (chat transcript).
// It also keeps the spend ledger (src/core/spend/spendBook.ts): every billed request with its source,
// for the budgets and "Modelgate: Show Spending", in files of this window's own in the folder all
// windows share, merged with the other windows' files on read (src/core/spend/sharedSpend.ts).
import * as vscode from 'vscode';
import { parseSpend, TITLE_CHARS, type SpendSource, type SpendState } from '../core/spend/spendBook';
import { SharedSpend } from '../core/spend/sharedSpend';
import type { SpendFiles } from '../core/spend/spendFolder';
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
  /** the extension that asked through vscode.lm or the image tool, when known ('core' = VS Code's chat) */
  requester?: string;
  /** the panel conversation the request belongs to (its id and current title) */
  conversation?: { id: string; title: string };
  at: number;
}

/** The part of vscode.Memento the ledger uses (globalState). */
export interface UsageStore {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

export const USAGE_STATE_KEY = 'modelgate.usageTotals';
/** where versions before the shared folder kept the ledger (read, merged, never written again) */
export const SPEND_STATE_KEY = 'modelgate.spend';

/** how often the ledger's folder's modification time is checked where file events do not arrive */
export const LEDGER_POLL_MS = 3_000;

/** A folder of the spend ledger's files, and how to hear that another window wrote there. */
export interface LedgerFolder extends SpendFiles {
  watch?(onChange: () => void): vscode.Disposable;
}

/** No folder (tests that only need this window's figures): the files live in memory. */
export class MemoryFolder implements SpendFiles {
  readonly files = new Map<string, string>();
  list = async () => [...this.files.keys()];
  read = async (name: string) => this.files.get(name);
  write = async (name: string, text: string) => void this.files.set(name, text);
  remove = async (name: string) => void this.files.delete(name);
}

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
  /** the spend ledger: this window's files in the shared folder, every window's merged on read */
  private readonly shared: SharedSpend;
  private readonly folder: LedgerFolder;
  /** the folder watcher, started on the first read (not at activation) */
  private watching: vscode.Disposable | undefined;
  private sequence = 0;
  /** the callers of the last vscode.lm requests ('' = not reported) */
  private readonly lmCallers: { at: number; requester: string }[] = [];
  private readonly recorded = new vscode.EventEmitter<UsageEntry>();
  readonly onDidRecord = this.recorded.event;
  private readonly changed = new vscode.EventEmitter<void>();
  /** another window's entries were read */
  readonly onDidChangeShared = this.changed.event;

  constructor(
    private readonly store?: UsageStore,
    folder: LedgerFolder = new MemoryFolder(),
    log?: (message: string) => void,
  ) {
    const saved = store?.get(USAGE_STATE_KEY) as { totals?: unknown; last?: unknown } | undefined;
    this.totals = parseTotals(saved?.totals, Date.now());
    this.lastEntry = this.totals.requests > 0 ? figuresOf(saved?.last) : undefined;
    let legacyRaw: unknown = null;
    let legacy: SpendState | undefined;
    this.shared = new SharedSpend(folder, {
      // parsed on first use, not at activation
      legacy: () => {
        const raw = store?.get(SPEND_STATE_KEY);
        if (raw !== legacyRaw || !legacy) [legacyRaw, legacy] = [raw, parseSpend(raw)];
        return legacy;
      },
      onError: (err) => log?.(`Spend ledger: ${err instanceof Error ? err.message : String(err)}`),
    });
    this.folder = folder;
  }

  /** this window's id in the shared folder (its files' names) */
  get windowId(): string {
    return this.shared.windowId;
  }

  /** Reads every window's ledger files again (before a budget check, when the spending page opens). */
  refreshSpend(): Promise<void> {
    // from the first read on, another window's entries arrive without anyone asking (the spending page redraws)
    this.watching ??= this.folder.watch?.(() => void this.shared.refresh().then(() => this.changed.fire())) ?? { dispose: () => undefined };
    return this.shared.refresh();
  }

  /** As a window reload does: forgets what was read and reads every window's files again. */
  reloadSpend(): Promise<void> {
    return this.shared.reload();
  }

  /** Resolves once every request recorded so far is in this window's file. */
  whenWritten(): Promise<void> {
    return this.shared.whenWritten();
  }

  /** What the other windows' requests in flight reserve against the budgets (as last read). */
  othersReserved(): number {
    return this.shared.othersReserved();
  }

  /** Tells the other windows what this window's requests in flight reserve (after its entries are on disk). */
  publishReserved(usd: number): Promise<void> {
    return this.shared.publishReserved(usd);
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

  /**
   * The extension whose vscode.lm requests this window answered in the last `withinMs`, when it
   * was exactly one. VS Code does not tell a tool who invoked it; an agent that calls the image
   * tool has just had an answer from a model, so this names it when nothing else could be the caller.
   */
  recentLmRequester(withinMs = 120_000, now = Date.now()): string | undefined {
    const callers = new Set(this.lmCallers.filter((c) => now - c.at <= withinMs).map((c) => c.requester));
    return callers.size === 1 ? [...callers][0] : undefined;
  }

  record(entry: Omit<UsageEntry, 'at'>): void {
    const e = { ...entry, at: Date.now() };
    if (e.via === 'lm') {
      this.lmCallers.push({ at: e.at, requester: e.requester ?? '' });
      if (this.lmCallers.length > 50) this.lmCallers.splice(0, this.lmCallers.length - 50);
    }
    // A completion as you type is not the status bar's "last request" (it would change at every
    // pause in typing); it counts in the totals and the ledger like any request.
    if (e.via !== 'completions') this.lastEntry = e;
    this.totals = addToTotals(this.totals, e.cost);
    void this.store?.update(USAGE_STATE_KEY, { totals: this.totals, last: this.lastEntry ? figuresOf(this.lastEntry) : undefined });
    const u = e.usage;
    // In this window's ledger at once (the budgets count it from now on); written by the queue.
    this.shared.append({
      id: `${this.windowId}-${++this.sequence}`,
      at: e.at,
      source: e.via ?? (e.source === 'image' ? 'image' : 'panel'),
      ...(e.requester ? { requester: e.requester.slice(0, 200) } : {}),
      ...(e.conversation?.id
        ? { conversation: e.conversation.id.slice(0, 100), ...(e.conversation.title ? { title: e.conversation.title.slice(0, TITLE_CHARS) } : {}) }
        : {}),
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

  /** the spend ledger (every billed request, bounded): every window's, as last read */
  spend(): SpendState {
    return this.shared.current();
  }

  last(): UsageEntry | undefined {
    return this.lastEntry;
  }

  /** running total of priced requests (since `since`), and how many requests had no price */
  total(): UsageTotals {
    return { ...this.totals };
  }

  dispose(): void {
    this.watching?.dispose();
    this.changed.dispose();
    this.recorded.dispose();
  }
}
