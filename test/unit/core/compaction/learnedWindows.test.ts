// A window the gateway named in an overflow error replaces a larger one from the settings or
// /models for that model on that channel, and is kept in globalState across reloads.
import * as assert from 'node:assert/strict';
import { effectiveWindow, learnWindow, MAX_LEARNED_WINDOWS, parseLearnedWindows, windowKey } from '../../../../src/core/compaction/learnedWindows';
import { LEARNED_WINDOWS_KEY, LearnedWindowStore } from '../../../../src/services/learnedWindowStore';

describe('context windows learned from overflow errors', () => {
  const at = { model: 'm', channel: 'direct', now: 1 };

  it('a smaller named window replaces the configured one for that model and channel only', () => {
    const learned = learnWindow({}, { ...at, named: 16_000, configured: 64_000 })!;
    assert.equal(effectiveWindow(learned, 'm', 'direct', 64_000), 16_000);
    assert.equal(effectiveWindow(learned, 'm', 'economical', 64_000), 64_000, 'a channel may offer another window');
    assert.equal(effectiveWindow(learned, 'other', 'direct', 64_000), 64_000);
    assert.equal(effectiveWindow(learned, 'm', 'direct', 8_000), 8_000, 'a smaller setting still wins');
  });

  it('a named window at or above the one in effect teaches nothing', () => {
    assert.equal(learnWindow({}, { ...at, named: 64_000, configured: 64_000 }), undefined);
    assert.equal(learnWindow({}, { ...at, named: 128_000, configured: 64_000 }), undefined);
    const learned = learnWindow({}, { ...at, named: 16_000, configured: 64_000 })!;
    assert.equal(learnWindow(learned, { ...at, named: 16_000, configured: 64_000 }), undefined, 'told once');
    assert.equal(learnWindow({}, { ...at, named: Number.NaN, configured: 64_000 }), undefined);
  });

  it('keeps the newest routes when there are too many', () => {
    let learned = {};
    for (let i = 0; i <= MAX_LEARNED_WINDOWS; i++)
      learned = learnWindow(learned, { model: `m${i}`, channel: 'direct', named: 1_000, configured: 2_000, now: i })!;
    assert.equal(Object.keys(learned).length, MAX_LEARNED_WINDOWS);
    assert.equal(effectiveWindow(learned, 'm0', 'direct', 2_000), 2_000, 'the oldest went');
    assert.equal(effectiveWindow(learned, `m${MAX_LEARNED_WINDOWS}`, 'direct', 2_000), 1_000);
  });

  it('reads back only what it wrote', () => {
    assert.deepEqual(parseLearnedWindows(undefined), {});
    assert.deepEqual(parseLearnedWindows({ [windowKey('m', 'direct')]: { window: -1, at: 0 } }), {});
    assert.deepEqual(parseLearnedWindows('nonsense'), {});
  });

  it('the store keeps it in globalState, so a new window (a reload) uses it', async () => {
    const state = new Map<string, unknown>();
    const memento = { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => void state.set(k, v) };
    const first = new LearnedWindowStore(memento);
    assert.equal(first.learn('m', 'direct', 16_000, 64_000), true);
    assert.equal(first.learn('m', 'direct', 16_000, 64_000), false, 'the user is told once');
    assert.ok(state.has(LEARNED_WINDOWS_KEY));
    assert.doesNotMatch(JSON.stringify(state.get(LEARNED_WINDOWS_KEY)), /sk-/, 'figures and model ids only');
    const reloaded = new LearnedWindowStore(memento);
    assert.equal(reloaded.window('m', 'direct', 64_000), 16_000);
  });

  it('tells its listeners when it learns a window (the vscode.lm provider then tells VS Code), not when nothing changed', () => {
    const store = new LearnedWindowStore();
    let told = 0;
    const sub = store.onDidLearn(() => told++);
    store.learn('m', 'direct', 16_000, 64_000);
    store.learn('m', 'direct', 20_000, 64_000);
    assert.equal(told, 1);
    sub.dispose();
    store.learn('m', 'direct', 8_000, 64_000);
    assert.equal(told, 1, 'not after dispose');
  });
});
