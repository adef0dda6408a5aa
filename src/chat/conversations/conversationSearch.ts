// Titles, search text and matching for the conversation list. Pure, unit-tested in
// Node. The store keeps one bounded search text per conversation in its index, so the list can
// search the content of 1,000 conversations without reading 1,000 files.
import { plainLabel } from '../../core/plainLabel';

/** Longest derived title (characters); a rename may be longer, up to RENAME_MAX. */
export const TITLE_MAX = 60;
export const RENAME_MAX = 120;
/**
 * Search text kept per conversation in the index (characters). It bounds the index (1,000
 * conversations ~ 2 MB) and what a search scans; the user's messages come first, so what people
 * asked is searchable even in a long conversation.
 */
export const SEARCH_TEXT_MAX = 2000;
export const UNTITLED = 'New chat';

/**
 * Markdown and whitespace out: what a title or a search text keeps of a message.
 *
 * Every pattern here is linear in the text: a bracket, parenthesis or tag may not
 * contain its own opener, so a scan that fails stops at the next opener instead of running to the
 * end of the text from every opener (64K of `[` or `<a` took seconds with `[^\]]*` and `[^>]*`).
 */
export function plainText(text: string): string {
  return text
    .replace(/```[^\n]*\n?/g, ' ') // fence lines (the code inside stays, it is often what was asked about)
    .replace(/!\[([^[\]]*)\]\([^()]*(?:\([^()]*\)[^()]*)*\)/g, '$1') // images: their alt text (a URL may hold one level of parentheses)
    .replace(/\[([^[\]]+)\]\([^()]*(?:\([^()]*\)[^()]*)*\)/g, '$1') // links: their text
    .replace(/<\/?[A-Za-z][^<>]*>/g, ' ') // html tags
    .replace(/^\s{0,3}(#{1,6}|>+|[-*+]|\d+[.)])\s+/gm, '') // headings, quotes, list markers
    .replace(/(\*\*|__|~~|`+)/g, '') // emphasis and code marks
    .replace(/(^|\s)[*_](\S)/g, '$1$2')
    .replace(/(\S)[*_](?=\s|$|[.,;:!?])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A short title from the first message: plain text, cut at a word, `New chat` when empty. */
export function titleFrom(text: string, max = TITLE_MAX): string {
  const flat = plainLabel(plainText(text));
  if (!flat) return UNTITLED;
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, '')}…`;
}

/** A title the user typed: whitespace collapsed, bounded; undefined when nothing is left. */
export function cleanRename(text: string): string | undefined {
  const flat = plainLabel(text);
  if (!flat) return undefined;
  return flat.length <= RENAME_MAX ? flat : `${flat.slice(0, RENAME_MAX - 1).trimEnd()}…`;
}

export interface SearchSource {
  title: string;
  messages: readonly (
    | { role: 'user'; text: string }
    | { role: 'assistant'; status: string; parts: readonly ({ kind: 'text'; text: string } | { kind: string })[] }
  )[];
}

/**
 * The bounded search text of a conversation: the title, then the user's messages, then the
 * answers (an answer still streaming is left out, so the index is not rewritten per token).
 */
export function searchTextOf(c: SearchSource, max = SEARCH_TEXT_MAX): string {
  const pieces: string[] = [];
  let length = 0;
  const add = (text: string, owner?: object): boolean => {
    const plain = owner ? plainTextOf(owner, text) : plainText(text);
    if (!plain) return length < max;
    const room = max - length;
    if (room <= 0) return false;
    const piece = plain.length > room ? plain.slice(0, room) : plain;
    pieces.push(piece);
    length += piece.length + 1;
    return length < max;
  };
  if (!add(c.title)) return pieces.join('\n');
  for (const m of c.messages) if (m.role === 'user' && !add(m.text, m)) return pieces.join('\n');
  for (const m of c.messages) {
    if (m.role !== 'assistant' || m.status === 'streaming') continue;
    for (const p of m.parts) if (p.kind === 'text' && 'text' in p && !add(p.text, p)) return pieces.join('\n');
  }
  return pieces.join('\n');
}

/**
 * The plain text of a message or part, kept per object while its text is the same string: the
 * store asks for a conversation's search text on every change (each streamed delta among them),
 * and that must not cost a pass over every earlier answer (one earlier answer of 32,000 `[` froze the host).
 */
const plainCache = new WeakMap<object, { text: string; plain: string }>();
export function plainTextOf(owner: object, text: string): string {
  const cached = plainCache.get(owner);
  if (cached && cached.text === text) return cached.plain;
  const plain = plainText(text);
  plainCache.set(owner, { text, plain });
  return plain;
}

export interface ListEntry {
  id: string;
  title: string;
  updatedAt: number;
  totalCost?: number;
  cachedShare?: number;
  /** the bounded search text (any case); missing for entries written before it existed */
  text?: string;
}

export interface ListMatch<E extends ListEntry = ListEntry> {
  entry: E;
  /** where the query matched: the title, or only the content */
  in: 'title' | 'content' | 'all';
  /** a piece of the content around the first match (content matches only) */
  snippet?: string;
}

/** Lower-case copies of titles and texts, made once per entry object (entries are replaced on change). */
const lowered = new WeakMap<object, { title: string; text: string }>();
function lowerOf(e: ListEntry): { title: string; text: string } {
  let l = lowered.get(e);
  if (!l) {
    l = { title: e.title.toLowerCase(), text: (e.text ?? '').toLowerCase() };
    lowered.set(e, l);
  }
  return l;
}

/**
 * The entries that match `query` (every word of it, anywhere in the title or the search text),
 * newest first; those whose title matches come before those that match only in their content.
 * An empty query lists everything, newest first.
 */
export function searchConversations<E extends ListEntry>(entries: readonly E[], query: string): ListMatch<E>[] {
  const newest = [...entries].sort((a, b) => b.updatedAt - a.updatedAt);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return newest.map((entry) => ({ entry, in: 'all' as const }));
  const inTitle: ListMatch<E>[] = [];
  const inContent: ListMatch<E>[] = [];
  for (const entry of newest) {
    const l = lowerOf(entry);
    if (words.every((w) => l.title.includes(w))) inTitle.push({ entry, in: 'title' });
    else if (words.every((w) => l.title.includes(w) || l.text.includes(w))) {
      const first = words.filter((w) => !l.title.includes(w))[0] as string;
      inContent.push({ entry, in: 'content', snippet: snippetAt(entry.text ?? '', l.text.indexOf(first), first.length) });
    }
  }
  return [...inTitle, ...inContent];
}

/** About `width` characters of `text` around [at, at + length), cut at words, with ellipses. */
export function snippetAt(text: string, at: number, length: number, width = 80): string {
  if (at < 0) return '';
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  let start = Math.max(0, at - Math.floor((width - length) / 3));
  let end = Math.min(text.length, start + width);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space >= 0 && space < at) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > at + length) end = space;
  }
  return `${start > 0 ? '…' : ''}${plainLabel(flat(text.slice(start, end)))}${end < text.length ? '…' : ''}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "just now", "5 min ago", "3 hours ago", "yesterday", "4 days ago", then "12 Mar" / "12 Mar 2025". */
export function relativeDate(time: number, now: number): string {
  const ago = now - time;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  const then = new Date(time);
  const today = new Date(now);
  const midnight = new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime();
  if (time >= midnight) {
    const hours = Math.floor(ago / HOUR);
    return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  }
  if (time >= midnight - DAY) return 'yesterday';
  const days = Math.ceil((midnight - time) / DAY);
  if (days < 7) return `${days} days ago`;
  const date = `${then.getDate()} ${MONTHS[then.getMonth()]}`;
  return then.getFullYear() === today.getFullYear() ? date : `${date} ${then.getFullYear()}`;
}
