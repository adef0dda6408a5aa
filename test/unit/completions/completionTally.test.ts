// Today's shown and accepted completions and the learned typing rhythm (src/completions/completionTally.ts):
// counted per local day, written once per burst, flushed when the window closes, read back after a reload.
import * as assert from 'node:assert/strict';
import { CompletionTally, DAY_KEY, TYPING_KEY } from '../../../src/completions/completionTally';
import { localDay } from '../../../src/core/spend/spendBook';

function memento(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial));
  const writes: { key: string; value: unknown }[] = [];
  return {
    values,
    writes,
    get: (key: string) => values.get(key),
    update: (key: string, value: unknown) => {
      writes.push({ key, value: structuredClone(value) });
      values.set(key, structuredClone(value));
      return Promise.resolve();
    },
  };
}

describe('completions/CompletionTally', () => {
  const noon = new Date(2026, 10, 29, 12, 0, 0).getTime();

  it("counts today's shown and accepted completions and says so at once", () => {
    let changed = 0;
    const t = new CompletionTally(
      memento(),
      () => changed++,
      () => noon,
    );
    t.noteShown();
    t.noteShown();
    t.noteAccepted();
    assert.deepEqual(t.day(), { day: localDay(noon), shown: 2, accepted: 1 });
    assert.equal(changed, 3);
    t.dispose();
  });

  it('writes once per burst, and what is unwritten when the window closes', () => {
    const m = memento();
    const t = new CompletionTally(
      m,
      () => {},
      () => noon,
    );
    t.noteShown();
    t.noteShown();
    assert.equal(m.writes.length, 0, 'nothing written during the burst');
    t.dispose();
    assert.deepEqual(m.writes, [{ key: DAY_KEY, value: { day: localDay(noon), shown: 2, accepted: 0 } }]);
    // a reload reads the same day back
    assert.deepEqual(
      new CompletionTally(
        m,
        () => {},
        () => noon + 60_000,
      ).day(),
      { day: localDay(noon), shown: 2, accepted: 0 },
    );
  });

  it("starts a new day at local midnight, and ignores yesterday's or a damaged record", () => {
    const m = memento({ [DAY_KEY]: { day: localDay(noon), shown: 5, accepted: 9 } });
    let now = noon;
    const t = new CompletionTally(
      m,
      () => {},
      () => now,
    );
    assert.deepEqual(t.day(), { day: localDay(noon), shown: 5, accepted: 5 }, 'never more accepted than shown');
    now = noon + 12 * 3_600_000 + 1;
    assert.deepEqual(t.day(), { day: localDay(now), shown: 0, accepted: 0 });
    assert.deepEqual(
      new CompletionTally(
        memento({ [DAY_KEY]: 'garbage' }),
        () => {},
        () => noon,
      ).day(),
      { day: localDay(noon), shown: 0, accepted: 0 },
    );
  });

  it('keeps the typing rhythm the delay learned', async () => {
    const m = memento();
    const t = new CompletionTally(
      m,
      () => {},
      () => noon,
    );
    await t.saveTyping({ gapMs: 120 });
    assert.deepEqual(
      new CompletionTally(
        m,
        () => {},
        () => noon,
      ).typing(),
      { gapMs: 120 },
    );
    assert.deepEqual(m.values.get(TYPING_KEY), { gapMs: 120 });
  });
});
