// The spend ledger across windows: each window writes files of its own in one shared folder and
// reads everyone's. The folder here behaves like a disk shared by several extension hosts: every
// call takes a random few milliseconds, so writes and reads of two windows interleave, and a
// file can be caught half-written or removed between a listing and its read.
import * as assert from 'node:assert/strict';
import { budgetStatuses, exhausted } from '../../../../src/core/spend/budget';
import { Reservations, type Hold } from '../../../../src/core/spend/reservations';
import { admitAcrossWindows } from '../../../../src/core/spend/windowAdmission';
import { SharedSpend } from '../../../../src/core/spend/sharedSpend';
import { summarize, type SpendEntry } from '../../../../src/core/spend/spendBook';
import { COMPACT_AT_FILES, SEALED_AFTER_MS, SEGMENT_ENTRIES, segmentName, type SpendFiles } from '../../../../src/core/spend/spendFolder';

const T0 = new Date(2026, 10, 25, 12).getTime();

function mulberry(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A shared folder with random latency; `torn` makes a read of a file being written see half of it. */
class SlowFolder implements SpendFiles {
  readonly files = new Map<string, string>();
  private readonly writingNow = new Map<string, string>();
  constructor(
    private readonly random: () => number,
    private readonly torn = false,
  ) {}
  private wait = () => new Promise<void>((r) => setTimeout(r, Math.floor(this.random() * 3)));
  async list() {
    await this.wait();
    return [...this.files.keys()];
  }
  async read(name: string) {
    await this.wait();
    const partial = this.writingNow.get(name);
    if (this.torn && partial !== undefined) return partial.slice(0, partial.length >> 1);
    return this.files.get(name);
  }
  async write(name: string, text: string) {
    this.writingNow.set(name, text);
    await this.wait();
    this.files.set(name, text);
    this.writingNow.delete(name);
  }
  async remove(name: string) {
    await this.wait();
    this.files.delete(name);
  }
}

const entry = (id: string, at: number, cost = 0.001): SpendEntry => ({
  id,
  at,
  source: 'lm',
  model: 'flagship-text',
  channel: 'stable',
  promptTokens: 10,
  cachedTokens: 0,
  completionTokens: 5,
  images: 0,
  cost,
});

const ids = (s: SpendSpendLike) => new Set(s.entries.map((e) => e.id));
type SpendSpendLike = ReturnType<SharedSpend['current']>;

/** Two windows each record 8 and then 32 requests at once; `now` moves on by 1 ms per call. */
async function twoWindowsBurst(folder: SpendFiles, clock: { t: number }): Promise<string[]> {
  const now = () => clock.t++;
  const a = new SharedSpend(folder, { now, windowId: 'wina' });
  const b = new SharedSpend(folder, { now, windowId: 'winb' });
  const expected: string[] = [];
  for (const burst of [8, 32]) {
    const jobs: Promise<void>[] = [];
    for (let i = 0; i < burst; i++) {
      for (const [w, name] of [
        [a, 'a'],
        [b, 'b'],
      ] as const) {
        const id = `${name}-${burst}-${i}`;
        expected.push(id);
        // the requests end at random moments, interleaved with the other window's reads
        jobs.push(
          new Promise<void>((r) => setTimeout(r, i % 5)).then(async () => {
            w.append(entry(id, now()));
            if (i % 3 === 0) await w.refresh();
          }),
        );
      }
    }
    await Promise.all(jobs);
  }
  await Promise.all([a.whenWritten(), b.whenWritten()]);
  return expected;
}

describe('spend ledger across windows (shared folder, per-window files)', () => {
  it('two windows each recording 8 and then 32 requests at once: a third window reads all 80, in 20 seeded runs', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const folder = new SlowFolder(mulberry(seed));
      const clock = { t: T0 };
      const expected = await twoWindowsBurst(folder, clock);
      const third = new SharedSpend(folder, { now: () => clock.t, windowId: 'winc' });
      await third.refresh();
      assert.deepEqual(ids(third.current()), new Set(expected), `seed ${seed}`);
      assert.equal(summarize(third.current(), 0, Infinity).requests, 80);
    }
  });

  it('a file caught half-written keeps its last good copy; a reader that never saw it reads it whole on the next refresh', async () => {
    const folder = new SlowFolder(mulberry(7), true);
    const clock = { t: T0 };
    const expected = await twoWindowsBurst(folder, clock);
    const third = new SharedSpend(folder, { now: () => clock.t, windowId: 'winc' });
    await third.refresh();
    assert.deepEqual(ids(third.current()), new Set(expected));
  });

  it("each window's own appends count at once, before any write, and the other window's after a refresh", async () => {
    const folder = new SlowFolder(mulberry(3));
    const a = new SharedSpend(folder, { windowId: 'wina', now: () => T0 });
    const b = new SharedSpend(folder, { windowId: 'winb', now: () => T0 });
    a.append(entry('a1', T0));
    assert.equal(a.current().entries.length, 1);
    await a.whenWritten();
    assert.equal(b.current().entries.length, 0);
    await b.refresh();
    assert.deepEqual([...ids(b.current())], ['a1']);
  });

  it('segments roll over and old ones are compacted by one window at a time, losing nothing', async () => {
    const folder = new SlowFolder(mulberry(11));
    const clock = { t: T0 };
    const writers = ['wina', 'winb', 'winc'].map(
      (windowId) => new SharedSpend(folder, { windowId, now: () => clock.t, sleep: () => new Promise((r) => setTimeout(r, 5)) }),
    );
    const expected: string[] = [];
    let n = 0;
    // enough entries for several segments per window
    for (let round = 0; round < 3; round++) {
      for (const w of writers)
        for (let i = 0; i < SEGMENT_ENTRIES + 5; i++) {
          const id = `${w.windowId}-${++n}`;
          expected.push(id);
          w.append(entry(id, clock.t++));
        }
      await Promise.all(writers.map((w) => w.whenWritten()));
    }
    const segments = [...folder.files.keys()].filter((k) => k.startsWith('seg-'));
    assert.ok(segments.length >= COMPACT_AT_FILES, `${segments.length} segments`);
    clock.t += SEALED_AFTER_MS + 1;
    // all three try to compact at once: one goes on
    const done = await Promise.all(writers.map((w) => w.compact()));
    assert.equal(done.filter(Boolean).length, 1, 'one compaction');
    assert.equal([...folder.files.keys()].filter((k) => k.startsWith('base-')).length, 1);
    assert.equal([...folder.files.keys()].filter((k) => k.startsWith('lease-')).length, 0, 'leases removed');
    const reader = new SharedSpend(folder, { windowId: 'wind', now: () => clock.t });
    await reader.refresh();
    const s = reader.current();
    assert.equal(summarize(s, 0, Infinity).requests, expected.length, 'every request counted (raw or folded into days)');
    assert.ok([...folder.files.keys()].length < segments.length, 'fewer files');
  });

  it('the ledger older versions kept in globalState is merged on read', async () => {
    const folder = new SlowFolder(mulberry(5));
    const w = new SharedSpend(folder, { windowId: 'wina', legacy: () => ({ entries: [entry('old', T0 - 5)], days: [] }) });
    w.append(entry('new', T0));
    assert.deepEqual(ids(w.current()), new Set(['old', 'new']));
  });

  it('file names from other programs or older layouts are ignored', async () => {
    const folder = new SlowFolder(mulberry(6));
    folder.files.set('notes.txt', 'x');
    folder.files.set(segmentName('wina', T0, 0), '{"entries":[{"at":1}]}'); // malformed entry dropped
    const w = new SharedSpend(folder, { windowId: 'winb', now: () => T0 });
    await w.refresh();
    assert.equal(w.current().entries.length, 0);
  });
});

describe('budget across windows (reservations published, then read)', () => {
  const LIMIT = 0.01;
  const ESTIMATE = 0.0008; // each request's estimate
  const COST = 0.0007; // what each one really costs

  /** One window's vscode.lm path as BudgetGuard runs it: reserve, publish, read the others, check what came before. */
  function windowOf(folder: SpendFiles, windowId: string, clock: { t: number }, random: () => number, acrossWindows = true) {
    const shared = new SharedSpend(folder, { windowId, now: () => clock.t });
    const reservations = new Reservations();
    const statuses = (reserved: number) => budgetStatuses({ dailyUsd: LIMIT }, shared.current(), clock.t, reserved);
    let sent = 0;
    const over = (hold: Hold, others: boolean) => exhausted(statuses(reservations.totalBefore(hold) + (others ? shared.othersReserved() : 0)));
    const request = async (id: string): Promise<void> => {
      if (exhausted(statuses(reservations.total() + shared.othersReserved()))) return;
      if (!acrossWindows) {
        // each window's own reservations only, as before the shared check
        const hold = reservations.hold(ESTIMATE);
        sent++;
        await new Promise((r) => setTimeout(r, 1));
        shared.append(entry(id, clock.t, COST));
        hold.settle();
        return;
      }
      const result = await admitAcrossWindows(
        {
          publishAndRead: async () => {
            await shared.publishReserved(reservations.total());
            await shared.refresh();
          },
          overBefore: over,
          hold: (usd) => reservations.hold(usd),
          publish: () => shared.publishReserved(reservations.total()),
          sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        },
        reservations.hold(ESTIMATE),
        random,
      );
      if (!('hold' in result)) return;
      sent++;
      await new Promise((r) => setTimeout(r, 1));
      shared.append(entry(id, clock.t, COST));
      result.hold.settle();
      await shared.publishReserved(reservations.total());
    };
    return { shared, request, sent: () => sent };
  }

  it('two windows x 32 requests at once with $0.0005 left: together over by at most one request each (figure in docs/reliability.md)', async () => {
    let worst = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const folder = new SlowFolder(mulberry(seed));
      const clock = { t: T0 };
      folder.files.set(segmentName('seed', T0 - 10, 0), JSON.stringify({ entries: [entry('spent', T0 - 10, LIMIT - 0.0005)] }));
      const a = windowOf(folder, 'wina', clock, mulberry(seed * 7));
      const b = windowOf(folder, 'winb', clock, mulberry(seed * 13));
      await Promise.all([a.shared.refresh(), b.shared.refresh()]);
      await Promise.all(Array.from({ length: 32 }, (_, i) => [a.request(`a${i}`), b.request(`b${i}`)]).flat());
      await Promise.all([a.shared.whenWritten(), b.shared.whenWritten()]);
      const reader = new SharedSpend(folder, { windowId: 'winc', now: () => clock.t });
      await reader.refresh();
      const spent = summarize(reader.current(), 0, Infinity).cost;
      const over = Math.max(0, spent - LIMIT);
      worst = Math.max(worst, over);
      assert.ok(a.sent() + b.sent() >= 1, `seed ${seed}: the budget was not used up, a request goes out`);
      assert.ok(a.sent() <= 1 && b.sent() <= 1, `seed ${seed}: one request each at most (${a.sent()} + ${b.sent()})`);
      assert.ok(over <= 2 * COST + 1e-12, `seed ${seed}: over by ${over}`);
    }
    assert.ok(worst <= 2 * COST);
  });

  it('two windows x 32 with $0.01 left: over by at most one request each, where each window alone spends the whole budget', async () => {
    const figures = async (acrossWindows: boolean) => {
      let worstOver = 0;
      let worstSent = 0;
      for (let seed = 1; seed <= 12; seed++) {
        const folder = new SlowFolder(mulberry(100 + seed));
        const clock = { t: T0 };
        const a = windowOf(folder, 'wina', clock, mulberry(seed * 7), acrossWindows);
        const b = windowOf(folder, 'winb', clock, mulberry(seed * 13), acrossWindows);
        await Promise.all(Array.from({ length: 32 }, (_, i) => [a.request(`a${i}`), b.request(`b${i}`)]).flat());
        await Promise.all([a.shared.whenWritten(), b.shared.whenWritten()]);
        const reader = new SharedSpend(folder, { windowId: 'winc', now: () => clock.t });
        await reader.refresh();
        worstOver = Math.max(worstOver, summarize(reader.current(), 0, Infinity).cost - LIMIT);
        worstSent = Math.max(worstSent, a.sent() + b.sent());
      }
      return { worstOver, worstSent };
    };
    const shared = await figures(true);
    const alone = await figures(false);
    console.log(
      `      two windows x 32, $0.01 left, 12 seeds: ${shared.worstSent} sent, over by at most $${shared.worstOver.toFixed(6)}; ` +
        `each window's own reservations only: ${alone.worstSent} sent, $${alone.worstOver.toFixed(6)} over`,
    );
    assert.ok(shared.worstOver <= 2 * COST + 1e-12, `over by ${shared.worstOver}`);
    assert.ok(alone.worstOver > 5 * COST, 'without the shared check each window spends the budget (the check is what holds it)');
  });
});
