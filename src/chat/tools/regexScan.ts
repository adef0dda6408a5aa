// Platform seam: regular-expression scans under a time limit, off the extension host's thread.
// Node build: a worker_threads Worker that is terminated at the limit. The browser build swaps in
// regexScan.web.ts (a Web Worker, the same way). Both throw ScanTimeout.
//
// Why not node:vm's timeout on the host thread (what this was before issue 21): the host is frozen
// for as long as the limit, every extension with it, and twenty calls of one tool round froze it
// for 30 s. terminate() stops the worker thread mid-match, and meanwhile the host keeps running.
// At most MAX_RUNNING_SCANS (textScan.ts) run at once (each is a thread with a copy of its texts); the others
// wait their turn, and their time limit starts when they run.
//
// Workers are kept for the next scan (at most MAX_RUNNING_SCANS idle ones, for IDLE_WORKER_MS):
// starting one costs about 30 ms of CPU; a worker stopped at the time limit is gone.
//
// Why the workers run at the host's own priority (issue 21 (b)): they ran at nice 19 for a while,
// so that the host's thread would get a CPU first. Under load that made the host wait for them
// instead: a worker that is starting or being torn down holds state the host's thread then needs
// (terminate() ends in a join on the host's thread), and a nice-19 thread on a busy machine gets
// a CPU only now and then. Measured beside six busy processes on 2 cores, twenty time-limited
// scans four at a time: the host's longest timer gap was 109-2085 ms with niced workers and
// 16-29 ms without (docs/reliability.md). Linux's scheduler already runs a thread that wakes
// (the host's) before threads that used their share (busy workers).
import { Worker } from 'node:worker_threads';
import { previewLine, splitLines } from './text';
import { MAX_RUNNING_SCANS, RegexUnavailable, scanSlot, ScanTimeout, type LineMatch } from './textScan';

export interface RegexScanner {
  /** Matches per text (same order), at most `max` in total. Throws ScanTimeout past `timeoutMs`. */
  scan(texts: readonly string[], re: RegExp, max: number, timeoutMs: number): Promise<LineMatch[][]>;
  dispose(): void;
}

/** What a scan worker is sent (both builds' workers take the same). */
export interface ScanJob {
  texts: readonly string[];
  source: string;
  flags: string;
  max: number;
}
/** A match as a scan worker sends it back: line, index in the line, length. */
export type RawHit = [line: number, index: number, length: number];

/** Idle workers are ended after this long without a scan. */
export const IDLE_WORKER_MS = 30_000;

/** The worker's program (CommonJS, evaluated): the same line split as splitLines and the web build. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ texts, source, flags, max }) => {
  const re = new RegExp(source, flags);
  const out = [];
  let n = 0;
  for (const text of texts) {
    const hits = [];
    if (n < max && text !== '') {
      const lines = text.split(/\\r\\n|\\r|\\n/);
      if (lines[lines.length - 1] === '') lines.pop();
      for (let i = 0; i < lines.length && n < max; i++) {
        re.lastIndex = 0;
        const m = re.exec(lines[i]);
        if (m) {
          hits.push([i + 1, m.index, m[0].length]);
          n++;
        }
      }
    }
    out.push(hits);
  }
  parentPort.postMessage(out);
});
`;

/** Workers that finished their scan, for the next one (window-wide; at most MAX_RUNNING_SCANS). */
const idle: Worker[] = [];
let idleTimer: ReturnType<typeof setTimeout> | undefined;

/** Idle scan workers (for tests). */
export function idleScanWorkers(): number {
  return idle.length;
}

/** Ends the idle workers (after IDLE_WORKER_MS, and for tests). */
export function endIdleScanWorkers(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  for (const w of idle.splice(0)) void w.terminate();
}

function dropIdle(w: Worker): void {
  const i = idle.indexOf(w);
  if (i >= 0) idle.splice(i, 1);
}

/** A worker whose thread runs: an idle one, or a new one once it is online (starting is not the regex's time). */
async function takeWorker(): Promise<Worker> {
  const kept = idle.pop();
  if (kept) return kept;
  let w: Worker;
  try {
    w = new Worker(WORKER_SOURCE, { eval: true });
  } catch (e) {
    throw new RegexUnavailable(`no worker available for a time-limited regex scan (${(e as Error).message})`);
  }
  w.unref(); // an idle worker never keeps the process alive
  w.on('error', () => dropIdle(w)); // reported to the scan that runs (below); never an unhandled 'error' event
  w.on('exit', () => dropIdle(w));
  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => {
      w.off('online', onOnline);
      void w.terminate();
      reject(new RegexUnavailable(`the regex worker did not start (${e.message})`));
    };
    const onOnline = () => {
      w.off('error', onError);
      resolve();
    };
    w.once('online', onOnline);
    w.once('error', onError);
  });
  return w;
}

/** A worker whose scan answered goes back to the idle ones (or ends, beyond MAX_RUNNING_SCANS). */
function giveBack(w: Worker): void {
  if (idle.length >= MAX_RUNNING_SCANS) {
    void w.terminate();
    return;
  }
  idle.push(w);
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(endIdleScanWorkers, IDLE_WORKER_MS);
  idleTimer.unref?.();
}

export function createRegexScanner(): RegexScanner {
  return {
    async scan(texts, re, max, timeoutMs) {
      const release = await scanSlot();
      try {
        const w = await takeWorker();
        const raw = await new Promise<RawHit[][]>((resolve, reject) => {
          const done = () => {
            clearTimeout(timer);
            w.off('message', onMessage);
            w.off('error', onError);
          };
          const timer = setTimeout(() => {
            done();
            void w.terminate(); // kills the thread mid-match
            reject(new ScanTimeout(`timed out after ${timeoutMs} ms`));
          }, timeoutMs);
          const onMessage = (hits: RawHit[][]) => {
            done();
            giveBack(w);
            resolve(hits);
          };
          const onError = (e: Error) => {
            done();
            void w.terminate();
            reject(new RegexUnavailable(`the regex worker failed (${e.message || 'unknown error'})`));
          };
          w.on('message', onMessage);
          w.on('error', onError);
          w.postMessage({ texts, source: re.source, flags: re.flags, max } satisfies ScanJob);
        });
        return raw.map((hits, i) => {
          if (hits.length === 0) return [];
          const lines = splitLines(texts[i]!);
          return hits.map(([line, index, length]) => ({ line, preview: previewLine(lines[line - 1]!, index, length) }));
        });
      } finally {
        release();
      }
    },
    // Workers are shared by every scanner of the window (idle ones end after IDLE_WORKER_MS).
    dispose: () => undefined,
  };
}
