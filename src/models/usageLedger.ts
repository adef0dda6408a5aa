// Records what each request cost, in memory, so the status bar can show the last request and
// the session's total. Conversations keep their own per-answer figures (chat transcript).
import * as vscode from 'vscode';
import type { Usage } from '../core/types';

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

export class UsageLedger implements vscode.Disposable {
  private readonly entries: UsageEntry[] = [];
  private readonly recorded = new vscode.EventEmitter<UsageEntry>();
  readonly onDidRecord = this.recorded.event;

  record(entry: Omit<UsageEntry, 'at'>): void {
    const e = { ...entry, at: Date.now() };
    this.entries.push(e);
    if (this.entries.length > 1000) this.entries.shift();
    this.recorded.fire(e);
  }

  last(): UsageEntry | undefined {
    return this.entries[this.entries.length - 1];
  }

  /** session total of priced requests, and whether some requests had no price */
  total(): { cost: number; unpriced: number; requests: number } {
    let cost = 0;
    let unpriced = 0;
    for (const e of this.entries) {
      if (e.cost === undefined) unpriced++;
      else cost += e.cost;
    }
    return { cost, unpriced, requests: this.entries.length };
  }

  dispose(): void {
    this.recorded.dispose();
  }
}
