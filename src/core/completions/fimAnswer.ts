// Turns a chat model's answer to the fill-in-the-middle prompt into the text to insert at the
// cursor, or nothing. Chat models do not always do as told: they wrap the answer in a code fence,
// start again from the beginning of the line (or the line above), close brackets that are already
// closed after the cursor, or answer with exactly what follows the cursor. Each of those is
// undone here; what is left is shown as ghost text only when it adds something.
import { COMPLETION_CLOSE, COMPLETION_OPEN, FIM_HOLE, type CompletionMode } from './fimPrompt';

export interface AnswerContext {
  /** the text sent before the hole (its end is the cursor line up to the cursor) */
  prefix: string;
  /** the text sent after the hole (its start is the cursor line after the cursor) */
  suffix: string;
  mode: CompletionMode;
}

const lastLineOf = (text: string) => text.slice(text.lastIndexOf('\n') + 1);
const firstLineOf = (text: string) => {
  const nl = text.indexOf('\n');
  return nl < 0 ? text : text.slice(0, nl);
};

/** The part between the completion tags (an answer cut by the stop sequence has no closing tag). */
function unwrapTags(text: string): string {
  const open = text.indexOf(COMPLETION_OPEN);
  let out = open >= 0 ? text.slice(open + COMPLETION_OPEN.length) : text;
  const close = out.indexOf(COMPLETION_CLOSE);
  if (close >= 0) out = out.slice(0, close);
  return out;
}

const FENCE = /^[ \t]*(`{3,}|~{3,})[^\n`]*$/;

/** A code fence around the answer (or only its opening line, when max_tokens cut it). */
function unwrapFence(text: string): string {
  const lines = text.split('\n');
  let start = 0;
  while (start < lines.length && lines[start]!.trim() === '') start++;
  const open = FENCE.exec(lines[start] ?? '');
  if (!open) return text;
  const marker = open[1]!;
  const body = lines.slice(start + 1);
  const close = body.findIndex((l) => l.trim().startsWith(marker.slice(0, 3)) && l.trim().replace(/[`~]/g, '') === '');
  return (close >= 0 ? body.slice(0, close) : body).join('\n');
}

/**
 * How many characters at the start of `answer` repeat text before the cursor: the current line
 * typed again (with or without its indentation, possibly with lines above it), the same
 * indentation again on a blank line, or whole lines just above the cursor.
 */
export function repeatedPrefixLength(answer: string, prefix: string): number {
  const lineBefore = lastLineOf(prefix);
  const typed = lineBefore.trimStart();
  if (typed) {
    // The longest run of text just before the cursor that the answer starts with, if it covers the whole line.
    const tail = prefix.slice(Math.max(0, prefix.length - 2000));
    for (let n = Math.min(answer.length, tail.length); n >= lineBefore.length; n--) {
      if (tail.endsWith(answer.slice(0, n))) return n;
    }
    if (answer.startsWith(typed)) return typed.length;
    return 0;
  }
  // A blank line: the answer may bring the indentation again, or the lines above it.
  let cut = 0;
  if (lineBefore && answer.startsWith(lineBefore)) cut = lineBefore.length;
  const above = prefix
    .slice(0, prefix.length - lineBefore.length)
    .replace(/\n$/, '')
    .split('\n');
  const answerLines = answer.split('\n');
  // k lines of the answer equal to the k lines above the cursor (exactly, indentation included)
  for (let k = Math.min(above.length, answerLines.length - 1, 20); k >= 1; k--) {
    const same = answerLines.slice(0, k).every((l, i) => l.trimEnd() === above[above.length - k + i]!.trimEnd());
    const weight = answerLines.slice(0, k).join('').trim().length;
    if (same && weight >= 8) return answerLines.slice(0, k).join('\n').length + 1;
  }
  return cut;
}

/** Unmatched closers plus unclosed openers of one line (strings and comments are not told apart: a rough count). */
function imbalance(text: string): number {
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  const stack: string[] = [];
  let unmatched = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '[' || ch === '{') stack.push(ch);
    else if (ch in pairs) {
      if (stack[stack.length - 1] === pairs[ch]) stack.pop();
      else unmatched++;
    }
  }
  return unmatched + stack.length;
}

/**
 * The answer without its end where that end is already after the cursor. On the cursor line: the
 * longest end of the answer that the rest of the line starts with, dropped when it holds words, or
 * when the line's brackets come out better balanced without it (`foo(a, b)` before `)` loses its
 * `)`; `x)` in `f(g(` before `)` keeps it). Below: whole lines of the answer's end equal to the
 * lines after the cursor (indentation included, so an inner block's `}` is kept).
 */
export function withoutRepeatedSuffix(answer: string, lineBefore: string, suffix: string): string {
  const lineAfter = firstLineOf(suffix).trimEnd();
  const answerLines = answer.split('\n');
  if (answerLines.length > 1) {
    const below = suffix.split('\n').filter((l) => l.trim() !== '');
    const ansTrimmed = answerLines.map((l) => l.trimEnd());
    while (ansTrimmed.length > 1 && ansTrimmed[ansTrimmed.length - 1] === '') ansTrimmed.pop();
    for (let k = Math.min(ansTrimmed.length - 1, below.length, 20); k >= 1; k--) {
      const tail = ansTrimmed.slice(ansTrimmed.length - k);
      if (tail.every((l, i) => l === below[i]!.trimEnd()) && tail.join('').trim().length > 0) {
        return ansTrimmed.slice(0, ansTrimmed.length - k).join('\n');
      }
    }
  }
  if (!lineAfter.trim()) return answer;
  const last = answerLines[answerLines.length - 1]!.trimEnd();
  for (let k = Math.min(last.length, lineAfter.length); k >= 1; k--) {
    const overlap = lineAfter.slice(0, k);
    if (!last.endsWith(overlap) || !overlap.trim()) continue;
    const kept = answer.trimEnd().slice(0, answer.trimEnd().length - k);
    const lineKept = answerLines.length > 1 ? lastLineOf(kept) : lineBefore + kept;
    const lineWith = answerLines.length > 1 ? last : lineBefore + last;
    if (/[\p{L}\p{N}_]/u.test(overlap) || imbalance(lineKept + lineAfter) < imbalance(lineWith + lineAfter)) return kept;
    return answer;
  }
  return answer;
}

const normalize = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The text to insert, or undefined when the answer adds nothing: empty, the hole's marker echoed,
 * or only what already follows the cursor.
 */
export function cleanCompletion(raw: string, ctx: AnswerContext): string | undefined {
  let text = raw.replace(/\r\n?/g, '\n');
  text = unwrapTags(text);
  text = unwrapFence(text);
  if (text.includes(FIM_HOLE)) return undefined; // the query echoed back, not a completion
  if (text.includes(COMPLETION_OPEN)) return undefined;
  const lineBefore = lastLineOf(ctx.prefix);
  // A completion at the end of a line may start on the next one; one within a line may not.
  if (ctx.mode === 'line') text = text.replace(/^\n+/, '');
  text = text.slice(repeatedPrefixLength(text, ctx.prefix));
  // Trailing whitespace of every line, and blank lines at the end.
  text = text
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
  if (ctx.mode === 'line') text = firstLineOf(text);
  text = withoutRepeatedSuffix(text, lineBefore, ctx.suffix);
  if (!text.trim()) return undefined;
  // Only what already follows the cursor.
  const after = normalize(ctx.suffix.slice(0, text.length * 2 + 200));
  if (after.startsWith(normalize(text))) return undefined;
  return text;
}
