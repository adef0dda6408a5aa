// How a function's time grows with its input, for the hostile-input tests (a parser
// that model, workspace or gateway text reaches must be linear). Never an absolute time: the ratio
// of the time on 64K characters to the time on 8K, against a generous bound (8x is linear,
// quadratic is 64x, the old patterns were cubic). Each size is timed as the fastest of many single
// calls, the sizes in turn, so a busy machine slows all of them. (Repeating a call on the same
// string in a loop is not a measure: V8 caches regular-expression results per subject.) A call
// that runs away (the old cubic patterns took minutes) is stopped by node:vm's timeout, which
// interrupts a regular expression mid-match, and the test fails with that. A call is timed by the
// CPU time the process spent in it, not the clock: under load (npm test runs this beside VS Code
// workbenches) a call that waits for a core would look slow on the clock (seen: 42x on a linear
// function at load 20). The rounds stop after a few seconds of the clock, so a loaded machine
// makes fewer rounds, not a timeout.
import * as assert from 'node:assert/strict';
import * as vm from 'node:vm';

export const GROWTH_SIZES = [8 * 1024, 32 * 1024, 64 * 1024] as const;
/** 64K/8K: 8x is linear; this leaves 3x for noise and caches, and stays far under quadratic (64x). */
export const MAX_GROWTH = 24;
const ROUNDS = 40;
/** Rounds after the fifth stop once this much of the clock has passed (a loaded machine makes fewer). */
const BUDGET_MS = 3_000;
/** The mocha timeout for a test that calls assertLinear a few times (several sizes, several inputs). */
export const LINEAR_TEST_TIMEOUT_MS = 120_000;
/** A call that takes this long is a runaway (a linear 64K call takes milliseconds). */
const RUNAWAY_MS = 15_000;
/**
 * Times under this are below what process.cpuUsage resolves (microseconds, and the scheduler's
 * accounting is coarser): a ratio of two such times is noise (seen: 8K 0.000 ms, 64K 0.001 ms read
 * as a runaway). Both times are raised to it before dividing; a super-linear 64K call takes far longer.
 */
const RESOLUTION_MS = 0.02;
const growth = (small: number, large: number): number => (small === Infinity ? Infinity : Math.max(large, RESOLUTION_MS) / Math.max(small, RESOLUTION_MS));

const box: { job?: () => void; ms?: number } = {};
const context = vm.createContext(box);
const RUN = new vm.Script('ms = job()');

function callMs(fn: () => void): number {
  box.job = () => {
    const start = process.cpuUsage();
    fn();
    const spent = process.cpuUsage(start);
    return (spent.user + spent.system) / 1000;
  };
  try {
    RUN.runInContext(context, { timeout: RUNAWAY_MS });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return Infinity;
    throw e;
  } finally {
    box.job = undefined;
  }
  return box.ms as number;
}

/** `unit` repeated to `size` characters. */
export function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/**
 * Asserts that `fn(input(n))` grows no worse than linearly from 8K to 64K characters; returns
 * the times per size (ms per call) for the test's title or log.
 */
export function assertLinear(name: string, fn: (input: string) => unknown, input: (size: number) => string): Record<number, number> {
  const inputs = GROWTH_SIZES.map((n) => input(n));
  const calls = inputs.map((s) => () => void fn(s));
  const best = GROWTH_SIZES.map(() => Infinity);
  const warm = callMs(calls[0]!); // warm up (a runaway at 8K already fails)
  const until = performance.now() + BUDGET_MS;
  for (let round = 1; round <= ROUNDS && warm !== Infinity; round++) {
    if (round > 5 && performance.now() > until) break;
    for (let i = 0; i < calls.length; i++) best[i] = Math.min(best[i]!, callMs(calls[i]!));
    const ratio = growth(best[0]!, best[2]!);
    if (best[0] === Infinity || best[2] === Infinity) break; // a runaway: more calls would only take longer
    if (round >= 10 && ratio < MAX_GROWTH / 2) break; // clearly linear
    // clearly not: a long 64K call is no scheduling hiccup (a short one may be: keep measuring)
    if (round >= 5 && ratio > MAX_GROWTH * 2 && best[2]! > 1000) break;
  }
  const perCall: Record<number, number> = {};
  GROWTH_SIZES.forEach((n, i) => (perCall[n] = best[i]!));
  const ratio = growth(best[0]!, best[2]!);
  assert.ok(
    ratio < MAX_GROWTH,
    `${name}: 64K took ${best[0] === Infinity || best[2] === Infinity ? `more than ${RUNAWAY_MS / 1000} s` : `${ratio.toFixed(1)}x the time of 8K`} (linear is 8x; bound ${MAX_GROWTH}x); ms per call: ${GROWTH_SIZES.map((n, i) => `${n / 1024}K ${best[i]!.toFixed(3)}`).join(', ')}`,
  );
  return perCall;
}
