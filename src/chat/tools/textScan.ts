// Line matching for search_text. Unit-tested in plain Node.
//
// There is no stable VS Code API for text search (findTextInFiles is still proposed), so files found
// by findFiles are scanned here. A regular expression comes from the model, so it may backtrack
// catastrophically (`(a+)+$`) and freeze the extension host; scans with a regex run under a time
// limit behind the platform seam (src/chat/tools/regexScan.ts: node:vm in the Node build, a Worker
// with terminate() in the web build).
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
