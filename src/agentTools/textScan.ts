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
    if (next)
      next(); // the place passes on
    else running--;
  };
}
