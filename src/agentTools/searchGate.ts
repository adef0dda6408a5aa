// The workspace file searches of the tools (vscode.workspace.findFiles), window-wide: at most
// MAX_RUNNING_FILE_SEARCHES at once, and identical searches that overlap share one.
//
// Why (measured in the host-responsiveness suite): in a remote or web workspace VS Code
// answers findFiles in this extension host by spawning ripgrep, and child_process.spawn blocks the
// host's thread until the child has started. Twenty search_text calls of one tool round made twenty
// findFiles requests, whose spawns ran back to back in one turn of the event loop: 0.3 to 0.5 s of
// frozen host on a loaded machine (up to 120 ms for one spawn there). Now each spawn has a turn of
// its own, and repeated searches of a round (the same glob in several calls) cost one.
import type * as vscode from 'vscode';
import { ToolCancelled } from './errors';

/** Searches running at once, over all tool calls of the window. */
export const MAX_RUNNING_FILE_SEARCHES = 2;

/** What the gate needs of a vscode.CancellationTokenSource. */
export interface CancelSource {
  readonly token: vscode.CancellationToken;
  cancel(): void;
  dispose(): void;
}

interface Shared<T> {
  promise: Promise<T>;
  source: CancelSource;
  /** callers still waiting for the result; the search is cancelled when the last one leaves */
  waiters: number;
}

export class SearchGate<T> {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly inFlight = new Map<string, Shared<T>>();

  constructor(
    private readonly limit: number,
    private readonly newSource: () => CancelSource,
  ) {}

  /**
   * The result of `search`, run when a place is free, or of the identical search (`key`) that is
   * already queued or running. Rejects with ToolCancelled as soon as `token` fires; the search
   * itself is cancelled once no caller waits for it.
   */
  run(key: string, search: (token: vscode.CancellationToken) => Thenable<T>, token: vscode.CancellationToken): Promise<T> {
    if (token.isCancellationRequested) return Promise.reject(new ToolCancelled());
    const shared = this.inFlight.get(key) ?? this.start(key, search);
    shared.waiters++;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (): boolean => {
        if (settled) return false;
        settled = true;
        sub.dispose();
        return true;
      };
      const sub = token.onCancellationRequested(() => {
        if (!finish()) return;
        reject(new ToolCancelled());
        if (--shared.waiters === 0) {
          if (this.inFlight.get(key) === shared) this.inFlight.delete(key);
          shared.source.cancel();
        }
      });
      shared.promise.then(
        (v) => finish() && resolve(v),
        (e: unknown) => finish() && reject(e instanceof Error ? e : new Error(String(e))),
      );
    });
  }

  /** Searches queued or running (for tests). */
  get pending(): number {
    return this.inFlight.size;
  }

  private start(key: string, search: (token: vscode.CancellationToken) => Thenable<T>): Shared<T> {
    const source = this.newSource();
    const shared: Shared<T> = { promise: Promise.resolve(undefined as T), source, waiters: 0 };
    shared.promise = (async () => {
      const release = await this.slot();
      try {
        if (source.token.isCancellationRequested) throw new ToolCancelled();
        return await search(source.token);
      } finally {
        release();
        if (this.inFlight.get(key) === shared) this.inFlight.delete(key);
        source.dispose();
      }
    })();
    shared.promise.catch(() => undefined); // each caller gets the rejection; none may be left unhandled
    this.inFlight.set(key, shared);
    return shared;
  }

  /** Waits for a free place (first come, first served); resolves to the function that gives it back. */
  private async slot(): Promise<() => void> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next(); // the place passes on
      else this.running--;
    };
  }
}
