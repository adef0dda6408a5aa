// What a compaction keeps and what it summarises. The stable prefix (system prompt, rules files,
// tools, files pinned before the first message) is not part of the history at all, so it stays
// byte-identical and keeps its cache. Of the history:
//   - kept verbatim: the user's latest request and everything after it (the answer in progress,
//     its tool calls, resolved or not), the more recent turns that fit in `keepTokens`, and for
//     each file edited in the part that is summarised, the last tool round that edited it (a
//     summary would lose the exact text the model wrote);
//   - summarised: every older turn.
// The cut always falls on a turn boundary (a user message), so a tool call is never separated from
// its result. A tool call without its result (an answer cut off) keeps its turn out of the summary.
// Pure.
import type { ChatMessage } from '../client/types';
import { estimateMessageTokens } from '../prompt/tokens';

/** One stored message of the conversation and the wire messages it sent (a user message: one; an answer: its rounds). */
export interface HistoryTurn {
  id: string;
  role: 'user' | 'assistant';
  wire: readonly ChatMessage[];
}

export const EDIT_TOOLS: ReadonlySet<string> = new Set(['edit_file', 'create_file', 'delete_file']);

export interface PlanInput {
  turns: readonly HistoryTurn[];
  /** tokens of recent turns kept verbatim besides the latest request (0: only the latest request) */
  keepTokens: number;
  /** id of the turn a previous compaction summarised up to (exclusive): turns before it are already in that summary */
  previousCut?: number;
}

export interface CompactionPlan {
  /** turns [from, cut) are summarised (from = the previous compaction's cut, or 0) */
  from: number;
  cut: number;
  /** tool rounds of files edited in the summarised turns, kept verbatim after the summary (assistant message and its results) */
  keptRounds: ChatMessage[];
  /** the files those rounds edited, in order of their last edit */
  editedPaths: string[];
}

function pathOfCall(args: string): string | undefined {
  try {
    const v: unknown = JSON.parse(args);
    const p = v && typeof v === 'object' ? (v as { path?: unknown }).path : undefined;
    return typeof p === 'string' && p ? p : undefined;
  } catch {
    return undefined;
  }
}

/** Whether every tool call of `wire` has its result in `wire`. */
export function allCallsResolved(wire: readonly ChatMessage[]): boolean {
  const open = new Set<string>();
  for (const m of wire) {
    for (const c of m.tool_calls ?? []) open.add(c.id);
    if (m.role === 'tool' && m.tool_call_id !== undefined) open.delete(m.tool_call_id);
  }
  return open.size === 0;
}

/** One tool round: an assistant message with tool calls and the results that follow it. */
function roundsOf(wire: readonly ChatMessage[]): ChatMessage[][] {
  const rounds: ChatMessage[][] = [];
  for (let i = 0; i < wire.length; i++) {
    const m = wire[i]!;
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const round = [m];
    for (let j = i + 1; j < wire.length && wire[j]!.role === 'tool'; j++) round.push(wire[j]!);
    rounds.push(round);
  }
  return rounds;
}

/** The last round that edited each file in `turns`, in the order of the rounds; and the paths. */
export function lastEditRounds(turns: readonly HistoryTurn[]): { rounds: ChatMessage[][]; paths: string[] } {
  const lastRound = new Map<string, ChatMessage[]>();
  for (const t of turns) {
    for (const round of roundsOf(t.wire)) {
      for (const c of round[0]!.tool_calls ?? []) {
        const path = EDIT_TOOLS.has(c.function.name) ? pathOfCall(c.function.arguments) : undefined;
        if (path === undefined) continue;
        lastRound.delete(path); // re-inserted: Map order becomes the order of the last edit
        lastRound.set(path, round);
      }
    }
  }
  const rounds: ChatMessage[][] = [];
  for (const r of lastRound.values()) if (!rounds.includes(r)) rounds.push(r);
  // in conversation order: a round's position is where it stood
  const order = new Map<ChatMessage[], number>();
  let n = 0;
  for (const t of turns) for (const r of roundsOf(t.wire)) for (const kept of rounds) if (kept[0] === r[0]) order.set(kept, n++);
  rounds.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  return { rounds, paths: [...lastRound.keys()] };
}

/**
 * Where to cut: the latest user request and what follows stay; earlier turns stay while they fit in
 * `keepTokens`; a turn with an unresolved tool call stays with everything after it. Returns
 * undefined when nothing older than what stays is left to summarise.
 */
export function planCompaction(input: PlanInput): CompactionPlan | undefined {
  const { turns } = input;
  const from = Math.max(0, input.previousCut ?? 0);
  let latest = -1;
  for (let i = turns.length - 1; i >= 0; i--) {
    if (turns[i]!.role === 'user') {
      latest = i;
      break;
    }
  }
  if (latest < 0) return undefined;
  let cut = latest;
  // an unresolved tool call anywhere keeps its turn and everything after it
  for (let i = from; i < cut; i++) {
    if (!allCallsResolved(turns[i]!.wire)) {
      cut = i;
      break;
    }
  }
  // recent turns that fit in keepTokens, cut on a user message
  let budget = Math.max(0, input.keepTokens);
  for (let i = cut - 1; i > from; i--) {
    budget -= turns[i]!.wire.reduce((n, m) => n + estimateMessageTokens(m), 0);
    if (budget < 0) break;
    if (turns[i]!.role === 'user') cut = i;
  }
  while (cut > from && turns[cut]?.role !== 'user') cut--;
  if (cut <= from) return undefined;
  const { rounds, paths } = lastEditRounds(turns.slice(from, cut));
  return { from, cut, keptRounds: rounds.flat(), editedPaths: paths };
}
