// The cheap step before any summary: an old tool result that a later one of the same kind
// replaces (a later read of the same file, the same search or command run again, the same folder
// listed again) is shortened to one line that names what was there. The model can run the tool
// again; nothing of the stored conversation changes (this is applied to what is sent only).
// Applied only when a conversation is compacted anyway: shortening an old message changes bytes
// an earlier request sent, so on its own it would cost the prompt cache. Pure.
import type { ChatMessage } from '../client/types';

/** The tools whose output a later call of the same kind makes obsolete, and what identifies "the same". */
const SUPERSEDABLE: Readonly<Record<string, (args: Record<string, unknown>) => string | undefined>> = {
  read_file: (a) => str(a.path),
  search_text: (a) => [str(a.pattern) ?? str(a.query), str(a.glob) ?? ''].join('\n'),
  list_files: (a) => [str(a.path) ?? '', str(a.glob) ?? ''].join('\n'),
  run_command: (a) => str(a.command),
  get_diagnostics: (a) => str(a.path) ?? '',
};

/** A tool result stub starts with this, so a stub is never stubbed again. */
export const STUB_PREFIX = '[Shortened:';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

function parseArgs(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const textOf = (m: ChatMessage): string =>
  typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';

function lineCount(text: string): number {
  if (!text) return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines - (text.endsWith('\n') ? 1 : 0);
}

/** 12345 -> "12,345" (as toLocaleString('en-US'), which costs tens of microseconds a call: hundreds of stubs add up). */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/** What the one-line stub says: the tool, what it was called on, how much it returned, and how to get it again. */
export function stubText(tool: string, what: string, original: string): string {
  const size = `${grouped(lineCount(original))} lines, ${grouped(original.length)} characters`;
  const target = what.split('\n').filter(Boolean).join(' in ') || 'the workspace';
  return `${STUB_PREFIX} ${tool} on ${target} returned ${size} here; a later ${tool} on the same target replaced it. Call ${tool} again if you need it.]`;
}

export interface StubResult {
  messages: ChatMessage[];
  /** tool results that were shortened */
  stubbed: number;
  /** characters removed */
  savedChars: number;
}

/**
 * The messages with every superseded tool result shortened (copies of the changed messages; the
 * others are the same objects). A result is superseded when a later call of the same tool on the
 * same target exists and has its result in `messages`.
 */
export function stubSupersededResults(messages: readonly ChatMessage[]): StubResult {
  // tool_call_id -> the key of what it was called on
  const keyOf = new Map<string, { tool: string; what: string; key: string }>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.tool_calls ?? []) {
      const identify = SUPERSEDABLE[c.function.name];
      const what = identify?.(parseArgs(c.function.arguments));
      if (what !== undefined) keyOf.set(c.id, { tool: c.function.name, what, key: `${c.function.name}\n${what}` });
    }
  }
  // the last result of each key stays whole
  const lastIndex = new Map<string, number>();
  messages.forEach((m, i) => {
    const k = m.role === 'tool' && m.tool_call_id !== undefined ? keyOf.get(m.tool_call_id) : undefined;
    if (k) lastIndex.set(k.key, i);
  });
  let stubbed = 0;
  let savedChars = 0;
  const out = messages.map((m, i) => {
    const k = m.role === 'tool' && m.tool_call_id !== undefined ? keyOf.get(m.tool_call_id) : undefined;
    if (!k || lastIndex.get(k.key) === i) return m;
    const text = textOf(m);
    if (text.startsWith(STUB_PREFIX)) return m;
    const stub = stubText(k.tool, k.what, text);
    if (stub.length >= text.length) return m;
    stubbed++;
    savedChars += text.length - stub.length;
    return { ...m, content: stub };
  });
  return { messages: out, stubbed, savedChars };
}
