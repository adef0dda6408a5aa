// The edit_file tool's arithmetic: exact search-and-replace pairs applied to a text, and the
// +/- line counts the panel shows. Pure (no vscode): unit-tested in plain Node.
//
// A pair must match exactly once in the text as it is when the pair is applied (pairs apply in
// order, each to the result of the ones before). A search text that is missing or found more
// than once fails the whole call, and nothing of it is applied: the message tells the model
// what to fix (read the file again, or add surrounding lines to make the search text unique).

export interface SearchReplacePair {
  search: string;
  replace: string;
}

export type SearchReplaceResult = { ok: true; text: string } | { ok: false; forModel: string };

/** Where `needle` occurs in `text` (at most `limit` places). */
function occurrences(text: string, needle: string, limit: number): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i >= 0 && at.length < limit; i = text.indexOf(needle, i + 1)) at.push(i);
  return at;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The model writes `\n`; a file with CRLF line ends gets its search and replace texts in CRLF,
 * so a pair copied from read_file's output (which shows lines, not line ends) still matches.
 */
function toEol(s: string, eol: '\n' | '\r\n'): string {
  return eol === '\n' ? s : s.replace(/\r?\n/g, '\r\n');
}

export function eolOf(text: string): '\n' | '\r\n' {
  const crlf = text.indexOf('\r\n');
  const lf = text.indexOf('\n');
  return crlf >= 0 && crlf === lf - 1 ? '\r\n' : '\n';
}

/** Applies `pairs` in order; `display` names the file in messages. */
export function applySearchReplace(text: string, pairs: readonly SearchReplacePair[], display: string): SearchReplaceResult {
  const eol = eolOf(text);
  let out = text;
  for (let n = 0; n < pairs.length; n++) {
    const pair = pairs[n]!;
    const which = pairs.length > 1 ? `Edit ${n + 1} of ${pairs.length}` : 'The edit';
    if (pair.search === '') {
      return {
        ok: false,
        forModel: `${which} for "${display}" has an empty search text. Copy the exact lines to replace from the file (read_file), or use create_file for a new file. Nothing was changed.`,
      };
    }
    const search = toEol(pair.search, eol);
    const found = occurrences(out, search, 6);
    if (found.length === 0) {
      return {
        ok: false,
        forModel:
          `${which} for "${display}": the search text was not found${n > 0 ? ' (after the edits before it were applied)' : ''}. ` +
          'It must match the current file exactly, including indentation and whitespace. Read the file again with read_file and copy the lines exactly. Nothing was changed.',
      };
    }
    if (found.length > 1) {
      const lines = found.map((o) => lineOf(out, o)).join(', ');
      return {
        ok: false,
        forModel:
          `${which} for "${display}": the search text is not unique: it occurs ${found.length > 5 ? 'more than 5' : found.length} times (lines ${lines}). ` +
          'Add surrounding lines to the search text so that it matches exactly one place. Nothing was changed.',
      };
    }
    const at = found[0]!;
    out = out.slice(0, at) + toEol(pair.replace, eol) + out.slice(at + search.length);
  }
  return { ok: true, text: out };
}

/** Lines added and removed from `before` to `after`: lines outside the common prefix and suffix, compared as multisets. */
export function lineDelta(before: string | undefined, after: string | undefined): { added: number; removed: number } {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  // inside the changed middle, a line present on both sides (moved) counts as neither
  const left = new Map<string, number>();
  for (let i = start; i < endA; i++) left.set(a[i]!, (left.get(a[i]!) ?? 0) + 1);
  let added = 0;
  for (let i = start; i < endB; i++) {
    const k = left.get(b[i]!) ?? 0;
    if (k > 0) left.set(b[i]!, k - 1);
    else added++;
  }
  let removed = 0;
  for (const k of left.values()) removed += k;
  return { added, removed };
}

function splitLines(text: string | undefined): string[] {
  if (!text) return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The smallest range of `before` that changes into `after`: offsets into `before`, and the new text. */
export function changedRange(before: string, after: string): { start: number; end: number; text: string } {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  // never split a CRLF or a surrogate pair
  if (start > 0 && (before[start - 1] === '\r' || isHighSurrogate(before.charCodeAt(start - 1)))) start--;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && before.charCodeAt(endB - 1) === after.charCodeAt(endA - 1)) {
    endB--;
    endA--;
  }
  if (endB > start && endB < before.length && ((before[endB] === '\n' && before[endB - 1] === '\r') || isLowSurrogate(before.charCodeAt(endB)))) {
    endB++;
    endA++;
  }
  return { start, end: endB, text: after.slice(start, endA) };
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;
