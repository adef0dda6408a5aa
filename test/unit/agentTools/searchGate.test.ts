// The window's gate for workspace file searches (src/agentTools/searchGate.ts): a few at a time,
// identical ones shared, cancellation per caller.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { ToolCancelled } from '../../../src/agentTools/errors';
import { SearchGate, type CancelSource } from '../../../src/agentTools/searchGate';

/** A CancellationTokenSource without VS Code. */
function source(): CancelSource {
  const listeners = new Set<() => void>();
  let cancelled = false;
  const token = {
    get isCancellationRequested() {
      return cancelled;
    },
    onCancellationRequested: (l: () => void) => {
      listeners.add(l);
      return { dispose: () => listeners.delete(l) };
    },
  } as unknown as vscode.CancellationToken;
  return {
    token,
    cancel: () => {
      if (cancelled) return;
      cancelled = true;
      for (const l of [...listeners]) l();
    },
    dispose: () => listeners.clear(),
  };
}

/** A search the test finishes by hand; records its token. */
function manual() {
  const runs: { key: string; token: vscode.CancellationToken; finish: (v: string) => void; fail: (e: Error) => void }[] = [];
  const search = (key: string) => (token: vscode.CancellationToken) =>
    new Promise<string>((finish, fail) => {
      runs.push({ key, token, finish, fail });
    });
  return { runs, search };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('tool search gate', () => {
  it('runs identical searches that overlap once, and gives each caller the result', async () => {
    const gate = new SearchGate<string>(2, source);
    const { runs, search } = manual();
    const callers = Array.from({ length: 20 }, () => gate.run('k', search('k'), source().token));
    await tick();
    assert.equal(runs.length, 1, 'one search for twenty callers');
    runs[0]!.finish('files');
    assert.deepEqual(await Promise.all(callers), Array(20).fill('files'));
    assert.equal(gate.pending, 0);
    // a later identical call is a new search (nothing is cached after it settled)
    const later = gate.run('k', search('k'), source().token);
    await tick();
    assert.equal(runs.length, 2);
    runs[1]!.finish('again');
    assert.equal(await later, 'again');
  });

  it('runs at most `limit` different searches at once, the others in their order as places free up', async () => {
    const gate = new SearchGate<string>(2, source);
    const { runs, search } = manual();
    const results = Promise.allSettled(['a', 'b', 'c', 'd'].map((k) => gate.run(k, search(k), source().token)));
    await tick();
    assert.deepEqual(
      runs.map((r) => r.key),
      ['a', 'b'],
    );
    runs[1]!.finish('B');
    await tick();
    assert.deepEqual(
      runs.map((r) => r.key),
      ['a', 'b', 'c'],
    );
    runs[0]!.fail(new Error('no search'));
    await tick();
    assert.deepEqual(
      runs.map((r) => r.key),
      ['a', 'b', 'c', 'd'],
      'a failed search gives its place back too',
    );
    runs[2]!.finish('C');
    runs[3]!.finish('D');
    const settled = await results;
    assert.deepEqual(
      settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message)),
      ['no search', 'B', 'C', 'D'],
    );
  });

  it('a caller that cancels leaves at once; the search is cancelled only when no caller waits for it', async () => {
    const gate = new SearchGate<string>(1, source);
    const { runs, search } = manual();
    const first = source();
    const second = source();
    const a = gate.run('k', search('k'), first.token);
    const b = gate.run('k', search('k'), second.token);
    await tick();
    first.cancel();
    await assert.rejects(a, ToolCancelled);
    assert.equal(runs[0]!.token.isCancellationRequested, false, 'the other caller still waits');
    second.cancel();
    await assert.rejects(b, ToolCancelled);
    assert.equal(runs[0]!.token.isCancellationRequested, true, 'nobody waits: the search is cancelled');
    // a new identical call does not join the cancelled search; it waits for the place it holds
    const c = gate.run('k', search('k'), source().token);
    await tick();
    assert.equal(runs.length, 1);
    runs[0]!.finish('late');
    await tick();
    assert.equal(runs.length, 2);
    runs[1]!.finish('fresh');
    assert.equal(await c, 'fresh');
    // a search queued behind a full gate whose callers all left never starts
    const hold = gate.run('hold', search('hold'), source().token);
    const gone = source();
    const queued = gate.run('q', search('q'), gone.token);
    gone.cancel();
    await assert.rejects(queued, ToolCancelled);
    await tick();
    runs[2]!.finish('held');
    assert.equal(await hold, 'held');
    await tick();
    assert.deepEqual(
      runs.map((r) => r.key),
      ['k', 'k', 'hold'],
    );
    assert.equal(gate.pending, 0);
  });
});
