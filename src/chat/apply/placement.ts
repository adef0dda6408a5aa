// Where a code block from an answer goes: the pure half of Apply (no `vscode` here, so it is
// unit-tested in plain Node). It reads the path a model wrote for the block (the fence's info
// string or a leading path comment), finds the block's info string in the transcript, names
// the languages of blocks and files, and finds the region of a file that a block replaces.
// The VS Code half (src/chat/apply/applyFlow.ts) opens documents, asks the user and shows the diff.

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

const COMMENT_FORMS: RegExp[] = [
  /^(?:\/\/+|#+|--|;+|%+|')\s*(?:(file(?:path|name)?|path)\s*:\s*)?(\S+?)\s*$/i,
  /^\/\*+\s*(?:(file(?:path|name)?|path)\s*:\s*)?(\S+?)\s*\*+\/$/i,
  /^<!--\s*(?:(file(?:path|name)?|path)\s*:\s*)?(\S+?)\s*-->$/i,
];

/** A first line like `// src/a.ts`, `# file: app.py`, `<!-- index.html -->`. */
export function pathFromLeadingComment(code: string): PathComment | undefined {
  const lines = code.split('\n');
  const line = lines.findIndex((l) => l.trim() !== '');
  if (line < 0) return undefined;
  const text = lines[line]!.trim();
  if (text.startsWith('#!')) return undefined;
  for (const form of COMMENT_FORMS) {
    const m = form.exec(text);
    if (m && looksLikePath(m[2]!)) return { path: m[2]!, line, explicit: !!m[1] };
  }
  return undefined;
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

// ---------------------------------------------------------------- languages

/** Fence names that are not VS Code language ids. */
const FENCE_ALIASES: Record<string, string> = {
  ts: 'typescript', tsx: 'typescriptreact', js: 'javascript', jsx: 'javascriptreact', mjs: 'javascript', cjs: 'javascript', node: 'javascript',
  py: 'python', python3: 'python', rb: 'ruby', rs: 'rust', golang: 'go', kt: 'kotlin', kts: 'kotlin', cs: 'csharp', 'c#': 'csharp',
  'c++': 'cpp', cc: 'cpp', cxx: 'cpp', hpp: 'cpp', h: 'c', sh: 'shellscript', bash: 'shellscript', zsh: 'shellscript', shell: 'shellscript',
  ps1: 'powershell', pwsh: 'powershell', yml: 'yaml', md: 'markdown', htm: 'html', objc: 'objective-c', fs: 'fsharp', ex: 'elixir', exs: 'elixir',
  hs: 'haskell', pl: 'perl', docker: 'dockerfile', make: 'makefile', tf: 'terraform', patch: 'diff', text: 'plaintext', txt: 'plaintext', plain: 'plaintext',
};

const EXTENSIONS: Record<string, string> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'typescriptreact', js: 'javascript', mjs: 'javascript', cjs: 'javascript',
  jsx: 'javascriptreact', py: 'python', pyi: 'python', go: 'go', rs: 'rust', java: 'java', kt: 'kotlin', kts: 'kotlin', cs: 'csharp',
  c: 'c', h: 'c', cpp: 'cpp', cc: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', m: 'objective-c', mm: 'objective-cpp', swift: 'swift',
  rb: 'ruby', php: 'php', sh: 'shellscript', bash: 'shellscript', zsh: 'shellscript', ps1: 'powershell', json: 'json', jsonc: 'jsonc',
  yaml: 'yaml', yml: 'yaml', toml: 'toml', md: 'markdown', html: 'html', htm: 'html', css: 'css', scss: 'scss', less: 'less',
  sql: 'sql', lua: 'lua', dart: 'dart', scala: 'scala', vue: 'vue', svelte: 'svelte', xml: 'xml', ex: 'elixir', exs: 'elixir',
  hs: 'haskell', r: 'r', pl: 'perl', txt: 'plaintext', diff: 'diff', patch: 'diff',
};

/** The VS Code language id a fence name stands for ("ts" -> "typescript"); undefined for none. */
export function languageIdOfFence(lang: string | undefined): string | undefined {
  if (!lang) return undefined;
  const l = lang.toLowerCase();
  return FENCE_ALIASES[l] ?? l;
}

/** The language id a file name suggests, from its extension; undefined when unknown. */
export function languageIdOfPath(path: string): string | undefined {
  const base = path.split(/[/\\]/).pop() ?? '';
  if (base === 'Dockerfile') return 'dockerfile';
  if (base === 'Makefile') return 'makefile';
  const ext = /\.([A-Za-z0-9]+)$/.exec(base)?.[1]?.toLowerCase();
  return ext ? EXTENSIONS[ext] : undefined;
}

const FAMILIES: string[][] = [
  ['typescript', 'typescriptreact', 'javascript', 'javascriptreact', 'vue', 'svelte'],
  ['c', 'cpp', 'objective-c', 'objective-cpp', 'cuda-cpp'],
  ['json', 'jsonc', 'json5'],
  ['css', 'scss', 'less'],
  ['html', 'xml', 'vue', 'svelte', 'php'],
  ['shellscript', 'dockerfile', 'makefile'],
];
/** Languages whose blocks say nothing about the file they belong in. */
const NEUTRAL = new Set(['plaintext', 'text', 'markdown', 'output', 'console', 'log']);

/**
 * Whether a block of language `block` may go into a document of language `doc` without
 * asking. Unknown or neutral on either side is never a mismatch; a Go block into a
 * TypeScript file is.
 */
export function languagesCompatible(block: string | undefined, doc: string | undefined): boolean {
  if (!block || !doc || NEUTRAL.has(block) || NEUTRAL.has(doc)) return true;
  if (block === doc) return true;
  return FAMILIES.some((f) => f.includes(block) && f.includes(doc));
}

/** A readable name of a language id ("typescript" -> "TypeScript"). */
export function languageName(id: string): string {
  const names: Record<string, string> = {
    typescript: 'TypeScript', typescriptreact: 'TypeScript (TSX)', javascript: 'JavaScript', javascriptreact: 'JavaScript (JSX)', go: 'Go',
    python: 'Python', rust: 'Rust', java: 'Java', csharp: 'C#', cpp: 'C++', c: 'C', shellscript: 'shell script', json: 'JSON', yaml: 'YAML',
    html: 'HTML', css: 'CSS', ruby: 'Ruby', php: 'PHP', kotlin: 'Kotlin', swift: 'Swift', sql: 'SQL', diff: 'a diff', markdown: 'Markdown',
  };
  return names[id] ?? id;
}

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

function stripStringsAndComments(line: string): string {
  return line
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""')
    .replace(/\/\/.*$|\/\*.*?\*\//g, '');
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
  if (found.length > 1) found = found.filter((s) => fileLines[s.startLine]?.trim() === anchor || declaredName(fileLines[s.startLine] ?? '') === name && fileLines.slice(s.startLine, s.endLine + 1).some((l) => l.trim() === anchor));
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

// ---------------------------------------------------------------- what the conversation names

/** The parts of a conversation Apply reads (structurally: a transcript Conversation fits). */
export interface ConversationLike {
  messages: readonly (
    | { role: 'user'; attachments: readonly { kind: string; label: string }[] }
    | { role: 'assistant'; parts: readonly ({ kind: 'text'; text: string } | { kind: 'tool'; call: { name: string; arguments: string } })[] }
  )[];
  pinned: readonly { path: string }[];
  pending: readonly { kind: string; label: string }[];
}

/** The markdown of every answer, oldest first (where the block's fence is looked up). */
export function answerTexts(c: ConversationLike): string[] {
  return c.messages.flatMap((m) => (m.role === 'assistant' ? [m.parts.map((p) => (p.kind === 'text' ? p.text : '\n')).join('')] : []));
}

const READ_TOOLS = new Set(['read_file', 'get_diagnostics']);

/**
 * Files the conversation is about, newest first: files a tool read, files and selections the
 * user attached to messages, files pinned to the conversation, the pending selection.
 * Workspace-relative paths as written; the caller checks each one against the workspace.
 */
export function conversationFiles(c: ConversationLike): string[] {
  const out: string[] = [];
  const add = (p: string | undefined) => {
    if (p && !out.includes(p)) out.push(p);
  };
  const selectionPath = (label: string) => label.replace(/:\d+(?:-\d+)?$/, '');
  for (const a of [...c.pending].reverse()) if (a.kind === 'selection') add(selectionPath(a.label));
  for (let i = c.messages.length - 1; i >= 0; i--) {
    const m = c.messages[i]!;
    if (m.role === 'user') {
      for (const a of m.attachments) if (a.kind === 'selection' || a.kind === 'file') add(selectionPath(a.label));
      continue;
    }
    for (let j = m.parts.length - 1; j >= 0; j--) {
      const p = m.parts[j]!;
      if (p.kind !== 'tool' || !READ_TOOLS.has(p.call.name)) continue;
      try {
        const args = JSON.parse(p.call.arguments) as { path?: unknown };
        if (typeof args.path === 'string') add(args.path);
      } catch {
        // arguments that never parsed name no file
      }
    }
  }
  for (const p of [...c.pinned].reverse()) add(p.path);
  return out;
}
