// How a function's time grows with its input, for the hostile-input tests (a parser
// that model, workspace or gateway text reaches must be linear). Never an absolute time: how much
// the time grows each time the input doubles, from 8K to 128K characters. Linear is 2x a doubling,
// quadratic 4x, the old patterns were cubic (8x). The test takes the median of the four doublings,
// because the CPU's caches add a step of their own somewhere in that range, at a size that depends
// on the machine and the function (seen: a plain linear scan 0.08 ms at 8K and 0.66 ms at 16K, then
// 2.0x to 2.5x a doubling; the old ratio of 64K to 8K read it as 42x, over its 24x bound). One
// such step moves the median little; a quadratic function is about 4x at every doubling.
// Each size is timed as the fastest of many single calls, the sizes in turn, so a busy machine
// slows all of them. (Repeating a call on the same string in a loop is not a measure: V8 caches
// regular-expression results per subject.) A call that runs away (the old cubic patterns took
// minutes) is stopped by node:vm's timeout, which interrupts a regular expression mid-match, and
// the test fails with that. A call is timed by the CPU time the process spent in it, not the
// clock: under load (npm test runs this beside VS Code workbenches) a call that waits for a core
// would look slow on the clock (seen: 42x on a linear function at load 20). The rounds stop after a
// few seconds of the clock, so a loaded machine makes fewer rounds, not a timeout.
import * as assert from 'node:assert/strict';
import * as vm from 'node:vm';

export const GROWTH_SIZES = [8 * 1024, 16 * 1024, 32 * 1024, 64 * 1024, 128 * 1024] as const;
/**
 * The median growth per doubling: 2x is linear, 4x quadratic. Linear functions measured 2.0x to
 * 2.7x here (caches); a quadratic scan with a linear part measured 4.0x.
 */
export const MAX_GROWTH = 3.3;
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
/** The median of the growths from each size to the next (Infinity when a call ran away). */
function growthPerDoubling(best: readonly number[]): number {
  if (best.some((ms) => ms === Infinity)) return Infinity;
  const steps = best
    .slice(1)
    .map((ms, i) => growth(best[i]!, ms))
    .sort((a, b) => a - b);
  const mid = steps.length >> 1;
  return steps.length % 2 ? steps[mid]! : (steps[mid - 1]! + steps[mid]!) / 2;
}

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
 * Asserts that `fn(input(n))` grows no worse than linearly from 8K to 128K characters; returns
 * the times per size (ms per call) for the test's title or log.
 */
export function assertLinear(name: string, fn: (input: string) => unknown, input: (size: number) => string): Record<number, number> {
  const inputs = GROWTH_SIZES.map((n) => input(n));
  const calls = inputs.map((s) => () => void fn(s));
  const best = GROWTH_SIZES.map(() => Infinity);
  const warm = callMs(calls[0]!); // warm up (a runaway at 8K already fails)
  const until = performance.now() + BUDGET_MS;
  const last = calls.length - 1;
  for (let round = 1; round <= ROUNDS && warm !== Infinity; round++) {
    if (round > 5 && performance.now() > until) break;
    // Once one size runs away, the larger ones would too, each for the runaway bound.
    for (let i = 0; i < calls.length && (i === 0 || best[i - 1] !== Infinity); i++) best[i] = Math.min(best[i]!, callMs(calls[i]!));
    const ratio = growthPerDoubling(best);
    if (ratio === Infinity) break; // a runaway: more calls would only take longer
    if (round >= 10 && ratio < MAX_GROWTH - 0.4) break; // clearly linear
    // clearly not: a long call on the largest input is no scheduling hiccup (a short one may be: keep measuring)
    if (round >= 5 && ratio > 2 * MAX_GROWTH && best[last]! > 1000) break;
  }
  const perCall: Record<number, number> = {};
  GROWTH_SIZES.forEach((n, i) => (perCall[n] = best[i]!));
  const ratio = growthPerDoubling(best);
  const ranAway = GROWTH_SIZES.find((_, i) => best[i] === Infinity);
  assert.ok(
    ratio < MAX_GROWTH,
    `${name}: ${ranAway !== undefined ? `a call on ${ranAway / 1024}K took more than ${RUNAWAY_MS / 1000} s` : `the time grew ${ratio.toFixed(1)}x a doubling of the input`} (the median from 8K to 128K; linear is 2x, quadratic 4x; bound ${MAX_GROWTH}x); ms per call: ${GROWTH_SIZES.map((n, i) => `${n / 1024}K ${best[i]!.toFixed(3)}`).join(', ')}`,
  );
  return perCall;
}
