// Runs a callback at most once per animation frame. Hidden webviews get no animation frames,
// so a timer is armed too and whichever fires first runs the work (the other is cancelled).
export interface FrameHost {
  requestAnimationFrame?: (cb: () => void) => number;
  cancelAnimationFrame?: (id: number) => void;
  setTimeout: (cb: () => void, ms: number) => unknown;
  clearTimeout: (id: never) => void;
}

export class FrameScheduler {
  private frame: number | undefined;
  private timer: unknown;
  private scheduled = false;

  constructor(
    private readonly host: FrameHost,
    private readonly work: () => void,
    private readonly fallbackMs = 50,
  ) {}

  get isScheduled(): boolean {
    return this.scheduled;
  }

  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    if (this.host.requestAnimationFrame) this.frame = this.host.requestAnimationFrame(() => this.run());
    this.timer = this.host.setTimeout(() => this.run(), this.fallbackMs);
  }

  /** Runs pending work now (e.g. before a structural change that must see the latest text). */
  runNow(): void {
    if (this.scheduled) this.run();
  }

  dispose(): void {
    this.cancel();
  }

  private cancel(): void {
    if (this.frame !== undefined) this.host.cancelAnimationFrame?.(this.frame);
    if (this.timer !== undefined) this.host.clearTimeout(this.timer as never);
    this.frame = undefined;
    this.timer = undefined;
    this.scheduled = false;
  }

  private run(): void {
    if (!this.scheduled) return;
    this.cancel();
    this.work();
  }
}

export interface IdleDeadlineLike {
  timeRemaining(): number;
}

export interface IdleHost extends FrameHost {
  requestIdleCallback?: (cb: (deadline: IdleDeadlineLike) => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
  /** the clock slices are measured with (default performance.now; tests stop it) */
  now?: () => number;
}

/**
 * Longest run of idle steps in one task. The browser may grant up to 50 ms of idle time, but a
 * task that long delays a keystroke or a frame that arrives meanwhile by as much: the queue
 * yields after this much and asks for another idle period.
 */
export const MAX_IDLE_SLICE_MS = 8;
const clock = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/**
 * Runs small tasks in idle time, a few per slice, oldest first: a task returns true when it has
 * more to do and is then called again in a later slice. Nothing here ever runs one long task:
 * each task is expected to do a bounded piece of work per call (one message, one slice of a
 * code block). Hidden webviews get no idle callbacks either; a timeout bounds the wait.
 */
export class IdleQueue {
  private readonly tasks: (() => boolean)[] = [];
  private handle: { idle?: number; timer?: unknown } | undefined;

  constructor(
    private readonly host: IdleHost,
    private readonly timeoutMs = 200,
  ) {}

  get size(): number {
    return this.tasks.length;
  }

  add(task: () => boolean): void {
    this.tasks.push(task);
    this.arm();
  }

  /** Runs everything now (tests, and before a change that needs the finished work). */
  drain(): void {
    this.disarm();
    while (this.tasks.length) if (!this.tasks[0]()) this.tasks.shift();
  }

  clear(): void {
    this.disarm();
    this.tasks.length = 0;
  }

  private arm(): void {
    if (this.handle) return;
    const h: { idle?: number; timer?: unknown } = {};
    this.handle = h;
    if (this.host.requestIdleCallback) {
      h.idle = this.host.requestIdleCallback((d) => this.run(d), { timeout: this.timeoutMs });
    } else {
      h.timer = this.host.setTimeout(() => {
        this.run({ timeRemaining: () => MAX_IDLE_SLICE_MS });
      }, 0);
    }
  }

  private disarm(): void {
    const h = this.handle;
    this.handle = undefined;
    if (!h) return;
    if (h.idle !== undefined) this.host.cancelIdleCallback?.(h.idle);
    if (h.timer !== undefined) this.host.clearTimeout(h.timer as never);
  }

  private run(deadline: IdleDeadlineLike): void {
    this.handle = undefined;
    const now = this.host.now ?? clock;
    const end = now() + MAX_IDLE_SLICE_MS;
    // at least one step per slice, so work finishes even when idle time is always short
    let first = true;
    while (this.tasks.length && (first || (deadline.timeRemaining() > 1 && now() < end))) {
      first = false;
      if (!this.tasks[0]()) this.tasks.shift();
    }
    if (this.tasks.length) this.arm();
  }
}
