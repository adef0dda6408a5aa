// The fill-in-the-middle prompt that chat models follow: the gateway has only chat completions,
// so the text around the cursor goes into a chat message with a hole where the completion belongs,
// and the model answers with the hole's text between <COMPLETION> tags (the stop sequence ends the
// answer there). The layout keeps what stays the same from one keystroke to the next at the
// front, so the gateway's prompt cache (exact prefixes) serves it again:
//   system   the instruction and one example, byte for byte the same for every request;
//   user     related snippets (other files, in a stable order), the file's path and language,
//            the text before the cursor (its first line moves in steps: documentWindow.ts), the
//            hole, the text after the cursor, and last the one line that depends on the cursor
//            (complete the line, or the block).
// Small `max_tokens`, and the lowest reasoning effort where the model has an effort control:
// reasoning tokens count against max_tokens and make a completion slow.
import type { ChatMessage, ChatRequest, Channel } from '../client/types';
import { estimateTokens } from '../prompt/tokens';
import { documentWindow, type CursorPosition, type DocumentLines, type DocumentWindow } from './documentWindow';

/** Where the completion goes, in the prompt; the simulator looks for it too. */
export const FIM_HOLE = '{{FILL_HERE}}';
export const COMPLETION_OPEN = '<COMPLETION>';
export const COMPLETION_CLOSE = '</COMPLETION>';

/** Byte-stable: the cached head of every completion request. */
export const FIM_SYSTEM_PROMPT = [
  'You are a code completion engine inside a code editor. The user sends a file with a hole marked ' +
    `${FIM_HOLE} where the cursor is. Answer with the text that belongs in the hole, and nothing else, ` +
    `between ${COMPLETION_OPEN} and ${COMPLETION_CLOSE}.`,
  'Rules:',
  '- The answer is inserted exactly as it is: never repeat text that is already before or after the hole.',
  "- Follow the file's language, indentation and style.",
  '- Complete what the user is writing and stop at a natural end: the rest of the line, or the statement or block the cursor is in.',
  '- No explanations, no markdown, no code fences.',
  `- When nothing sensible fits, answer ${COMPLETION_OPEN}${COMPLETION_CLOSE}.`,
  '',
  'Example:',
  '<QUERY>',
  'function sum(xs) {',
  '  let total = 0;',
  `  for (const x of xs) ${FIM_HOLE}`,
  '  return total;',
  '}',
  '</QUERY>',
  `${COMPLETION_OPEN}total += x;${COMPLETION_CLOSE}`,
].join('\n');

export interface RelatedSnippet {
  /** workspace-relative path, `/`-separated */
  path: string;
  text: string;
}

export interface FimBudget {
  /** tokens of the text before the cursor (it also gets what the suffix leaves over) */
  prefixTokens: number;
  /** tokens of the text after the cursor */
  suffixTokens: number;
  /** tokens of related snippets, all together; each is cut to whole lines within SNIPPET_MAX_TOKENS */
  snippetTokens: number;
}

/** About 1,700 prompt tokens with the instruction: a few lines of context each way, cheap on economical channels. */
export const DEFAULT_FIM_BUDGET: FimBudget = { prefixTokens: 900, suffixTokens: 300, snippetTokens: 300 };
export const SNIPPET_MAX_TOKENS = 200;

/** The answer's size: the rest of a line is short; a block is a few lines. */
export const MAX_TOKENS = { line: 48, block: 160 } as const;

export type CompletionMode = 'line' | 'block';

export interface FimInput {
  /** workspace-relative path (`/`-separated), or the file's name when it is outside the workspace */
  path: string;
  languageId: string;
  lines: DocumentLines;
  cursor: CursorPosition;
  related?: readonly RelatedSnippet[];
  budget?: FimBudget;
}

export interface FimPrompt {
  messages: ChatMessage[];
  mode: CompletionMode;
  maxTokens: number;
  stop: string[];
  window: DocumentWindow;
  /** estimated prompt tokens of the whole request */
  promptTokens: number;
  /** the snippets that fit, in the order sent */
  snippets: RelatedSnippet[];
}

/**
 * `line` when there is text after the cursor on its line (a completion must fit before it), else
 * `block`: the rest of the statement or a few lines. Closing brackets and punctuation after the
 * cursor do not count as text: `foo(|)` is completed like the end of a line.
 */
export function completionMode(lineAfter: string): CompletionMode {
  return /^[\s)\]}>;,'"`]*$/.test(lineAfter) ? 'block' : 'line';
}

/** Cuts `text` to whole lines within `tokens` (at least one line is never guaranteed). */
function headWithin(text: string, tokens: number): string {
  const out: string[] = [];
  let used = 0;
  for (const line of text.split('\n')) {
    const t = estimateTokens(line) + 1;
    if (used + t > tokens) break;
    used += t;
    out.push(line);
  }
  return out.join('\n').trimEnd();
}

/** Attribute values are quoted; a path holding a quote or a newline is written with them escaped. */
const attr = (s: string) => s.replace(/[\\"\n\r]/g, (c) => (c === '"' ? '\\"' : c === '\\' ? '\\\\' : c === '\n' ? '\\n' : '\\r'));

/** The snippets that fit the budget, each cut to whole lines, in the order given. */
export function fitSnippets(snippets: readonly RelatedSnippet[], budget: number): RelatedSnippet[] {
  const out: RelatedSnippet[] = [];
  let left = budget;
  for (const s of snippets) {
    const frame = estimateTokens(s.path) + 8;
    const text = headWithin(s.text, Math.min(SNIPPET_MAX_TOKENS, left - frame));
    if (!text.trim()) continue;
    const cost = estimateTokens(text) + frame;
    if (cost > left) continue;
    left -= cost;
    out.push({ path: s.path, text });
  }
  return out;
}

export function buildFimPrompt(input: FimInput): FimPrompt {
  const budget = input.budget ?? DEFAULT_FIM_BUDGET;
  const window = documentWindow(input.lines, input.cursor, budget);
  const mode = completionMode(window.lineAfter);
  const snippets = fitSnippets(input.related ?? [], budget.snippetTokens);
  const parts: string[] = [];
  for (const s of snippets) parts.push(`<SNIPPET path="${attr(s.path)}">\n${s.text}\n</SNIPPET>`);
  parts.push(`<FILE path="${attr(input.path)}" language="${attr(input.languageId)}">`);
  parts.push(`<QUERY>\n${window.prefix}${FIM_HOLE}${window.suffix}\n</QUERY>`);
  parts.push(
    mode === 'line'
      ? `Fill the hole with the rest of its line only: the text after the hole stays. Answer between ${COMPLETION_OPEN} and ${COMPLETION_CLOSE}.`
      : `Fill the hole. Answer between ${COMPLETION_OPEN} and ${COMPLETION_CLOSE}.`,
  );
  const messages: ChatMessage[] = [
    { role: 'system', content: FIM_SYSTEM_PROMPT },
    { role: 'user', content: parts.join('\n') },
  ];
  return {
    messages,
    mode,
    maxTokens: MAX_TOKENS[mode],
    stop: [COMPLETION_CLOSE],
    window,
    promptTokens: estimateTokens(FIM_SYSTEM_PROMPT) + estimateTokens(messages[1]!.content as string) + 8,
    snippets,
  };
}

export interface FimRequestOptions {
  model: string;
  /** undefined: no provider field (the gateway picks) */
  channel?: Channel;
  /** the model has an effort control (the catalogue says so): ask for the lowest */
  reasoning?: boolean;
}

/** The chat request of a prompt: small max_tokens, the stop sequence, the lowest effort where there is one. */
export function fimRequest(prompt: FimPrompt, options: FimRequestOptions): ChatRequest {
  return {
    model: options.model,
    messages: prompt.messages,
    max_tokens: prompt.maxTokens,
    stop: prompt.stop,
    ...(options.reasoning ? { reasoning_effort: 'low' as const } : {}),
    ...(options.channel ? { provider: { channel: options.channel } } : {}),
  };
}
