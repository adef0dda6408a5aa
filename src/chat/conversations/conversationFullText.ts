// The whole searchable text of a conversation, and the search over it. Pure, unit-tested in Node.
//
// The index keeps only the first 2,000 characters of each conversation (conversationSearch.ts), so
// the list answers at once; a word deeper in a long day's conversation (compacted turns included:
// they all stay in its messages) is found here. The store writes the plain text of each
// conversation beside its JSON when it saves it (`conversation-<id>.txt`, rewritten only when the
// text changed), and the list reads those files on demand, one conversation after the other,
// newest first, within a bound on the characters read per search. Nothing is loaded at start-up
// and nothing is kept in memory between searches but the matches.
import { plainTextOf, SEARCH_TEXT_MAX, snippetAt, type ListEntry, type ListMatch, type SearchSource } from './conversationSearch';

export const fullTextFileOf = (id: string): string => `conversation-${id}.txt`;

/**
 * What a search reads at most before it stops and offers to go on: characters of full text (200
 * conversations of 500 messages are about 61 million, read in about a second), and time (the
 * first search after an upgrade rebuilds each text from its JSON, about ten times slower).
 */
export const FULL_TEXT_SEARCH_MAX_CHARS = 128_000_000;
export const FULL_TEXT_SEARCH_MAX_MS = 5_000;

/** A conversation as the full text needs it (a stored Conversation is one). */
export interface FullTextSource extends SearchSource {
  updatedAt: number;
  compaction?: { summary: string };
}

interface Header {
  v: 1;
  /** the conversation's updatedAt when the text was written: an older text is rebuilt from the JSON */
  updatedAt: number;
}

/**
 * The plain text of every message in order (an answer still streaming is left out, as in the
 * index), then the compaction summary. Plain text is cached per message object, so a save of a
 * long conversation does not run the markdown patterns over its whole history again, and an
 * unchanged message gives the very same string (the store compares pieces, not the joined text).
 */
export function fullTextPieces(c: FullTextSource): string[] {
  const pieces: string[] = [plainTextOf(c, c.title)];
  for (const m of c.messages) {
    if (m.role === 'user') pieces.push(plainTextOf(m, m.text));
    else if (m.status !== 'streaming') for (const p of m.parts) if (p.kind === 'text' && 'text' in p) pieces.push(plainTextOf(p, p.text));
  }
  if (c.compaction?.summary) pieces.push(plainTextOf(c.compaction, c.compaction.summary));
  return pieces.filter(Boolean);
}

export function fullTextBody(c: FullTextSource): string {
  return fullTextPieces(c).join('\n');
}

/** Whether two piece lists are the same text (unchanged messages give the same string object: mostly pointer comparisons). */
export function samePieces(a: readonly string[] | undefined, b: readonly string[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The file's text: a one-line header, then the body. */
export function fullTextFile(c: FullTextSource, body = fullTextBody(c)): string {
  const header: Header = { v: 1, updatedAt: c.updatedAt };
  return `${JSON.stringify(header)}\n${body}`;
}

/** The body of a full-text file when it is at least as new as `updatedAt`; undefined when it is stale or not ours. */
export function freshBody(raw: string | undefined, updatedAt: number): string | undefined {
  if (raw === undefined) return undefined;
  const nl = raw.indexOf('\n');
  if (nl < 0) return undefined;
  try {
    const h = JSON.parse(raw.slice(0, nl)) as Partial<Header>;
    if (h.v !== 1 || typeof h.updatedAt !== 'number' || h.updatedAt < updatedAt) return undefined;
  } catch {
    return undefined;
  }
  return raw.slice(nl + 1);
}

/**
 * Whether the index's text of an entry may be cut: only then can the full text match where the
 * index did not. (The index's text is the whole conversation when it is shorter than its bound.)
 */
export function indexTextIsCut(e: ListEntry): boolean {
  return e.text === undefined || e.text.length >= SEARCH_TEXT_MAX - 2;
}

export interface FullTextSearchOptions {
  /** characters read at most (default FULL_TEXT_SEARCH_MAX_CHARS); the conversation that passes it is still searched whole */
  maxChars?: number;
  /** milliseconds after which no further file is read (default FULL_TEXT_SEARCH_MAX_MS) */
  maxMs?: number;
  now?: () => number;
  /** files read at once (default 2: the machine's other work keeps a core) */
  concurrency?: number;
  /** true once a newer search replaced this one: it stops reading */
  cancelled?: () => boolean;
  /** each match as it is found (newest conversations are read first) */
  onMatch?: (match: ListMatch) => void;
}

export interface FullTextSearchResult<E extends ListEntry> {
  matches: ListMatch<E>[];
  /** conversations whose full text was read */
  searched: number;
  /** the entries not read because the bound was reached, newest first (empty when the search was complete) */
  rest: E[];
  /** characters read */
  chars: number;
}

/**
 * Reads the full text of `entries` (newest first, as given) and returns those in which every word
 * of `query` occurs, with a snippet around the first word found. `read` gives an entry's full text
 * (undefined when the conversation is gone). Stops starting reads once `maxChars` were read or
 * `maxMs` went by; `rest` is what it left.
 */
export async function searchFullText<E extends ListEntry>(
  entries: readonly E[],
  query: string,
  read: (e: E) => Promise<string | undefined>,
  options: FullTextSearchOptions = {},
): Promise<FullTextSearchResult<E>> {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const max = options.maxChars ?? FULL_TEXT_SEARCH_MAX_CHARS;
  const now = options.now ?? Date.now;
  const until = now() + (options.maxMs ?? FULL_TEXT_SEARCH_MAX_MS);
  const found = new Map<E, ListMatch<E>>();
  const queue = [...entries];
  let chars = 0;
  let searched = 0;
  if (!words.length) return { matches: [], searched: 0, rest: [], chars: 0 };
  const worker = async (): Promise<void> => {
    while (queue.length && chars < max && now() < until && !options.cancelled?.()) {
      const entry = queue.shift() as E;
      let text: string | undefined;
      try {
        text = await read(entry);
      } catch {
        text = undefined; // unreadable now: the list still has it through the index
      }
      if (text === undefined || options.cancelled?.()) continue;
      chars += text.length;
      searched++;
      const lower = text.toLowerCase();
      if (!words.every((w) => lower.includes(w))) continue;
      const first = words[0] as string;
      const match: ListMatch<E> = { entry, in: 'content', snippet: snippetAt(text, lower.indexOf(first), first.length) };
      found.set(entry, match);
      options.onMatch?.(match);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  // in the order given (newest first), whatever order the reads finished in
  const matches = entries.filter((e) => found.has(e)).map((e) => found.get(e) as ListMatch<E>);
  return { matches, searched, rest: options.cancelled?.() ? [] : queue, chars };
}
