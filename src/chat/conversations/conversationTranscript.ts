// The host-owned transcript of one conversation and the pure operations on it: what is stored,
// what the webview sees, what goes over the wire. Pure, so it is unit-tested in
// plain Node.
//
// Each message keeps two forms: the view (what the panel shows) and the wire form (exactly what
// was sent to / received from the gateway), because earlier turns must be replayed byte for
// byte for the prompt cache to hit.
import type { AssistantPart, AttachmentView, CompactionView, ConversationSummary, ConversationView, ImagesPart, MessageView, ToolCallView } from '../protocol';
import { cachedShareOf } from '../../core/spend/answerCost';
import type { ChatMessage } from '../../core/client/types';
import type { PinnedFile, VolatileContext } from '../../core/prompt/promptLayout';
import type { RequestUsage } from '../../core/quote/answerHistory';
import type { PreviousRequest } from '../../core/quote/cachePrediction';
import { titleFrom as titleFromText, TITLE_MAX } from './conversationSearch';
import { compactedHistory, type CompactedHistory } from '../../core/compaction/compactedHistory';
import type { HistoryTurn } from '../../core/compaction/compactionPlan';
import type { StoredCompaction } from '../../core/compaction/compactionRecord';

/** A stored user message: what the webview shows, plus what was sent. */
export type UserRecord = Extract<MessageView, { role: 'user' }> & {
  /** volatile context sent with this message (kept to resend it after an edit) */
  context: VolatileContext[];
  /** the message exactly as sent */
  wire: ChatMessage;
};

/** A stored answer: what the webview shows, plus what goes back into later requests. */
export type AssistantRecord = Extract<MessageView, { role: 'assistant' }> & {
  /**
   * What the model said, as it goes back into later requests: assistant messages with their
   * tool calls, the tool results, and the final text. Only complete tool rounds are here (a
   * call without its result would make the next request invalid).
   */
  wire: ChatMessage[];
  /** each request of the answer as the gateway billed it (what the quote learns the answer's length and rounds from) */
  requests?: RequestUsage[];
  /** tools were offered to it (an answer that may take rounds) */
  tools?: boolean;
};

export type MessageRecord = UserRecord | AssistantRecord;

export interface PinnedRecord extends Omit<PinnedFile, 'at'> {
  id: string;
  label: string;
  /** the message it was pinned after (absent: pinned before the first message, so in the system message) */
  after?: string;
}

/** Context chosen for the next message only (consumed when it is sent). */
export type PendingAttachment =
  | { id: string; kind: 'selection' | 'diagnostics'; label: string; contexts: VolatileContext[] }
  | { id: string; kind: 'image'; label: string; mime: string; dataUrl: string; thumbnail?: string };

export interface Conversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messages: MessageRecord[];
  pinned: PinnedRecord[];
  pending: PendingAttachment[];
  draft: string;
  /** USD spent in this conversation (kept when answers are regenerated: the money was spent) */
  totalCost?: number;
  /** ids of messages removed on purpose (edit, regenerate), so another window does not bring them back */
  removed?: string[];
  /** the user renamed it: the title is theirs, never derived from a message again */
  renamed?: boolean;
  /** the conversation's own spending limit (USD), set from the quote; absent: the default of the settings */
  envelope?: number;
  /** the last request the gateway answered (what the next one's prompt cache is predicted from) */
  lastRequest?: PreviousRequest;
  /** what is sent in place of the older turns (they all stay in `messages`) */
  compaction?: StoredCompaction;
}

export const NEW_CHAT_TITLE = 'New chat';

export function newId(): string {
  return globalThis.crypto.randomUUID();
}

export function isValidId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(id);
}

export function newConversation(now: number, id = newId()): Conversation {
  return { id, title: NEW_CHAT_TITLE, createdAt: now, updatedAt: now, messages: [], pinned: [], pending: [], draft: '' };
}

/** Title from the first user message: markdown and whitespace out, cut at a word if long. */
export function titleFrom(text: string): string {
  return titleFromText(text, TITLE_MAX);
}

/** Worth writing to disk: has messages, a draft or attachments. */
export function isEmpty(c: Conversation): boolean {
  return c.messages.length === 0 && !c.draft && c.pinned.length === 0 && c.pending.length === 0;
}

export function summaryOf(c: Conversation): ConversationSummary {
  const s: ConversationSummary = { id: c.id, title: c.title, updatedAt: c.updatedAt };
  if (c.totalCost !== undefined) s.totalCost = c.totalCost;
  const share = cachedShareOf(c.messages.map((m) => (m.role === 'assistant' ? m.usage : undefined)));
  if (share !== undefined) s.cachedShare = share;
  return s;
}

export function messageView(m: MessageRecord): MessageView {
  if (m.role === 'user') {
    return { id: m.id, role: 'user', text: m.text, attachments: m.attachments.map((a) => ({ ...a })), createdAt: m.createdAt };
  }
  const view: MessageView = {
    id: m.id,
    role: 'assistant',
    parts: m.parts.map((p): AssistantPart =>
      p.kind === 'tool' ? { kind: 'tool', call: { ...p.call } } : p.kind === 'images' ? { ...p, paths: [...p.paths] } : { ...p },
    ),
    status: m.status,
    model: m.model,
    channel: m.channel,
    createdAt: m.createdAt,
  };
  if (m.usage) view.usage = { ...m.usage };
  if (m.error) view.error = { message: m.error.message, actions: [...m.error.actions] };
  return view;
}

export function conversationView(c: Conversation): ConversationView {
  const v: ConversationView = { id: c.id, title: c.title, messages: c.messages.map(messageView), draft: c.draft };
  if (c.totalCost !== undefined) v.totalCost = c.totalCost;
  const k = compactionView(c);
  if (k) v.compaction = k;
  return v;
}

/** The divider of a compacted conversation, when its cut message is still there. */
export function compactionView(c: Conversation): CompactionView | undefined {
  const k = c.compaction;
  if (!k || !c.messages.some((m) => m.id === k.cutId)) return undefined;
  const v: CompactionView = { cutId: k.cutId, summary: k.summary, model: k.model, undoable: !!k.undoable };
  if (k.cost !== undefined) v.cost = k.cost;
  return v;
}

/** Chips of the composer: pinned files, then what is pending for the next message. */
export function composerAttachments(c: Conversation): AttachmentView[] {
  const out: AttachmentView[] = c.pinned.map((p) => ({ id: p.id, kind: 'file', label: p.label }));
  for (const a of c.pending) {
    const v: AttachmentView = { id: a.id, kind: a.kind, label: a.label };
    if (a.kind === 'image' && a.thumbnail) v.thumbnail = a.thumbnail;
    out.push(v);
  }
  return out;
}

/** Wire messages of the transcript up to (not including) message `end`. */
/** The conversation's messages as the compaction sees them: each with the wire messages it sent. */
export function historyTurns(c: Conversation, end = c.messages.length): HistoryTurn[] {
  return c.messages.slice(0, end).map((m) => ({ id: m.id, role: m.role, wire: m.role === 'user' ? [m.wire] : m.wire }));
}

/**
 * What the first `end` messages send: every wire message, or after a compaction whose cut lies
 * before `end`, the summary, the kept rounds and the turns from the cut on (compactedHistory).
 */
export function sentHistory(c: Conversation, end = c.messages.length): CompactedHistory {
  return compactedHistory(historyTurns(c, end), c.compaction);
}

/** The history as a request sends it (see sentHistory). */
export function wireHistory(c: Conversation, end = c.messages.length): ChatMessage[] {
  return sentHistory(c, end).history;
}

/** Removes message `id` and everything after it; the removed records, or [] when not found. */
export function truncateFrom(c: Conversation, id: string): MessageRecord[] {
  const i = c.messages.findIndex((m) => m.id === id);
  if (i < 0) return [];
  const removed = c.messages.splice(i);
  // A file pinned after a removed message now follows the last message that stays.
  const gone = new Set(removed.map((m) => m.id));
  const last = c.messages.at(-1)?.id;
  for (const p of c.pinned) {
    if (p.after === undefined || !gone.has(p.after)) continue;
    if (last === undefined) delete p.after;
    else p.after = last;
  }
  return removed;
}

/**
 * On load: an answer still marked streaming was cut off by a reload or a crash. Its partial text
 * is kept; it is marked interrupted. Returns whether anything changed.
 */
export function markInterrupted(c: Conversation): boolean {
  let changed = false;
  for (const m of c.messages) {
    if (m.role === 'assistant' && m.status === 'streaming') {
      m.status = 'interrupted';
      // The round that was streaming never reached the wire form: its text (after the last
      // completed tool call) goes back as it stands, like a stopped answer's. A round cut off
      // while its tools ran is left out: its calls have no results.
      let lastTool = -1;
      m.parts.forEach((p, i) => (lastTool = p.kind === 'tool' ? i : lastTool));
      const running = m.parts.some((p) => p.kind === 'tool' && p.call.status === 'running');
      const trailing = m.parts
        .slice(lastTool + 1)
        .map((p) => (p.kind === 'text' ? p.text : ''))
        .join('');
      if (trailing && !running) m.wire.push({ role: 'assistant', content: trailing });
      for (const p of m.parts) {
        if (p.kind === 'tool' && p.call.status === 'running') {
          p.call.status = 'error';
          p.call.result = 'Interrupted.';
        }
      }
      changed = true;
    }
  }
  return changed;
}

/** Appends streamed text: to the last text part, or a new one after a tool call. */
export function appendText(m: AssistantRecord, text: string): void {
  const last = m.parts[m.parts.length - 1];
  if (last?.kind === 'text') last.text += text;
  else m.parts.push({ kind: 'text', text });
}

/** Appends streamed reasoning: to the Thinking part of this round, or a new one. */
export function appendThinking(m: AssistantRecord, text: string): void {
  const last = m.parts[m.parts.length - 1];
  if (last?.kind === 'thinking' && last.ms === undefined) last.text += text;
  else m.parts.push({ kind: 'thinking', text });
}

/** The round's thinking ended after `ms` (kept, so a reload shows "Thought for …"). */
export function endThinking(m: AssistantRecord, ms: number): void {
  const last = m.parts[m.parts.length - 1];
  if (last?.kind === 'thinking' && last.ms === undefined) last.ms = ms;
}

/** Adds or updates the part of a tool call (by call id). */
export function upsertToolCall(m: AssistantRecord, call: ToolCallView): void {
  const part = m.parts.find((p): p is Extract<AssistantPart, { kind: 'tool' }> => p.kind === 'tool' && p.call.id === call.id);
  if (part) part.call = { ...call };
  else m.parts.push({ kind: 'tool', call: { ...call } });
}

/** Adds the images a tool call saved (shown after the call). */
export function addImages(m: AssistantRecord, part: ImagesPart): void {
  if (!m.parts.some((p) => p.kind === 'images' && p.id === part.id)) m.parts.push({ kind: 'images', id: part.id, paths: [...part.paths] });
}

export function lastAssistant(c: Conversation): AssistantRecord | undefined {
  const m = c.messages[c.messages.length - 1];
  return m?.role === 'assistant' ? m : undefined;
}
