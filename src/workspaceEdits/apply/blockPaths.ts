// The path a model wrote for a code block (the fence's info string or a leading path comment), and
// the block's info string found again in the transcript. Pure: unit-tested in plain Node.

// ---------------------------------------------------------------- paths written by the model

const PATH_KEYS = new Set(['title', 'file', 'filename', 'filepath', 'path', 'name']);
const BARE_FILE_NAMES = new Set(['Makefile', 'Dockerfile', 'Rakefile', 'Gemfile', 'Justfile', 'Procfile']);

/** A workspace-relative-looking path: no spaces, no URI scheme, a file name with an extension. */
export function looksLikePath(s: string): boolean {
  if (!s || s.length > 300 || /\s/.test(s) || /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(s) || s.startsWith('-')) return false;
  if (!/^[\w@.+~\-/\\[\]()]+$/.test(s)) return false;
  const base = s.split(/[/\\]/).pop() ?? '';
  if (BARE_FILE_NAMES.has(base)) return true;
  return /^[^.].*\.[A-Za-z0-9]{1,10}$/.test(base) || /^\.[A-Za-z0-9][\w.-]*$/.test(base);
}

function unquote(s: string): string {
  return s.replace(/^(["'])(.*)\1$/, '$2');
}

/**
 * The path a fence's info string names, if any: "ts src/a.ts", "ts:src/a.ts",
 * "ts title=src/a.ts" / file= / path=, or a path alone ("src/a.ts").
 */
export function pathFromInfo(info: string): string | undefined {
  const tokens = info.trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return undefined;
  const first = tokens[0]!;
  const colon = /^[A-Za-z0-9_+#-]{1,32}:(.+)$/.exec(first);
  if (colon && looksLikePath(unquote(colon[1]!))) return unquote(colon[1]!);
  if (tokens.length === 1 && looksLikePath(first) && first.includes('.') && !/^[A-Za-z0-9_+#-]+$/.test(first)) return first;
  for (const t of tokens.slice(1)) {
    const kv = /^([A-Za-z]+)=(.+)$/.exec(t);
    if (kv) {
      if (PATH_KEYS.has(kv[1]!.toLowerCase()) && looksLikePath(unquote(kv[2]!))) return unquote(kv[2]!);
      continue;
    }
    if (looksLikePath(unquote(t))) return unquote(t);
  }
  return undefined;
}

/** The fence language of an info string ("ts src/a.ts" -> "ts"; "ts:src/a.ts" -> "ts"). */
export function langFromInfoString(info: string): string | undefined {
  const first = info.trim().split(/\s+/, 1)[0] ?? '';
  const lang = first.split(':', 1)[0]!.toLowerCase();
  if (!lang || looksLikePath(first)) return undefined;
  return /^[a-z0-9_+#.-]{1,32}$/.test(lang) ? lang : undefined;
}

export interface PathComment {
  path: string;
  /** index of the comment's line in the block */
  line: number;
  /** "File:", "filepath:" ... was written, so the line is certainly a path marker */
  explicit: boolean;
}

/** Longest first line read as a path comment: a path is at most 300 characters (looksLikePath). */
const MAX_COMMENT_LINE = 400;
const LINE_COMMENT = /^(?:\/\/+|#+|--|;+|%+|')/;
const LABEL = /^(file(?:path|name)?|path)\s*:\s*/i;

/**
 * The text of a one-line comment (`// x`, `# x`, `-- x`, `; x`, `% x`, `' x`, `/* x *\/`,
 * `<!-- x -->`), or undefined. Markers are taken off by position, never by a pattern that
 * backtracks: `/\*+\s*(\S+?)\s*\*+\/` took minutes on 8K of `/*` and stars.
 */
function commentBodies(text: string): string[] {
  const out: string[] = [];
  const line = LINE_COMMENT.exec(text);
  if (line) out.push(text.slice(line[0].length));
  if (text.length >= 4 && text.startsWith('/*') && text.endsWith('*/')) {
    let a = 2;
    let b = text.length - 2;
    while (a < b && text[a] === '*') a++;
    while (b > a && text[b - 1] === '*') b--;
    out.push(text.slice(a, b));
  }
  if (text.length >= 7 && text.startsWith('<!--') && text.endsWith('-->')) out.push(text.slice(4, -3));
  return out;
}

/** `file: a.ts` -> the path and that it was labelled; a single word -> the path; else undefined. */
function pathInComment(body: string): { path: string; explicit: boolean } | undefined {
  const t = body.trim();
  const label = LABEL.exec(t);
  if (label) {
    const rest = t.slice(label[0].length);
    if (rest && !/\s/.test(rest)) return { path: rest, explicit: true };
  }
  return t && !/\s/.test(t) ? { path: t, explicit: false } : undefined;
}

/** A first line like `// src/a.ts`, `# file: app.py`, `<!-- index.html -->`. */
export function pathFromLeadingComment(code: string): PathComment | undefined {
  // Only the first non-blank line is looked at (not a split of the whole block).
  let line = 0;
  let from = 0;
  for (;;) {
    const end = code.indexOf('\n', from);
    const l = end < 0 ? code.slice(from) : code.slice(from, end);
    if (l.trim() !== '') {
      const text = l.trim();
      if (text.length > MAX_COMMENT_LINE || text.startsWith('#!')) return undefined;
      for (const body of commentBodies(text)) {
        const found = pathInComment(body);
        if (found && looksLikePath(found.path)) return { ...found, line };
      }
      return undefined;
    }
    if (end < 0) return undefined;
    from = end + 1;
    line++;
  }
}

/** The block without line `line` (a path comment that is not part of the file). */
export function withoutLine(code: string, line: number): string {
  const lines = code.split('\n');
  lines.splice(line, 1);
  // a blank line that followed the comment goes too
  if (line === 0 && lines.length > 1 && lines[0]!.trim() === '') lines.shift();
  return lines.join('\n');
}

// ---------------------------------------------------------------- the block's info string

interface Fence {
  info: string;
  content: string;
}

/** Fenced code blocks of a markdown text (CommonMark fences, also indented ones inside lists). */
export function fencesOf(markdown: string): Fence[] {
  const out: Fence[] = [];
  const lines = markdown.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*(?:>\s*)*)(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!open || (open[2]![0] === '`' && open[3]!.includes('`'))) continue;
    const indent = open[1]!.length;
    const marker = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      const close = /^(\s*(?:>\s*)*)(`{3,}|~{3,})\s*$/.exec(l);
      if (close && close[2]![0] === marker[0] && close[2]!.length >= marker.length) break;
      body.push(stripPrefix(l, indent));
    }
    out.push({ info: open[3]!.trim(), content: body.join('\n') });
    i = j;
  }
  return out;
}

/** `line` without up to `n` leading characters of indentation or blockquote markers. */
function stripPrefix(line: string, n: number): string {
  let i = 0;
  while (i < n && i < line.length && /[ \t>]/.test(line[i]!)) i++;
  return line.slice(i);
}

/**
 * The info string of the fence whose content is `code`, searching `texts` from the last one
 * (the newest answer) backwards; undefined when no fence holds exactly that code.
 */
export function findFenceInfo(texts: readonly string[], code: string): string | undefined {
  const want = code.replace(/\n$/, '');
  for (let t = texts.length - 1; t >= 0; t--) {
    const fences = fencesOf(texts[t]!);
    for (let f = fences.length - 1; f >= 0; f--) {
      if (fences[f]!.content.replace(/\n$/, '') === want) return fences[f]!.info;
    }
  }
  return undefined;
}
