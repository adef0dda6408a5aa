// The simulator's completions mode: a request whose last user message holds a fill-in-the-middle
// query (the hole marker of src/core/completions/fimPrompt.ts between <QUERY> tags) is answered
// as a chat model answers a completion prompt. What goes in the hole is the continuation of the
// code around the cursor in a file the simulated model knows (fim-corpus.ts): the rest of the
// line, and in block mode the next lines up to where the text after the cursor resumes. Nothing
// known: an empty completion, as real models answer when nothing fits.
//
// The answer comes in the forms real chat models give, chosen per request by a hash of the query
// (the same query always gets the same answer): mostly as asked (<COMPLETION>…</COMPLETION>, the
// closing tag cut by the stop sequence), sometimes in a code fence, starting again from the
// beginning of the line, or closing what already follows the cursor; streamed in pieces of a few
// characters, as tokens arrive.
import { COMPLETION_CLOSE, COMPLETION_OPEN, FIM_HOLE } from '../../src/core/completions/fimPrompt';
import { textOf, type ValidChatRequest } from './chat-request';
import { FIM_CORPUS } from './fim-corpus';
import { hash32 } from './rng';

export interface FimQuery {
  path: string;
  language: string;
  prefix: string;
  suffix: string;
  /** the request asked for the rest of the line only */
  lineOnly: boolean;
}

/** The fill-in-the-middle query of a request, or undefined when it is an ordinary chat request. */
export function fimQuery(req: Pick<ValidChatRequest, 'messages'>): FimQuery | undefined {
  const last = req.messages[req.messages.length - 1];
  if (last?.role !== 'user') return undefined;
  const text = textOf(last.content);
  const open = text.lastIndexOf('<QUERY>\n');
  const close = text.lastIndexOf('\n</QUERY>');
  if (open < 0 || close < open) return undefined;
  const query = text.slice(open + '<QUERY>\n'.length, close);
  const hole = query.indexOf(FIM_HOLE);
  if (hole < 0) return undefined;
  const file = /<FILE path="((?:[^"\\]|\\.)*)" language="((?:[^"\\]|\\.)*)">/.exec(text);
  return {
    path: file?.[1] ?? '',
    language: file?.[2] ?? '',
    prefix: query.slice(0, hole),
    suffix: query.slice(hole + FIM_HOLE.length),
    lineOnly: /rest of its line only/.test(text.slice(close)),
  };
}

const lastLine = (s: string) => s.slice(s.lastIndexOf('\n') + 1);
const firstLine = (s: string) => (s.includes('\n') ? s.slice(0, s.indexOf('\n')) : s);

/** Lines above the cursor line, nearest first, blank ones skipped (at most `n`). */
function linesAbove(prefix: string, n: number): string[] {
  const lines = prefix.split('\n');
  lines.pop();
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0 && out.length < n; i--) if (lines[i]!.trim()) out.push(lines[i]!.trim());
  return out;
}

/** How many of `above` (nearest first) equal the corpus lines above `index` (blank ones skipped). */
function contextScore(lines: readonly string[], index: number, above: readonly string[]): number {
  let score = 0;
  let j = index - 1;
  for (const want of above) {
    while (j >= 0 && !lines[j]!.trim()) j--;
    if (j < 0 || lines[j]!.trim() !== want) break;
    score++;
    j--;
  }
  return score;
}

/** The most blocks a completion runs to, in lines. */
const MAX_LINES = 6;

/**
 * The text the simulated model puts in the hole: the corpus's continuation of the cursor line,
 * then (block mode) the next lines while they are not what the text after the cursor already has.
 */
export function fimMiddle(q: FimQuery): string {
  const before = lastLine(q.prefix);
  const after = firstLine(q.suffix);
  const above = linesAbove(q.prefix, 3);
  let best: { lines: string[]; index: number; score: number } | undefined;
  for (const file of FIM_CORPUS) {
    const lines = file.text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      // the cursor line must be the start of the corpus line, indentation included (a blank line matches any indented line)
      if (before.trim() ? !line.startsWith(before) : !line.startsWith(before) || !line.trim()) continue;
      // the whole line typed: only a block completion goes on (with the next line)
      if (line.length === before.length && before.trim() && q.lineOnly) continue;
      const score = contextScore(lines, i, above) + (file.path === q.path ? 0.5 : 0);
      // a short start with nothing around it that matches is a guess no model would make
      if (before.trim().length < 6 && score < 1) continue;
      if (!best || score > best.score) best = { lines, index: i, score };
    }
  }
  if (!best) return '';
  const { lines, index } = best;
  const rest = lines[index]!.slice(before.length);
  if (q.lineOnly) {
    // the text after the cursor stays: the completion is what comes before it on the line
    const end = after.trim() ? rest.lastIndexOf(after.trim()) : -1;
    return end > 0 ? rest.slice(0, end) : rest;
  }
  const out = [rest];
  const resume = q.suffix
    .split('\n')
    .find((l) => l.trim())
    ?.trim();
  for (let i = index + 1; i < lines.length && out.length < MAX_LINES; i++) {
    const line = lines[i]!;
    if (!line.trim() || line.trim() === resume) break;
    out.push(line);
    // a block closed at the level where it began: a natural end
    if (/^\}/.test(line.trim()) && indentOf(line) <= indentOf(lines[index]!)) break;
  }
  return out.join('\n');
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/** The forms of answer real chat models give to the prompt; the weights are out of 20. */
const FORMS = [
  { form: 'asked', weight: 13 },
  { form: 'fenced', weight: 2 },
  { form: 'repeatsLine', weight: 2 },
  { form: 'repeatsSuffix', weight: 1 },
  { form: 'trailingSpace', weight: 2 },
] as const;
export type FimForm = (typeof FORMS)[number]['form'];

export function fimForm(q: FimQuery): FimForm {
  let n = hash32(`${q.path}\u0000${q.prefix}\u0000${q.suffix}`) % 20;
  for (const f of FORMS) {
    if (n < f.weight) return f.form;
    n -= f.weight;
  }
  return 'asked';
}

/** The whole answer text as the model writes it (the stop sequence is applied by the server). */
export function fimAnswerText(q: FimQuery, form: FimForm = fimForm(q)): string {
  const middle = fimMiddle(q);
  if (!middle) return `${COMPLETION_OPEN}${COMPLETION_CLOSE}`;
  const lang = q.language === 'typescript' ? 'ts' : q.language;
  switch (form) {
    case 'fenced':
      return `\`\`\`${lang}\n${middle}\n\`\`\``;
    case 'repeatsLine':
      return `${COMPLETION_OPEN}${lastLine(q.prefix).trimStart()}${middle}${COMPLETION_CLOSE}`;
    case 'repeatsSuffix': {
      // the rest of the cursor line again, or (at the end of a line) the next line again
      const rest = firstLine(q.suffix);
      const next = q.suffix.split('\n').find((l) => l.trim()) ?? '';
      return `${COMPLETION_OPEN}${middle}${rest.trim() ? rest : next ? `\n${next}` : ''}${COMPLETION_CLOSE}`;
    }
    case 'trailingSpace':
      return `${COMPLETION_OPEN}${middle}  \n${COMPLETION_CLOSE}`;
    default:
      return `${COMPLETION_OPEN}${middle}${COMPLETION_CLOSE}`;
  }
}
