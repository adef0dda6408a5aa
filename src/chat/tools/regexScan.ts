// Platform seam: regular-expression scans under a time limit, off the extension host's thread.
// Node build: a worker_threads Worker that is terminated at the limit. The browser build swaps in
// regexScan.web.ts (a Web Worker, the same way). Both throw ScanTimeout.
//
// Why not node:vm's timeout on the host thread (what this was before issue 21): the host is frozen
// for as long as the limit, every extension with it, and twenty calls of one tool round froze it
// for 30 s. terminate() stops the worker thread mid-match, and meanwhile the host keeps running.
// At most MAX_RUNNING_SCANS (textScan.ts) run at once (each is a thread with a copy of its texts); the others
// wait their turn, and their time limit starts when they run.
import { Worker } from 'node:worker_threads';
import { previewLine, splitLines } from './text';
import { RegexUnavailable, scanSlot, ScanTimeout, type LineMatch } from './textScan';

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

export function createRegexScanner(): RegexScanner {
  let worker: Worker | undefined;
  let online: Promise<void> | undefined;
  /** The worker, once its thread runs (starting one is not the regex's time). */
  const start = async (): Promise<Worker> => {
    if (!worker) {
      try {
        worker = new Worker(WORKER_SOURCE, { eval: true });
      } catch (e) {
        throw new RegexUnavailable(`no worker available for a time-limited regex scan (${(e as Error).message})`);
      }
      worker.unref(); // an idle scanner never keeps the process alive
      worker.on('error', () => undefined); // reported to the scan that runs (below); never an unhandled 'error' event
      const w = worker;
      online = new Promise<void>((resolve, reject) => {
        w.once('online', resolve);
        w.once('error', (e) => reject(new RegexUnavailable(`the regex worker did not start (${e.message})`)));
      });
      online.catch(() => undefined);
    }
    const w = worker;
    await online;
    return w;
  };
  const stop = () => {
    void worker?.terminate();
    worker = undefined;
    online = undefined;
  };
  return {
    async scan(texts, re, max, timeoutMs) {
      const release = await scanSlot();
      try {
        const w = await start();
        const raw = await new Promise<RawHit[][]>((resolve, reject) => {
          const done = () => {
            clearTimeout(timer);
            w.off('message', onMessage);
            w.off('error', onError);
          };
          const timer = setTimeout(() => {
            done();
            stop(); // kills the thread mid-match
            reject(new ScanTimeout(`timed out after ${timeoutMs} ms`));
          }, timeoutMs);
          const onMessage = (hits: RawHit[][]) => {
            done();
            resolve(hits);
          };
          const onError = (e: Error) => {
            done();
            stop();
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
    dispose: stop,
  };
}
