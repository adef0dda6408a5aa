// How long to wait after a keystroke before asking for a completion: one request per pause in
// typing, not one per keystroke. The delay follows the user: a little longer than their usual gap
// between keystrokes (so a request goes out when they stop, not between two letters), shorter
// while they accept completions often (they are worth showing sooner), longer while they ignore
// them (fewer requests that nobody reads). Always within MIN_DELAY_MS..MAX_DELAY_MS.

export const MIN_DELAY_MS = 75;
export const MAX_DELAY_MS = 300;

/** Gaps longer than this are pauses, not typing rhythm. */
const RHYTHM_GAP_MAX_MS = 1000;
/** Gaps shorter than this are key repeat or a paste, not typing. */
const RHYTHM_GAP_MIN_MS = 15;
/** Weight of the newest gap and the newest outcome in their moving averages. */
const GAP_WEIGHT = 0.1;
const OUTCOME_WEIGHT = 0.08;

/** The gap a multiple of which is waited: from 2.2x (nothing accepted) down to 1.3x (half or more accepted). */
const SLOW_FACTOR = 2.2;
const FAST_FACTOR = 1.3;
const ACCEPTANCE_FOR_FAST = 0.5;

export interface TypingDelayState {
  /** moving average of the gap between keystrokes while typing, ms */
  gapMs: number;
  /** moving average of shown completions that were accepted, 0..1 */
  acceptance: number;
}

export const INITIAL_TYPING_STATE: TypingDelayState = { gapMs: 120, acceptance: 0.25 };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The delay for a state (pure, so tests and the status bar can ask without keystrokes). */
export function delayFor(state: TypingDelayState): number {
  const share = clamp(state.acceptance / ACCEPTANCE_FOR_FAST, 0, 1);
  const factor = SLOW_FACTOR - (SLOW_FACTOR - FAST_FACTOR) * share;
  return Math.round(clamp(state.gapMs * factor, MIN_DELAY_MS, MAX_DELAY_MS));
}

export class TypingDelay {
  private state: TypingDelayState;
  private lastKeyAt: number | undefined;

  constructor(saved?: unknown) {
    this.state = parseTypingState(saved) ?? { ...INITIAL_TYPING_STATE };
  }

  /** A keystroke at `at` (ms): the gap since the last one teaches the rhythm. */
  keystroke(at: number): void {
    const last = this.lastKeyAt;
    this.lastKeyAt = at;
    if (last === undefined) return;
    const gap = at - last;
    if (gap < RHYTHM_GAP_MIN_MS || gap > RHYTHM_GAP_MAX_MS) return;
    this.state.gapMs += (gap - this.state.gapMs) * GAP_WEIGHT;
  }

  /** A shown completion was accepted (true) or typed over, dismissed or left (false). */
  outcome(accepted: boolean): void {
    this.state.acceptance += ((accepted ? 1 : 0) - this.state.acceptance) * OUTCOME_WEIGHT;
  }

  delayMs(): number {
    return delayFor(this.state);
  }

  /** What to keep across sessions (globalState). */
  toJSON(): TypingDelayState {
    return { ...this.state };
  }
}

/** A stored state, checked; undefined when it is not one. */
export function parseTypingState(raw: unknown): TypingDelayState | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const gap = r.gapMs;
  const acc = r.acceptance;
  if (typeof gap !== 'number' || !Number.isFinite(gap) || typeof acc !== 'number' || !Number.isFinite(acc)) return undefined;
  return { gapMs: clamp(gap, RHYTHM_GAP_MIN_MS, RHYTHM_GAP_MAX_MS), acceptance: clamp(acc, 0, 1) };
}
