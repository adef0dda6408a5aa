import type * as vscode from 'vscode';
import { ToolCancelled } from './errors';

export function throwIfCancelled(token: vscode.CancellationToken): void {
  if (token.isCancellationRequested) throw new ToolCancelled();
}

/**
 * Resolves with `work`, or rejects with ToolCancelled as soon as the token fires: a slow file system
 * (network share, remote) must not keep a stopped answer waiting.
 */
export function raceCancellation<T>(work: Thenable<T>, token: vscode.CancellationToken): Promise<T> {
  if (token.isCancellationRequested) return Promise.reject(new ToolCancelled());
  return new Promise<T>((resolve, reject) => {
    const sub = token.onCancellationRequested(() => {
      sub.dispose();
      reject(new ToolCancelled());
    });
    work.then(
      (v) => {
        sub.dispose();
        resolve(v);
      },
      (e: unknown) => {
        sub.dispose();
        reject(e);
      },
    );
  });
}

/** Runs `fn` over `items` with at most `limit` in flight, in order of the input; stops on cancellation. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, token: vscode.CancellationToken, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      throwIfCancelled(token);
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return out;
}
