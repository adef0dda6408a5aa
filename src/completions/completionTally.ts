// Today's shown and accepted completions (the acceptance rate in the status bar's tooltip) and the
// typing rhythm the adaptive delay learned, both kept in globalState so a reload keeps them. One
// per window, made when the completions bundle is first needed (featureLoading/lazyFeatures.ts).
import type * as vscode from 'vscode';
import { today, type CompletionDay } from '../core/completions/completionDay';

export const DAY_KEY = 'modelgate.completions.today';
export const TYPING_KEY = 'modelgate.completions.typing';

interface Memento {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

export class CompletionTally implements vscode.Disposable {
  #day: CompletionDay;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;

  /** `changed`: what the status bar shows changed (CompletionsState.notify). */
  constructor(
    private readonly memento: Memento,
    private readonly changed: () => void,
    private readonly now: () => number = Date.now,
  ) {
    this.#day = today(memento.get(DAY_KEY), now());
  }

  /** Today's shown and accepted completions. */
  day(): CompletionDay {
    const d = today(this.#day, this.now());
    if (d.day !== this.#day.day) this.#day = d;
    return { ...this.#day };
  }

  noteShown(): void {
    this.#count('shown');
  }

  noteAccepted(): void {
    this.#count('accepted');
  }

  #count(what: 'shown' | 'accepted'): void {
    this.#day = today(this.#day, this.now());
    this.#day[what]++;
    this.changed();
    // one write per burst
    this.#saveTimer ??= setTimeout(() => {
      this.#saveTimer = undefined;
      void this.memento.update(DAY_KEY, this.#day);
    }, 2000);
  }

  /** The typing rhythm and acceptance the delay learned (TypingDelay's JSON). */
  typing(): unknown {
    return this.memento.get(TYPING_KEY);
  }

  saveTyping(state: unknown): Thenable<void> {
    return this.memento.update(TYPING_KEY, state);
  }

  dispose(): void {
    if (!this.#saveTimer) return;
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    void this.memento.update(DAY_KEY, this.#day);
  }
}
