// The context windows the gateway named in its overflow errors, kept in globalState across reloads
// (model ids and token counts only) and shared by every window: read on each use, so a window that
// learned one teaches the others. The rules are src/core/compaction/learnedWindows.ts.
import { effectiveWindow, learnWindow, parseLearnedWindows, type LearnedWindows } from '../core/compaction/learnedWindows';

export const LEARNED_WINDOWS_KEY = 'modelgate.learnedWindows';

/** The part of vscode.Memento the store uses (globalState). */
export interface WindowMemento {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

export class LearnedWindowStore {
  /** what this window learned last (globalState's update is asynchronous) */
  #own: LearnedWindows | undefined;
  readonly #listeners = new Set<() => void>();

  constructor(private readonly memento?: WindowMemento) {}

  #read(): LearnedWindows {
    const stored = parseLearnedWindows(this.memento?.get(LEARNED_WINDOWS_KEY));
    return this.#own ? { ...stored, ...this.#own } : stored;
  }

  /** The window in effect for a model on a channel: `configured`, or the smaller one the gateway named. */
  window(model: string, channel: string, configured: number): number {
    return effectiveWindow(this.#read(), model, channel, configured);
  }

  /** An overflow error named `named` tokens: true when that is news (smaller than the window in effect), and it is kept. */
  learn(model: string, channel: string, named: number, configured: number): boolean {
    const next = learnWindow(this.#read(), { model, channel, named, configured, now: Date.now() });
    if (!next) return false;
    this.#own = next;
    void this.memento?.update(LEARNED_WINDOWS_KEY, next);
    for (const listener of [...this.#listeners]) listener();
    return true;
  }

  /** Calls back when this window learned a window (the panel or the vscode.lm provider): what VS Code is told about the model changes. */
  onDidLearn(listener: () => void): { dispose(): void } {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }
}
