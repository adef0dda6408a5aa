// What is sent once a conversation is compacted, and the request that writes the summary.
// The stored conversation keeps every turn; what is sent is the summary (a user message right
// after the stable prefix, where pinned context goes), the tool rounds kept for edited files, then
// the turns from the cut on, with the tool results that were superseded at the time of the
// compaction shortened to stubs. Everything here is a function of what the compaction stored, so
// every request after it sends the same bytes and the cache builds up again from the summary on.
// Pure.
import type { ChatMessage } from '../client/types';
import type { HistoryTurn } from './compactionPlan';
import { stubSupersededResults, stubText } from './toolResultStubs';
import { estimateTokens } from '../prompt/tokens';

/** A compaction as stored with the conversation. */
export interface CompactionRecord {
  /** the summary the model wrote */
  summary: string;
  /** id of the first turn sent verbatim (every earlier turn is in the summary) */
  cutId: string;
  /** tool rounds of edited files, kept verbatim after the summary */
  keptRounds: ChatMessage[];
  /** ids of tool calls whose results are sent as one-line stubs */
  stubbedCalls: string[];
  /** the user's instructions for the summary, if any */
  instructions?: string;
  /** model and channel that wrote it, and what it cost (USD, absent without a price) */
  model: string;
  channel: string;
  cost?: number;
  createdAt: number;
}

export const SUMMARY_HEADING = '# Summary of the earlier part of this conversation';

/** The message that carries the summary (a user message: several providers accept a system message only first). */
export function summaryMessage(summary: string): ChatMessage {
  return {
    role: 'user',
    content: `${SUMMARY_HEADING}\n\nThe turns before this point were compacted into this summary; the full text is no longer in the conversation. Tool results may be out of date: read files again before relying on them.\n\n${summary.trim()}`,
  };
}

/** Index of turn `id`, or -1. */
export const turnIndex = (turns: readonly HistoryTurn[], id: string): number => turns.findIndex((t) => t.id === id);

/** The ids of tool calls whose results are superseded in `wire` (what a compaction stores as stubbed). */
export function supersededCalls(wire: readonly ChatMessage[]): string[] {
  const { messages } = stubSupersededResults(wire);
  const ids: string[] = [];
  messages.forEach((m, i) => {
    if (m !== wire[i] && m.tool_call_id !== undefined) ids.push(m.tool_call_id);
  });
  return ids;
}

/** `wire` with the results of `stubbed` calls shortened (the tool and target read from their call). */
export function applyStubs(wire: readonly ChatMessage[], stubbed: ReadonlySet<string>): ChatMessage[] {
  if (stubbed.size === 0) return [...wire];
  const calls = new Map<string, { name: string; args: string }>();
  for (const m of wire) for (const c of m.tool_calls ?? []) calls.set(c.id, { name: c.function.name, args: c.function.arguments });
  return wire.map((m) => {
    if (m.role !== 'tool' || m.tool_call_id === undefined || !stubbed.has(m.tool_call_id)) return m;
    const call = calls.get(m.tool_call_id);
    if (!call) return m;
    const text = typeof m.content === 'string' ? m.content : '';
    return { ...m, content: stubText(call.name, targetOf(call.args), text) };
  });
}

function targetOf(args: string): string {
  try {
    const v = JSON.parse(args) as Record<string, unknown>;
    const t = [v.path, v.query, v.command, v.glob].filter((x): x is string => typeof x === 'string' && x.length > 0);
    return t.join('\n');
  } catch {
    return '';
  }
}

export interface CompactedHistory {
  /** what is sent after the stable prefix */
  history: ChatMessage[];
  /** wire index in the full history where the verbatim part starts */
  cutWire: number;
  /** where a file pinned before full-history message `at` goes in `history` */
  pinAt(at: number): number;
}

/** The history as sent under `compaction` (or the whole history when its cut turn is gone). */
export function compactedHistory(turns: readonly HistoryTurn[], compaction: CompactionRecord | undefined): CompactedHistory {
  const full = turns.flatMap((t) => t.wire);
  const cut = compaction ? turnIndex(turns, compaction.cutId) : -1;
  if (!compaction || cut < 0) return { history: full, cutWire: 0, pinAt: (at) => at };
  const cutWire = turns.slice(0, cut).reduce((n, t) => n + t.wire.length, 0);
  const head = [summaryMessage(compaction.summary), ...compaction.keptRounds];
  const stubbed = new Set(compaction.stubbedCalls);
  const tail = applyStubs([...compaction.keptRounds, ...full.slice(cutWire)], stubbed).slice(compaction.keptRounds.length);
  return {
    history: [...head, ...tail],
    cutWire,
    // pinned before the first message: the system message (the prefix); pinned in the summarised
    // part: right after the summary and the kept rounds; later: where it was, shifted
    pinAt: (at) => (at <= 0 ? 0 : at <= cutWire ? head.length : at - cutWire + head.length),
  };
}

/** How long each tool result may be in the transcript given to the summariser (characters). */
export const SUMMARY_TOOL_RESULT_CHARS = 2_000;

function textOf(m: ChatMessage): string {
  return typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n') : '';
}

function render(m: ChatMessage): string {
  const text = textOf(m);
  if (m.role === 'tool') {
    const cut =
      text.length > SUMMARY_TOOL_RESULT_CHARS
        ? `${text.slice(0, SUMMARY_TOOL_RESULT_CHARS)}\n[… ${text.length - SUMMARY_TOOL_RESULT_CHARS} more characters]`
        : text;
    return `Tool result:\n${cut}`;
  }
  const calls = (m.tool_calls ?? []).map((c) => `Called ${c.function.name} ${c.function.arguments}`);
  const who = m.role === 'user' ? 'User' : 'Assistant';
  return [text ? `${who}: ${text}` : '', ...calls.map((c) => `${who}: ${c}`)].filter(Boolean).join('\n');
}

/** Whether render(m) is empty: no text, no tool calls, and not a tool result. */
function rendersEmpty(m: ChatMessage): boolean {
  if (m.role === 'tool' || m.tool_calls?.length) return false;
  return typeof m.content === 'string' ? m.content === '' : textOf(m) === '';
}

/**
 * The request that writes the summary: what to keep (the task, decisions, file paths, open
 * questions, what was done and what is left), the user's instructions, the files edited, then the
 * transcript of the summarised part (superseded tool results already stubbed) and an earlier
 * summary it extends.
 */
export function summaryRequest(i: {
  wire: readonly ChatMessage[];
  previousSummary?: string;
  instructions?: string;
  editedPaths?: readonly string[];
  /** the most tokens the transcript may take: the oldest messages are left out first (the earlier summary stays) */
  budgetTokens?: number;
}): ChatMessage[] {
  const rules = [
    'You compact a conversation between a user and a coding assistant so that the assistant can continue the work without the full transcript.',
    'Write a summary in Markdown with these sections: Task (what the user wants, in their words where it matters), Decisions and constraints, Files (each path touched and what was done to it), Done so far, Open questions and next steps.',
    'Keep exact names: file paths, functions, commands, error messages, numbers. Leave out chit-chat and tool output that no longer matters.',
    'Do not address the user; do not invent anything that is not in the transcript.',
  ];
  if (i.editedPaths?.length) rules.push(`These files were edited in the summarised part; name each one and what changed: ${i.editedPaths.join(', ')}.`);
  if (i.instructions?.trim()) rules.push(`The user's instructions for this summary: ${i.instructions.trim()}`);
  const messages = stubSupersededResults(i.wire).messages;
  let parts: string[];
  let skipped = 0;
  if (i.budgetTokens === undefined) parts = messages.map(render).filter(Boolean);
  else {
    // The newest messages that fit (at least one), rendered from the end: in a long conversation
    // most of the transcript is left out, and rendering it all first held the host for 115 ms at
    // 1M tokens (npm run bench -- compaction).
    const room = i.budgetTokens - estimateTokens(i.previousSummary ?? '');
    parts = [];
    let total = 0;
    let k = messages.length - 1;
    for (; k >= 0; k--) {
      const part = render(messages[k]!);
      if (!part) continue;
      const tokens = estimateTokens(part);
      if (parts.length > 0 && total + tokens > room) break;
      parts.push(part);
      total += tokens;
    }
    parts.reverse();
    for (; k >= 0; k--) if (!rendersEmpty(messages[k]!)) skipped++;
  }
  if (skipped) parts.unshift(`[The ${skipped} oldest messages of this part were left out to fit the summariser's window.]`);
  const transcript = parts.join('\n\n');
  const earlier = i.previousSummary ? `An earlier summary of what came before:\n\n${i.previousSummary}\n\n` : '';
  return [
    { role: 'system', content: rules.join('\n') },
    { role: 'user', content: `${earlier}The transcript to summarise:\n\n${transcript}` },
  ];
}
