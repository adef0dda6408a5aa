// The part of a document a completion request carries: the text before the cursor and the text
// after it, each within its share of a token budget, cut at whole lines. Read through a line
// accessor so that a request costs the same in a 200-line file and in a 20,000-line one: only the
// lines that fit are read.
//
// The window's first line moves in steps of WINDOW_STEP_LINES: while the user types in one place
// the text sent before the cursor keeps the same beginning, so the gateway's prompt cache (which
// matches exact prefixes) serves it again on the next request; a start that slid by one line per
// typed line would miss the cache every time.
import { estimateTokens } from '../prompt/tokens';

/** What the window needs of a document: its lines by index (the editor's, or a string's). */
export interface DocumentLines {
  readonly lineCount: number;
  lineAt(line: number): string;
}

export interface CursorPosition {
  line: number;
  /** UTF-16 offset in the line, as the editor counts */
  character: number;
}

export interface DocumentWindow {
  /** the lines before the cursor and the cursor line up to the cursor */
  prefix: string;
  /** the cursor line after the cursor and the lines below it */
  suffix: string;
  /** the cursor line's text before and after the cursor */
  lineBefore: string;
  lineAfter: string;
  /** the first line in `prefix` (0-based); the last line in `suffix` */
  firstLine: number;
  lastLine: number;
  /** estimated tokens of prefix and suffix */
  tokens: number;
  /** true when lines above or below were left out */
  cutAbove: boolean;
  cutBelow: boolean;
}

/** The window's first line is a multiple of this (unless the whole top of the file fits). */
export const WINDOW_STEP_LINES = 16;

/** A document over a string (tests, benchmarks, the simulator): lines split at \n, a \r before it dropped. */
export function linesOf(text: string): DocumentLines {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  return { lineCount: lines.length, lineAt: (i) => lines[i] ?? '' };
}

/**
 * The window around `cursor`: up to `prefixTokens` before it and `suffixTokens` after it (the
 * suffix's unused share goes to the prefix, so a cursor near the end of a file sends more of what
 * is above). The cursor line's text before the cursor is always sent, cut from the left only when
 * it alone exceeds the budget.
 */
export function documentWindow(doc: DocumentLines, cursor: CursorPosition, budget: { prefixTokens: number; suffixTokens: number }): DocumentWindow {
  const line = Math.max(0, Math.min(cursor.line, doc.lineCount - 1));
  const text = doc.lineAt(line);
  const at = Math.max(0, Math.min(cursor.character, text.length));
  let lineBefore = text.slice(0, at);
  const lineAfter = text.slice(at);

  // Below the cursor first: whatever the suffix leaves over goes to the prefix.
  let suffixUsed = estimateTokens(lineAfter);
  let lastLine = line;
  const below: string[] = [];
  for (let i = line + 1; i < doc.lineCount; i++) {
    const t = estimateTokens(doc.lineAt(i)) + 1;
    if (suffixUsed + t > budget.suffixTokens) break;
    suffixUsed += t;
    below.push(doc.lineAt(i));
    lastLine = i;
  }
  const prefixBudget = budget.prefixTokens + Math.max(0, budget.suffixTokens - suffixUsed);

  let prefixUsed = estimateTokens(lineBefore);
  if (prefixUsed > prefixBudget) {
    // One enormous line (minified code): keep its end, the part next to the cursor.
    lineBefore = lineBefore.slice(Math.max(0, lineBefore.length - prefixBudget * 2));
    prefixUsed = estimateTokens(lineBefore);
  }
  // The lowest line that still fits, then the next step boundary at or below it.
  let fits = line;
  const cost: number[] = [];
  for (let i = line - 1; i >= 0; i--) {
    const t = estimateTokens(doc.lineAt(i)) + 1;
    if (prefixUsed + t > prefixBudget) break;
    prefixUsed += t;
    cost[i] = t;
    fits = i;
  }
  let firstLine = fits === 0 ? 0 : Math.min(line, Math.ceil(fits / WINDOW_STEP_LINES) * WINDOW_STEP_LINES);
  if (firstLine === line && fits < line) firstLine = fits; // the cursor sits in the step's first line: keep what fits
  for (let i = fits; i < firstLine; i++) prefixUsed -= cost[i] ?? 0;
  const above: string[] = [];
  for (let i = firstLine; i < line; i++) above.push(doc.lineAt(i));

  return {
    prefix: above.length ? `${above.join('\n')}\n${lineBefore}` : lineBefore,
    suffix: below.length ? `${lineAfter}\n${below.join('\n')}` : lineAfter,
    lineBefore,
    lineAfter,
    firstLine,
    lastLine,
    tokens: prefixUsed + suffixUsed,
    cutAbove: firstLine > 0 || lineBefore.length < at,
    cutBelow: lastLine < doc.lineCount - 1,
  };
}
