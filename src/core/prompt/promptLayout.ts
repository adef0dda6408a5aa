// Prompt assembly, laid out for the gateway's prefix cache. A cache hit needs the request to
// start with exactly the bytes of an earlier one, so:
//   1. the system prompt and the pinned context (files attached to the conversation before its
//      first message) come first, in attach order, with nothing volatile in them (no dates, no
//      counters); a file pinned later goes in a message of its own at the point of the
//      conversation where it was pinned (`PinnedFile.at`), so the turns before it, which earlier
//      requests already sent, keep their bytes and stay cached;
//   2. earlier turns are replayed exactly as they were sent (the caller keeps the wire form of
//      each message; this module only puts keys in one canonical order, so a message that went
//      through JSON storage and zod serializes to the same bytes again);
//   3. volatile context (the current selection, its diagnostics) goes into the newest user
//      message only, where it changes nothing that an earlier request already sent;
//   4. the model's reasoning goes back on every assistant message with `tool_calls`, of the tool
//      loop in progress and of every earlier turn (DeepSeek refuses a loop's next request without
//      it, Kimi refuses any request whose earlier tool-call messages lack it; DeepSeek ignores it
//      on finished turns), and never on messages without tool calls: see `replayReasoning`. So a
//      tool-call message carries the same bytes in every request that resends it, and the
//      prefix cache keeps matching.
// Pure: no clock, no randomness.
import type { ChatMessage, ContentPart, WireToolCall } from '../client/types';

/** A file attached to a conversation: part of every request's stable prefix. */
export interface PinnedFile {
  /** workspace-relative path (or a name for untitled documents) */
  path: string;
  /** fence language, e.g. "ts" */
  language?: string;
  /** the content as it was when attached: re-reading it per turn would break the cache */
  content: string;
  /**
   * Where it goes: before `history[at]` (the messages of the conversation at the moment it was
   * pinned). 0 or absent: in the system message. Past the end of the history: at the end.
   */
  at?: number;
}

/** The heading of the files block in the system message and in a mid-conversation pin message. */
export const PINNED_HEADING = '# Files the user attached to this conversation';

/** Context that belongs to one message only (a selection, diagnostics). */
export interface VolatileContext {
  /** e.g. "Selection from src/a.ts, lines 10-20" */
  title: string;
  language?: string;
  text: string;
}

export interface ImageInput {
  /** a data: URL (base64); never a remote URL */
  dataUrl: string;
}

/** A fence longer than any run of backticks inside `text`, so content cannot close it early. */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function fenced(text: string, language?: string): string {
  const fence = fenceFor(text);
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `${fence}${language ?? ''}\n${body}${fence}`;
}

function filesBlock(pinned: readonly PinnedFile[]): string {
  return pinned.map((f) => `File: ${f.path}\n${fenced(f.content, f.language)}`).join('\n\n');
}

/** The first message: system prompt, then every pinned file in the order given. */
export function systemMessage(systemPrompt: string, pinned: readonly PinnedFile[]): ChatMessage {
  if (pinned.length === 0) return { role: 'system', content: systemPrompt };
  return { role: 'system', content: `${systemPrompt}\n\n${PINNED_HEADING}\n\n${filesBlock(pinned)}` };
}

/**
 * The message that carries files pinned in the middle of a conversation. A user message (not a
 * second system message: several providers accept a system message only first).
 */
export function pinnedMessage(pinned: readonly PinnedFile[]): ChatMessage {
  return { role: 'user', content: `${PINNED_HEADING} (from here on)\n\n${filesBlock(pinned)}` };
}

/**
 * The wire form of a user message: its volatile context first (so the question comes last, next
 * to the answer), then the text; images as `image_url` parts. Without context or images the
 * content is the text itself.
 */
export function userMessage(text: string, context: readonly VolatileContext[] = [], images: readonly ImageInput[] = []): ChatMessage {
  const blocks = context.map((c) => `${c.title}:\n${fenced(c.text, c.language)}`);
  const body = blocks.length ? `${blocks.join('\n\n')}\n\n${text}` : text;
  if (images.length === 0) return { role: 'user', content: body };
  const parts: ContentPart[] = [{ type: 'text', text: body }];
  for (const img of images) parts.push({ type: 'image_url', image_url: { url: img.dataUrl } });
  return { role: 'user', content: parts };
}

function canonicalPart(p: ContentPart): ContentPart {
  if (p.type === 'text') return { type: 'text', text: p.text };
  return {
    type: 'image_url',
    image_url: p.image_url.detail ? { url: p.image_url.url, detail: p.image_url.detail } : { url: p.image_url.url },
  };
}

function canonicalCall(c: WireToolCall): WireToolCall {
  return { id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } };
}

/**
 * The same message with its keys in one fixed order (JSON serialization follows key order).
 * Reasoning is kept on assistant messages with tool calls only (the replay rule).
 */
export function canonicalMessage(m: ChatMessage): ChatMessage {
  const out: ChatMessage = {
    role: m.role,
    content: typeof m.content === 'string' || m.content === null ? m.content : m.content.map(canonicalPart),
  };
  if (m.tool_calls?.length) out.tool_calls = m.tool_calls.map(canonicalCall);
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  if (m.name !== undefined) out.name = m.name;
  if (out.tool_calls && m.role === 'assistant') {
    if (m.reasoning_content) out.reasoning_content = m.reasoning_content;
    if (m.reasoning) out.reasoning = m.reasoning;
  }
  return out;
}

/**
 * The replay rule for reasoning: kept on every assistant message with `tool_calls` (the loop in
 * progress and earlier turns alike), dropped from messages without tool calls. Other fields
 * untouched; messages that change are copies.
 */
export function replayReasoning(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => {
    if (m.reasoning_content === undefined && m.reasoning === undefined) return m;
    if (m.role === 'assistant' && m.tool_calls?.length) return m;
    const { reasoning_content: _content, reasoning: _reasoning, ...rest } = m;
    return rest;
  });
}

export interface PromptInput {
  systemPrompt: string;
  pinned: readonly PinnedFile[];
  /**
   * Every earlier message exactly as sent (user messages with the context they had then,
   * assistant messages with their tool calls, tool results), then the newest user message.
   * Reasoning goes out on its assistant messages with tool calls only (the replay rule).
   */
  history: readonly ChatMessage[];
}

/**
 * The `messages` of a request: the system message with the files pinned before the first
 * message, then the history with each later pin's message inserted where it was pinned (files
 * pinned at the same point share one message, in attach order). Pinning a file mid-conversation
 * therefore never changes the bytes of anything an earlier request sent.
 */
export function layoutPrompt(input: PromptInput): ChatMessage[] {
  const n = input.history.length;
  const pos = (f: PinnedFile) => Math.min(Math.max(0, f.at ?? 0), n);
  const byPos = new Map<number, PinnedFile[]>();
  for (const f of input.pinned) {
    const at = pos(f);
    byPos.set(at, [...(byPos.get(at) ?? []), f]);
  }
  const out: ChatMessage[] = [systemMessage(input.systemPrompt, byPos.get(0) ?? [])];
  for (let i = 0; i <= n; i++) {
    const here = i > 0 ? byPos.get(i) : undefined;
    if (here) out.push(pinnedMessage(here));
    if (i < n) out.push(canonicalMessage(input.history[i]!));
  }
  return out;
}

/** Image parts of a message (to carry them over when a user message is edited and resent). */
export function imagesOf(m: ChatMessage): ImageInput[] {
  if (!Array.isArray(m.content)) return [];
  return m.content.flatMap((p) => (p.type === 'image_url' ? [{ dataUrl: p.image_url.url }] : []));
}

/** Whether any message of a request carries an image (text-only models reject those). */
export function hasImages(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => imagesOf(m).length > 0);
}
