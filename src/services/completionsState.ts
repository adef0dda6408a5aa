// What the status bar and the completions feature share about completions as you type: the
// snooze (kept in globalState, so a reload keeps it) and what currently stops completions (a
// budget, the daily cap, an error backing off). The feature writes it as it works; the status bar
// reads it, and works before the feature is built (the feature loads on the first keystroke that
// may complete). Today's counts and the learned typing rhythm are in the completions bundle
// (src/completions/completionTally.ts): activation does not need them.
import * as vscode from 'vscode';
import { parseSnooze, type Snooze } from '../core/completions/completionDay';
import type { CompletionStop } from '../core/completions/completionCost';
import type { TroubleState } from '../core/completions/completionTrouble';
import type { ChannelChoice } from '../core/catalogue/modelCatalogue';

/** The answer to "Turn on completions?": on, choose the model first, or nothing (Cancel). */
export type TurnOnAnswer = 'on' | 'choose' | undefined;
/** Asks before turning completions on; `cost` is "about $2.59 per hour of typing" or why there is no figure. */
export type TurnOnAsk = (model: string, channel: ChannelChoice, cost: string) => Thenable<TurnOnAnswer>;

export const SNOOZE_KEY = 'modelgate.completions.snooze';

interface Memento {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

export class CompletionsState implements vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.#changed.event;
  #stop: CompletionStop | undefined;
  #trouble: TroubleState | undefined;
  #wake: ReturnType<typeof setTimeout> | undefined;
  /** replaces the question before turning completions on (tests; the modal cannot be clicked from the extension host) */
  turnOnAsk: TurnOnAsk | undefined;

  constructor(
    private readonly memento: Memento,
    private readonly now: () => number = Date.now,
  ) {
    this.#armWake();
  }

  /** The snooze in force now, if any. */
  snooze(): Snooze | undefined {
    return parseSnooze(this.memento.get(SNOOZE_KEY), this.now());
  }

  snoozed(): boolean {
    return this.snooze() !== undefined;
  }

  /** Snoozes for `ms`, or until turned on again; undefined resumes. */
  async setSnooze(snooze: { forMs: number } | 'untilOn' | undefined): Promise<void> {
    const value = snooze === undefined ? undefined : snooze === 'untilOn' ? 'untilOn' : this.now() + snooze.forMs;
    await this.memento.update(SNOOZE_KEY, value);
    this.#armWake();
    this.#changed.fire();
  }

  /** The status bar shows the end of a timed snooze when it comes. */
  #armWake(): void {
    if (this.#wake) clearTimeout(this.#wake);
    this.#wake = undefined;
    const s = this.snooze();
    if (typeof s === 'number') this.#wake = setTimeout(() => this.#changed.fire(), Math.min(s - this.now() + 50, 2 ** 31 - 1));
  }

  /** What stops completions for money (a budget, the daily cap, no price while one is set); the feature sets it. */
  get stop(): CompletionStop | undefined {
    return this.#stop;
  }

  setStop(stop: CompletionStop | undefined): void {
    if (sameStop(stop, this.#stop)) return;
    this.#stop = stop;
    this.#changed.fire();
  }

  /** The error completions back off from, shown once; cleared by a success or what it waits for. */
  get trouble(): TroubleState | undefined {
    return this.#trouble;
  }

  setTrouble(trouble: TroubleState | undefined): void {
    this.#trouble = trouble;
    this.#changed.fire();
  }

  /** Something the status bar shows changed (today's counts). */
  notify(): void {
    this.#changed.fire();
  }

  dispose(): void {
    if (this.#wake) clearTimeout(this.#wake);
    this.#changed.dispose();
  }
}

function sameStop(a: CompletionStop | undefined, b: CompletionStop | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'budget' && b.kind === 'budget') return a.status.kind === b.status.kind;
  if (a.kind === 'unpriced' && b.kind === 'unpriced') return a.model === b.model;
  return true;
}
