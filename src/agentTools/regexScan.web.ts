// Platform seam, web build: regex scans in a nested Worker that is terminated at the time limit.
//
// Why a Worker: there is no node:vm in a browser, and nothing else can stop a regex that is already
// backtracking (JavaScript is run-to-completion; a bounded-step matcher would mean shipping a second
// regex engine with different syntax than the model expects). terminate() kills the worker thread
// mid-match, so the extension host never freezes, and the syntax is the same engine's. VS Code's web
// worker extension host supports nested workers (it wraps `Worker` so blob: URLs load). Cost: the
// texts of a batch are copied to the worker (structured clone) and one worker starts per search.
// Where no Worker can be made, regex search is refused with RegexUnavailable (never run unguarded).
import type { RawHit, RegexScanner, ScanJob } from './regexScan';
import { previewLine, splitLines } from './text';
import { limitedScan, RegexUnavailable, ScanTimeout, type LineMatch } from './textScan';

/** Runs inside the worker; self-contained (serialised with toString). Same line split as splitLines. */
function workerMain(): void {
  const scope = self as unknown as { onmessage: (e: { data: ScanJob }) => void; postMessage(v: unknown): void };
  scope.onmessage = (e) => {
    const { texts, source, flags, max } = e.data;
    const re = new RegExp(source, flags);
    const out: RawHit[][] = [];
    let n = 0;
    for (const text of texts) {
      const hits: RawHit[] = [];
      if (n < max && text !== '') {
        const lines = text.split(/\r\n|\r|\n/);
        if (lines[lines.length - 1] === '') lines.pop();
        for (let i = 0; i < lines.length && n < max; i++) {
          re.lastIndex = 0;
          const m = re.exec(lines[i]!);
          if (m) {
            hits.push([i + 1, m.index, m[0].length]);
            n++;
          }
        }
      }
      out.push(hits);
    }
    scope.postMessage(out);
  };
}

export function createRegexScanner(): RegexScanner {
  let worker: Worker | undefined;
  let url: string | undefined;
  const start = (): Worker => {
    if (worker) return worker;
    try {
      url = URL.createObjectURL(new Blob([`(${workerMain.toString()})()`], { type: 'text/javascript' }));
      worker = new Worker(url);
      return worker;
    } catch (e) {
      throw new RegexUnavailable(`no worker available for a time-limited regex scan (${(e as Error).message})`);
    }
  };
  const stop = () => {
    worker?.terminate();
    worker = undefined;
    if (url) URL.revokeObjectURL(url);
    url = undefined;
  };
  return {
    // at most MAX_RUNNING_SCANS workers at once; a scan just like one that ran out of time answers at once
    scan: (texts, re, max, timeoutMs) => limitedScan(texts, re, () => run(texts, re, max, timeoutMs)),
    dispose: stop,
  };

  function run(texts: readonly string[], re: RegExp, max: number, timeoutMs: number): Promise<LineMatch[][]> {
    const w = start();
    return new Promise<LineMatch[][]>((resolve, reject) => {
      const timer = setTimeout(() => {
        stop(); // kills the thread mid-match
        reject(new ScanTimeout(`timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      w.onmessage = (e: MessageEvent<RawHit[][]>) => {
        clearTimeout(timer);
        resolve(
          e.data.map((hits, i) => {
            if (hits.length === 0) return [];
            const lines = splitLines(texts[i]!);
            return hits.map(([line, index, length]) => ({ line, preview: previewLine(lines[line - 1]!, index, length) }));
          }),
        );
      };
      w.onerror = (e) => {
        clearTimeout(timer);
        stop();
        reject(new RegexUnavailable(`the regex worker failed (${e.message || 'unknown error'})`));
      };
      w.postMessage({ texts, source: re.source, flags: re.flags, max } satisfies ScanJob);
    });
  }
}
