// Line matching for search_text. Unit-tested in plain Node.
//
// There is no stable VS Code API for text search (findTextInFiles is still proposed), so files found
// by findFiles are scanned here. A regular expression comes from the model, so it may backtrack
// catastrophically (`(a+)+$`) and freeze the extension host; scans with a regex run under a time
// limit, off the host's thread, behind the platform seam (src/agentTools/regexScan.ts: a worker_threads
// Worker in the Node build, a Web Worker in the web build, each terminated at the limit).
import { previewLine, splitLines } from './text';

export type LineTester = (line: string) => { index: number; length: number } | undefined;

/** Smart case: case-sensitive only when the query contains an upper-case letter. */
export function isCaseSensitive(query: string): boolean {
  return query !== query.toLowerCase();
}

export function literalTester(query: string): LineTester {
  if (isCaseSensitive(query)) {
    return (line) => {
      const i = line.indexOf(query);
      return i < 0 ? undefined : { index: i, length: query.length };
    };
  }
  const q = query.toLowerCase();
  return (line) => {
    const i = line.toLowerCase().indexOf(q);
    return i < 0 ? undefined : { index: i, length: q.length };
  };
}

/** Throws a SyntaxError with the engine's message when the pattern is invalid. */
export function compileRegex(query: string): RegExp {
  return new RegExp(query, isCaseSensitive(query.replace(/\\[A-Za-z]/g, '')) ? '' : 'i');
}

export function regexTester(re: RegExp): LineTester {
  return (line) => {
    re.lastIndex = 0;
    const m = re.exec(line);
    return m ? { index: m.index, length: m[0].length } : undefined;
  };
}

export interface LineMatch {
  /** 1-based */
  line: number;
  preview: string;
}

export function scanText(text: string, test: LineTester, max: number): LineMatch[] {
  const out: LineMatch[] = [];
  if (max <= 0) return out;
  const lines = splitLines(text);
  for (let i = 0; i < lines.length; i++) {
    const m = test(lines[i]!);
    if (m) {
      out.push({ line: i + 1, preview: previewLine(lines[i]!, m.index, m.length) });
      if (out.length >= max) break;
    }
  }
  return out;
}

export class ScanTimeout extends Error {
  override readonly name = 'ScanTimeout';
}

/** The regex engine in this host cannot run under a time limit (web build without Worker). */
export class RegexUnavailable extends Error {
  override readonly name = 'RegexUnavailable';
}

/** Regex scans that run at once, over all searches of the window (each is a thread with a copy of its texts). */
export const MAX_RUNNING_SCANS = 4;

let running = 0;
const waiting: (() => void)[] = [];

/**
 * Waits for one of the MAX_RUNNING_SCANS places (first come, first served); resolves to the
 * function that gives it back (once, whatever the caller does twice).
 */
export async function scanSlot(): Promise<() => void> {
  if (running >= MAX_RUNNING_SCANS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    if (next) next(); // the place passes on
    else running--;
  };
}

/** How long a scan that ran out of time is remembered: the same expression over the same texts answers at once. */
export const SLOW_SCAN_MEMORY_MS = 60_000;
const slowScans = new Map<string, number>();

/**
 * The same expression over the same texts (the model's same search called many times in one
 * round): its length and its first and last characters stand for each text; two different files
 * alike in all of these are rare, and the cost of a wrong guess is a "too slow" for a pattern that
 * already ran out of time on texts just like these.
 */
function scanKey(texts: readonly string[], re: RegExp): string {
  const parts = texts.map((t) => `${t.length}:${t.slice(0, 32)}${t.slice(-32)}`);
  return `${re.source}\u0000${re.flags}\u0000${parts.join('\u0000')}`;
}

/**
 * Runs `run` (a scan of `texts` with `re`) in one of the MAX_RUNNING_SCANS places. A scan that a
 * scan just like it ran out of time on within SLOW_SCAN_MEMORY_MS throws ScanTimeout at once
 * instead of spending its time limit again: twenty identical searches in one round take one limit,
 * not five rounds of four.
 */
export async function limitedScan<T>(texts: readonly string[], re: RegExp, run: () => Promise<T>, now: () => number = Date.now): Promise<T> {
  const key = scanKey(texts, re);
  const release = await scanSlot();
  try {
    const slowAt = slowScans.get(key);
    if (slowAt !== undefined && now() - slowAt < SLOW_SCAN_MEMORY_MS) throw new ScanTimeout('the same expression ran out of time on these texts a moment ago');
    return await run();
  } catch (e) {
    if (e instanceof ScanTimeout && !slowScans.has(key)) {
      for (const [k, at] of slowScans) if (now() - at >= SLOW_SCAN_MEMORY_MS) slowScans.delete(k);
      if (slowScans.size >= 100) slowScans.delete(slowScans.keys().next().value!);
      slowScans.set(key, now());
    }
    throw e;
  } finally {
    release();
  }
}

/** Forgets the scans that ran out of time (tests that time out the same scan more than once). */
export function forgetSlowScans(): void {
  slowScans.clear();
}
