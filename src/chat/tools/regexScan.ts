// Platform seam: regular-expression scans under a time limit. Node build: `vm.runInContext` with a
// timeout, which V8 enforces even in the middle of a regex match, synchronously and in-thread (the
// fast path: no copy of the texts). The browser build swaps in regexScan.web.ts (a Worker that is
// terminated at the limit). Both throw ScanTimeout.
import * as vm from 'node:vm';
import { regexTester, scanText, ScanTimeout, type LineMatch } from './textScan';

export interface RegexScanner {
  /** Matches per text (same order), at most `max` in total. Throws ScanTimeout past `timeoutMs`. */
  scan(texts: readonly string[], re: RegExp, max: number, timeoutMs: number): Promise<LineMatch[][]>;
  dispose(): void;
}

const RUN_JOB = new vm.Script('out = job(); job = undefined;');

/**
 * Runs jobs synchronously under a wall-clock limit. V8 terminates the running script, regex
 * included, when the limit passes; the host thread is free again afterwards. One context serves
 * many jobs: creating a context costs milliseconds, running in it microseconds.
 */
export class TimedRunner {
  private readonly box: { job?: () => unknown; out?: unknown } = {};
  private readonly context = vm.createContext(this.box);

  run<T>(job: () => T, timeoutMs: number): T {
    this.box.job = job;
    this.box.out = undefined;
    try {
      RUN_JOB.runInContext(this.context, { timeout: timeoutMs });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new ScanTimeout(`timed out after ${timeoutMs} ms`);
      throw e;
    } finally {
      this.box.job = undefined;
    }
    const out = this.box.out as T;
    this.box.out = undefined;
    return out;
  }
}

/** One job under a time limit (see TimedRunner). */
export function runWithTimeout<T>(job: () => T, timeoutMs: number): T {
  return new TimedRunner().run(job, timeoutMs);
}

export function createRegexScanner(): RegexScanner {
  const runner = new TimedRunner();
  return {
    scan: async (texts, re, max, timeoutMs) =>
      runner.run(() => {
        const test = regexTester(re);
        const out: LineMatch[][] = [];
        let n = 0;
        for (const text of texts) {
          const hits = n >= max ? [] : scanText(text, test, max - n);
          n += hits.length;
          out.push(hits);
        }
        return out;
      }, timeoutMs),
    dispose: () => undefined,
  };
}
