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
