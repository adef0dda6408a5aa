// The region of a file that a code block replaces: the whole file, a symbol the block redeclares, or
// the lines the block's text matches; and the replacement itself, re-indented.

// ---------------------------------------------------------------- regions

/** Lines [start, end) of a text, 0-based. */
export interface LineRegion {
  start: number;
  end: number;
}

export interface SymbolSpan {
  name: string;
  /** 0-based first and last line (inclusive) */
  startLine: number;
  endLine: number;
}

function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

function isCommentLine(line: string): boolean {
  const t = line.trim();
  return /^(\/\/|#(?!!|include|define|pragma|if|endif|else|import)|--|\/\*|\*|\*\/|"""|'''|<!--)/.test(t);
}

const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'else', 'do', 'try', 'with', 'new', 'await', 'typeof', 'sizeof']);
/** Lines starting with these are statements, not declarations. */
const STATEMENTS = /^(?:return|throw|await|yield|new|case|else|if|for|while|switch|do|try|catch|finally|delete|void|typeof|print|echo|go|defer)\b/;

const DECLARATIONS: RegExp[] = [
  /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/,
  /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/,
  /^(?:async\s+)?def\s+([A-Za-z_]\w*)/,
  /^(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)/,
  /^(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:(?:public|private|protected|internal|static|sealed|final|partial|data)\s+)*(?:class|interface|enum|struct|trait|impl|module|namespace|record|object|type)\s+([A-Za-z_$][\w$]*)/,
  /^(?:export\s+)?(?:declare\s+)?(?:const|let|var|val)\s+([A-Za-z_$][\w$]*)/,
  // methods and C-family functions: modifiers, optional return type, name, "("
  /^(?:(?:public|private|protected|internal|static|async|override|readonly|abstract|virtual|final|get|set|export|default)\s+)*(?:[\w$<>[\],.?*&:]+\s+)?\**([A-Za-z_$][\w$]*)\s*(?:<[^>()]*>)?\s*\(/,
];

/** The name a line declares ("export function add(" -> "add"); undefined for other lines. */
export function declaredName(line: string): string | undefined {
  const t = line.trim().replace(/^@\w+(?:\([^)]*\))?\s*/, '');
  if (STATEMENTS.test(t)) return undefined;
  for (const [i, re] of DECLARATIONS.entries()) {
    // the method/C-function form only for lines that open a body, not calls (`foo(a);`)
    if (i === DECLARATIONS.length - 1 && /[;,]\s*$/.test(t)) continue;
    const m = re.exec(t);
    if (m && !NOT_NAMES.has(m[1]!)) return m[1];
  }
  return undefined;
}

/** Index of the block's first line that is code (not blank, not a comment); -1 when none. */
function anchorIndex(lines: readonly string[]): number {
  return lines.findIndex((l) => l.trim() !== '' && !isCommentLine(l));
}

function nonBlank(lines: readonly string[]): string[] {
  return lines.map((l) => l.trim()).filter((l) => l !== '');
}

/**
 * Whether the block is a whole version of the file: the file is empty, or the block starts and
 * ends with the file's first and last lines (blank lines and indentation aside).
 */
export function isWholeFile(fileText: string, code: string): boolean {
  const file = nonBlank(splitLines(fileText));
  if (file.length === 0) return true;
  const block = nonBlank(splitLines(code));
  if (block.length === 0) return false;
  if (block.length < 2 || file.length < 2) return block.length === file.length && block[0] === file[0];
  return block[0] === file[0] && block[block.length - 1] === file[file.length - 1];
}

/** Openers minus closers of a line ({ ( [), strings and comments aside. */
function balance(line: string): number {
  let depth = 0;
  for (const ch of stripStringsAndComments(line)) {
    if (ch === '{' || ch === '(' || ch === '[') depth++;
    else if (ch === '}' || ch === ')' || ch === ']') depth--;
  }
  return depth;
}

/** Whether a line starts a construct that goes on below it (an open brace, or a ':' block). */
function opensConstruct(line: string): boolean {
  return balance(line) > 0 || /:\s*(#.*)?$/.test(stripStringsAndComments(line).trimEnd());
}

/** Where a construct that starts at line `start` ends (exclusive), by braces or indentation. */
function constructEnd(lines: readonly string[], start: number): number | undefined {
  const head = stripStringsAndComments(lines[start]!).trimEnd();
  if (balance(head) <= 0 && /:\s*(#.*)?$/.test(head)) return indentEnd(lines, start);
  let depth = 0;
  for (let i = start; i < lines.length && i < start + 5000; i++) {
    depth += balance(lines[i]!);
    if (depth <= 0) return i + 1;
  }
  return undefined;
}

/** End of an indentation block (Python, YAML): the lines indented deeper than its first line. */
function indentEnd(lines: readonly string[], start: number): number {
  const indent = indentOf(lines[start]!);
  let last = start;
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() === '') continue;
    if (indentOf(l) <= indent) break;
    last = i;
  }
  return last + 1;
}

function indentOf(line: string): number {
  return /^\s*/.exec(line)![0].replace(/\t/g, '    ').length;
}

const LINE_END = /[\r\n\u2028\u2029]/g;

const isLineEnd = (c: string) => c === '\r' || c === '\n' || c === '\u2028' || c === '\u2029';

/** Index of the first line terminator at or after `from` (what `.` does not match), or the length. */
function lineEndFrom(text: string, from: number): number {
  LINE_END.lastIndex = from;
  return LINE_END.exec(text)?.index ?? text.length;
}

/**
 * The line with string literals as `""` and comments out (`// ...` to the end, `/* ... *\/`).
 * A hand-written scan, linear in the line: the pattern it replaces,
 * `"(?:[^"\\]|\\.)*"|...`, ran from every quote to the end of a line of `\"` (a line of a
 * few thousand characters froze the extension host). Same result: a quote that finds no closing
 * quote stays as it is, and so does every later quote of its kind (their scans would fail the
 * same way: the escapes line up).
 */
function stripStringsAndComments(line: string): string {
  const parts: string[] = []; // runs of the line and `""` (appending one character at a time is slow on long lines)
  let copied = 0;
  const unclosed = new Set<string>();
  for (let i = 0; i < line.length; i++) {
    const q = line[i]!;
    if ((q !== '"' && q !== "'" && q !== '`') || unclosed.has(q)) continue;
    let j = i + 1;
    let broken = false; // a backslash before a line terminator: no escape, the literal fails here
    while (j < line.length && line[j] !== q) {
      if (line[j] === '\\') {
        if (j + 1 < line.length && isLineEnd(line[j + 1]!)) {
          broken = true;
          break;
        }
        j += 2;
      } else j++;
    }
    if (!broken && j < line.length) {
      parts.push(line.slice(copied, i), '""');
      copied = j + 1;
      i = j;
    } else if (!broken) unclosed.add(q);
  }
  parts.push(line.slice(copied));
  return stripComments(parts.join(''));
}

/** `// ...` to the end and `/* ... *\/` pairs out, as `/\/\/.*$|\/\*.*?\*\//g` would, in one pass. */
function stripComments(text: string): string {
  let out = '';
  let copied = 0;
  let close = -1; // the next `*/` after the last search start; -2: there is none
  let end = -1; // the next line terminator after the last search start
  for (let i = text.indexOf('/'); i >= 0 && i < text.length - 1; i = text.indexOf('/', i + 1)) {
    const next = text[i + 1];
    if (next !== '/' && (next !== '*' || close === -2)) continue;
    if (end < i + 2) end = lineEndFrom(text, i + 2);
    if (next === '/') {
      if (end < text.length) continue; // `.*$` cannot cross a line terminator
      out += text.slice(copied, i);
      copied = text.length;
      break;
    }
    if (close < i + 2) close = text.indexOf('*/', i + 2);
    if (close < 0) {
      close = -2;
      continue;
    }
    if (end < close) continue;
    out += text.slice(copied, i);
    copied = close + 2;
    i = close + 1;
  }
  return out + text.slice(copied);
}

/** Moves a region's start up over the comment lines right above it (the block brings its own). */
function withLeadingComments(lines: readonly string[], region: LineRegion): LineRegion {
  let start = region.start;
  while (start > 0 && lines[start - 1]!.trim() !== '' && isCommentLine(lines[start - 1]!)) start--;
  return { start, end: region.end };
}

/** Also the decorators / attributes on the lines right above a declaration. */
function withDecorators(lines: readonly string[], start: number): number {
  while (start > 0 && /^\s*(@\w|#\[)/.test(lines[start - 1]!)) start--;
  return start;
}

function finish(fileLines: readonly string[], blockLines: readonly string[], region: LineRegion): LineRegion {
  const anchor = anchorIndex(blockLines);
  let r = { start: withDecorators(fileLines, region.start), end: region.end };
  // The block starts with a comment (a doc comment, most likely): it replaces the file's one.
  if (anchor > 0 && blockLines.slice(0, anchor).some((l) => l.trim() !== '')) r = withLeadingComments(fileLines, r);
  return r;
}

/**
 * The region of the file a block replaces, found from the text alone: the file's line equal to
 * the block's first code line (or, when the signature changed, the one line that declares the
 * same name), extended to the end of that construct (braces or indentation). Undefined when
 * there is no such line, or more than one.
 */
export function findRegionByText(fileText: string, code: string): LineRegion | undefined {
  const fileLines = splitLines(fileText);
  const blockLines = splitLines(code);
  const a = anchorIndex(blockLines);
  if (a < 0) return undefined;
  const anchor = blockLines[a]!.trim();
  let starts = fileLines.map((l, i) => (l.trim() === anchor ? i : -1)).filter((i) => i >= 0);
  if (starts.length !== 1) {
    const name = declaredName(anchor);
    if (!name) return undefined;
    starts = fileLines.map((l, i) => (declaredName(l) === name ? i : -1)).filter((i) => i >= 0);
  }
  if (starts.length !== 1) return undefined;
  const start = starts[0]!;
  let end: number | undefined;
  if (opensConstruct(anchor) || opensConstruct(fileLines[start]!)) end = constructEnd(fileLines, start);
  else if (blockLines.slice(a).filter((l) => l.trim() !== '').length === 1) end = start + 1; // a one-line statement
  if (end === undefined) return undefined;
  return finish(fileLines, blockLines, { start, end });
}

/**
 * The region from the document's symbols (VS Code's symbol provider): the one symbol named
 * like the block's first declaration. Symbols of the same name (overloads, methods of two
 * classes) are told apart by the first line; undefined when still ambiguous or not found.
 */
export function findRegionBySymbols(fileText: string, code: string, symbols: readonly SymbolSpan[]): LineRegion | undefined {
  const fileLines = splitLines(fileText);
  const blockLines = splitLines(code);
  const a = anchorIndex(blockLines);
  if (a < 0) return undefined;
  const anchor = blockLines[a]!.trim();
  const name = declaredName(anchor);
  if (!name) return undefined;
  let found = symbols.filter((s) => s.name === name || s.name.replace(/\(.*$/, '') === name);
  if (found.length > 1)
    found = found.filter(
      (s) =>
        fileLines[s.startLine]?.trim() === anchor ||
        (declaredName(fileLines[s.startLine] ?? '') === name && fileLines.slice(s.startLine, s.endLine + 1).some((l) => l.trim() === anchor)),
    );
  if (found.length !== 1) return undefined;
  const s = found[0]!;
  // a provider's range may include the doc comment above the declaration: it stays unless the block brings one
  let start = s.startLine;
  while (start < s.endLine && (fileLines[start]!.trim() === '' || isCommentLine(fileLines[start]!))) start++;
  return finish(fileLines, blockLines, { start, end: s.endLine + 1 });
}

/** Whether the block is one construct (a function, a class, a statement) and nothing after it. */
export function isSingleConstruct(code: string): boolean {
  const lines = splitLines(code);
  const a = anchorIndex(lines);
  if (a < 0) return false;
  const end = opensConstruct(lines[a]!) ? constructEnd(lines, a) : a + 1;
  return end !== undefined && lines.slice(end).every((l) => l.trim() === '');
}

/**
 * Where the block goes: 'whole' (it is the whole file, or the file is empty), the region of the
 * one construct it replaces, or undefined (ask). A single construct is matched to a region
 * first, because a function and a file often share first and last lines (`}`); a block of
 * several constructs is only ever the whole file.
 */
export function placeBlock(fileText: string, code: string, symbols: readonly SymbolSpan[] = []): LineRegion | 'whole' | undefined {
  if (fileText.trim() === '') return 'whole';
  if (isSingleConstruct(code)) {
    const region = (symbols.length ? findRegionBySymbols(fileText, code, symbols) : undefined) ?? findRegionByText(fileText, code);
    if (region) return region;
  }
  return isWholeFile(fileText, code) ? 'whole' : undefined;
}

/** The file's text with lines [region.start, region.end) replaced by `code`. */
export function replaceRegion(fileText: string, region: LineRegion, code: string): string {
  const eol = fileText.includes('\r\n') ? '\r\n' : '\n';
  const lines = fileText.split(/\r?\n/);
  const replacement = code.replace(/\r?\n$/, '').split(/\r?\n/);
  lines.splice(region.start, region.end - region.start, ...replacement);
  return lines.join(eol);
}

/** The block's indentation adjusted to the region it replaces (a method pasted unindented). */
export function reindent(code: string, targetIndent: string): string {
  const lines = code.split('\n');
  const a = anchorIndex(lines);
  if (a < 0) return code;
  const own = /^\s*/.exec(lines[a]!)![0];
  if (own === targetIndent) return code;
  return lines
    .map((l) => {
      if (l.trim() === '') return l;
      if (l.startsWith(own)) return targetIndent + l.slice(own.length);
      return targetIndent + l.trimStart();
    })
    .join('\n');
}
