// The spend ledger's one writer per window and its merge on write: requests
// that end together all reach the store, a write in flight never replaces another, VS Code
// echoing an earlier write back into globalState loses nothing, and another window's entries
// are never dropped. The store here behaves like globalState: update() keeps a copy at once and
// confirms later; `echo()` puts an older copy back, as the extension host does when the main
// thread reports an earlier write.
import * as assert from 'node:assert/strict';
import { addSpend, emptySpend, summarize, type SpendEntry, type SpendState } from '../../../../src/core/spend/spendBook';
import { mergeSpend } from '../../../../src/core/spend/spendMerge';
import { SpendWriter, type SpendStore } from '../../../../src/core/spend/spendWriter';

const KEY = 'modelgate.spend';
const T0 = new Date(2026, 10, 25, 12).getTime();
const entry = (id: string, i: number, cost = 0.001): SpendEntry => ({
  id,
  at: T0 + i,
  source: 'lm',
  model: 'flagship-text',
  channel: 'stable',
  promptTokens: 10,
  cachedTokens: 0,
  completionTokens: 5,
  images: 0,
  cost,
});

class FakeGlobalState implements SpendStore {
  value: unknown;
  readonly history: unknown[] = [];
  private readonly pending: (() => void)[] = [];
  get(key: string): unknown {
    assert.equal(key, KEY);
    return this.value;
  }
  update(key: string, value: unknown): Promise<void> {
    assert.equal(key, KEY);
    this.value = JSON.parse(JSON.stringify(value)); // a copy, as ExtensionMemento keeps one
    this.history.push(this.value);
    return new Promise((resolve) => this.pending.push(resolve));
  }
  /** confirms the oldest write still open */
  confirm(): boolean {
    const next = this.pending.shift();
    next?.();
    return !!next;
  }
  get open(): number {
    return this.pending.length;
  }
  /** the main thread reports write `i` back: globalState holds that older copy again */
  echo(i: number): void {
    this.value = JSON.parse(JSON.stringify(this.history[i]));
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));
async function confirmAll(store: FakeGlobalState, writer: SpendWriter): Promise<void> {
  for (;;) {
    await tick();
    if (!store.confirm()) break;
  }
  await writer.whenWritten();
}
const stored = (store: FakeGlobalState) => store.value as SpendState;
const ids = (s: SpendState) => s.entries.map((e) => e.id).sort();

describe('spend ledger writer: one queue per window, merge on write', () => {
  it('8 requests that end together: one write in flight at a time, all 8 in the store', async () => {
    const store = new FakeGlobalState();
    const writer = new SpendWriter(store, KEY);
    for (let i = 0; i < 8; i++) writer.append(entry(`w-${i}`, i));
    assert.equal(writer.current().entries.length, 8, 'the budgets see all 8 at once');
    assert.equal(store.open, 1, 'one write in flight, the rest queued behind it');
    await confirmAll(store, writer);
    assert.equal(stored(store).entries.length, 8);
    assert.ok(store.history.length <= 3, `appends made during a write go out together (${store.history.length} writes)`);
  });

  it('an echo of an earlier write (globalState going back to an older copy) loses nothing', async () => {
    const store = new FakeGlobalState();
    const writer = new SpendWriter(store, KEY);
    writer.append(entry('w-0', 0));
    await tick();
    writer.append(entry('w-1', 1));
    store.confirm();
    await tick();
    store.echo(0); // globalState holds only w-0 again
    writer.append(entry('w-2', 2));
    await confirmAll(store, writer);
    assert.deepEqual(ids(stored(store)), ['w-0', 'w-1', 'w-2']);
    assert.deepEqual(ids(writer.current()), ['w-0', 'w-1', 'w-2']);
  });

  it('an echo of an earlier write that comes last is written over again at the next read, so a reload finds every request', async () => {
    const store = new FakeGlobalState();
    const writer = new SpendWriter(store, KEY);
    writer.append(entry('w-0', 0));
    await tick();
    writer.append(entry('w-1', 1));
    await confirmAll(store, writer);
    store.echo(0); // the last report the extension host gets is of the first write
    assert.deepEqual(ids(writer.current()), ['w-0', 'w-1'], 'this window still counts both');
    await confirmAll(store, writer);
    assert.deepEqual(ids(stored(store)), ['w-0', 'w-1'], 'the store has both again');
    writer.reload();
    assert.deepEqual(ids(writer.current()), ['w-0', 'w-1'], 'and a reload reads both');
  });

  it("another window's entries written meanwhile are kept", async () => {
    const store = new FakeGlobalState();
    const a = new SpendWriter(store, KEY);
    a.append(entry('a-0', 0));
    // window B read the store before A's write, and writes its own entry over it
    store.value = { entries: [entry('b-0', 1)], days: [] };
    a.append(entry('a-1', 2));
    await confirmAll(store, a);
    assert.deepEqual(ids(stored(store)), ['a-0', 'a-1', 'b-0']);
  });

  it('a reload reads the store, and keeps what this window has not written yet', async () => {
    const store = new FakeGlobalState();
    const writer = new SpendWriter(store, KEY);
    writer.append(entry('w-0', 0));
    writer.append(entry('w-1', 1));
    store.echo(0);
    store.value = { entries: [], days: [] }; // the store has not got them yet
    writer.reload();
    assert.deepEqual(ids(writer.current()), ['w-0', 'w-1']);
    await confirmAll(store, writer);
    writer.reload();
    assert.deepEqual(ids(writer.current()), ['w-0', 'w-1']);
  });

  it('a failed write keeps its entries for the next one', async () => {
    let fail = true;
    let value: unknown;
    const store: SpendStore = {
      get: () => value,
      update: (_k, v) => ((value = fail ? value : v), fail ? Promise.reject(new Error('disk full')) : Promise.resolve()),
    };
    const errors: unknown[] = [];
    const writer = new SpendWriter(store, KEY, undefined, (e) => errors.push(e));
    writer.append(entry('w-0', 0));
    await writer.whenWritten();
    assert.equal(errors.length, 1);
    fail = false;
    writer.append(entry('w-1', 1));
    await writer.whenWritten();
    assert.deepEqual(ids(value as SpendState), ['w-0', 'w-1']);
  });
});

describe('spend ledger merge', () => {
  const fill = (entries: SpendEntry[], maxRaw: number) => entries.reduce((s, e) => addSpend(s, e, maxRaw), emptySpend());

  it('unites two copies by id; with the oldest folded into days (each copy at its own point), every request counts once', () => {
    const shared = Array.from({ length: 6 }, (_, i) => entry(`e-${i}`, i, 0.01));
    const a = fill([...shared, entry('a-6', 6, 0.1), entry('a-7', 7, 0.1)], 4); // folded e-0..e-3
    const b = fill([...shared.slice(0, 5), entry('b-5', 5, 1), shared[5]!, entry('b-8', 8, 1)], 5); // folded e-0..e-2
    const merged = mergeSpend(a, b, 4);
    assert.equal(merged.entries.length, 4);
    const s = summarize(merged, 0, T0 + 100);
    assert.equal(s.requests, 10, '6 shared + 2 of a + 2 of b');
    assert.equal(Math.round(s.cost * 1e6), Math.round((6 * 0.01 + 2 * 0.1 + 2 * 1) * 1e6));
    const again = mergeSpend(merged, b, 4);
    assert.equal(summarize(again, 0, T0 + 100).requests, 10, 'merging what it already holds adds nothing');
    assert.equal(summarize(mergeSpend(b, merged, 4), 0, T0 + 100).requests, 10, 'in either order');
  });

  it('never adds an entry again once a copy folded it', () => {
    const all = Array.from({ length: 6 }, (_, i) => entry(`e-${i}`, i, 1));
    const folded = fill(all, 3); // e-0..e-2 folded into the day
    const old = fill(all.slice(0, 4), 100); // a copy from before the fold
    const merged = mergeSpend(old, folded, 3);
    assert.equal(summarize(merged, 0, T0 + 100).requests, 6);
    assert.equal(summarize(merged, 0, T0 + 100).cost, 6);
  });

  it('keeps entries stored before ids (no id) without doubling them', () => {
    const { id: _drop, ...legacy } = entry('x', 0);
    void _drop;
    const a: SpendState = { entries: [legacy, legacy], days: [] };
    const merged = mergeSpend(a, { entries: [legacy], days: [] });
    assert.equal(merged.entries.length, 2);
  });
});
