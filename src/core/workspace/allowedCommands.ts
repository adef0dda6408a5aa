// Which commands the model may run without asking: `modelgate.chat.allowedCommands` (user
// settings only) lists command lines. A line the model proposes runs without a card only when it
// parses to exactly the words of an entry: `npm test` allows `npm test` (and `npm 'test'`), never
// `npm test --prefix ../other` nor `npm test -- --grep x`; an option or argument the entry does
// not name is the user's call, because one option can make an allowed program run something else
// (`--script-shell=x`, `--node-options=--require=x`, `-C dir`).
// The parser accepts only lines whose meaning every POSIX shell agrees on: words of printable
// characters separated by spaces, with single quotes, double quotes and backslashes, and nothing a
// shell expands or interprets (variables, globs, `~`, braces, history, comments, chaining, pipes,
// redirections, substitutions, assignments) and no control character, escape or invisible code
// point (a terminal's line editor or a reader could take them for something else). An allowed
// line is run as its parsed words, without a shell. Pure: unit-tested in plain Node.

/** A command line split into words, or why it cannot be allowed without asking. */
export type ParsedCommand = { argv: string[]; refused?: undefined } | { argv?: undefined; refused: string };

/** Characters a shell gives a meaning outside quotes (or that some shell expands: zsh, bash, cmd.exe). */
const SPECIAL_UNQUOTED = new Set([...';&|<>()`$*?[]{}~!#^%=\t']);
/** Characters that still mean something inside double quotes (`\` is handled apart). */
const SPECIAL_IN_DOUBLE = new Set([...'$`!']);

/**
 * Whether a character may appear in an allowed line at all: the space and printable ASCII, and
 * letters, marks, numbers, punctuation and symbols of other scripts. Never a control character
 * (C0, DEL, C1), an escape, a format or invisible code point (zero-width joiners, BOM, bidi
 * controls), another kind of space, a line or paragraph separator, a private-use or unassigned
 * code point, or half of a surrogate pair.
 */
export function isVisibleChar(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  if (code >= 0x20 && code < 0x7f) return true;
  if (code < 0xa0) return false;
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch) && !/^[\p{Cf}\p{Default_Ignorable_Code_Point}]$/u.test(ch);
}

/** The first character that may not appear in an allowed line, or undefined. */
function firstInvisible(line: string): string | undefined {
  for (const ch of line) if (!isVisibleChar(ch)) return ch;
  return undefined;
}

/** Leading and trailing spaces only: String.prototype.trim() would also drop control and invisible characters (VT, FF, BOM, NBSP). */
export const trimSpaces = (line: string) => line.replace(/^ +| +$/g, '');

const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Splits `line` into words the way a POSIX shell would, or says why it will not. */
export function parseCommandLine(line: string): ParsedCommand {
  const bad = firstInvisible(line);
  if (bad !== undefined) return { refused: `it contains a control or invisible character (${codePoint(bad)})` };
  const argv: string[] = [];
  let word: string | undefined; // undefined between words; '' after an empty quoted word ('' or "")
  const chars = [...line];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === ' ') {
      if (word !== undefined) argv.push(word);
      word = undefined;
      continue;
    }
    if (ch === "'") {
      const end = chars.indexOf("'", i + 1);
      if (end < 0) return { refused: 'a single quote is not closed' };
      word = (word ?? '') + chars.slice(i + 1, end).join('');
      i = end;
      continue;
    }
    if (ch === '"') {
      let text = '';
      let j = i + 1;
      for (; j < chars.length && chars[j] !== '"'; j++) {
        const c = chars[j]!;
        if (SPECIAL_IN_DOUBLE.has(c)) return { refused: `"${c}" inside double quotes is expanded by the shell` };
        if (c === '\\') {
          const next = chars[j + 1];
          if (next === undefined) break;
          // inside double quotes a backslash escapes only $ ` " \ (and a line end, refused above)
          if (next === '$' || next === '`' || next === '"' || next === '\\') {
            text += next;
            j++;
            continue;
          }
        }
        text += c;
      }
      if (j >= chars.length) return { refused: 'a double quote is not closed' };
      word = (word ?? '') + text;
      i = j;
      continue;
    }
    if (ch === '\\') {
      const next = chars[i + 1];
      if (next === undefined) return { refused: 'it ends with a backslash' };
      word = (word ?? '') + next;
      i++;
      continue;
    }
    if (SPECIAL_UNQUOTED.has(ch)) {
      if (ch === '=' && word !== undefined && argv.length > 0) {
        word += ch; // `--flag=value`: only a leading word with `=` is an assignment (or a zsh `=cmd` expansion)
        continue;
      }
      return { refused: `"${ch}" is interpreted by the shell (quote it, or let the user decide)` };
    }
    word = (word ?? '') + ch;
  }
  if (word !== undefined) argv.push(word);
  if (argv.length === 0) return { refused: 'it is empty' };
  return { argv };
}

/** An entry of the setting, with the words it allows. */
export interface AllowedEntry {
  readonly text: string;
  readonly argv: readonly string[];
}

/** The usable entries of the setting: strings that parse to words, without duplicates (same words). */
export function allowedEntries(setting: unknown): AllowedEntry[] {
  if (!Array.isArray(setting)) return [];
  const out: AllowedEntry[] = [];
  for (const v of setting) {
    if (typeof v !== 'string') continue;
    const text = trimSpaces(v);
    const parsed = parseCommandLine(text);
    if (!parsed.argv || out.some((e) => sameWords(e.argv, parsed.argv))) continue;
    out.push({ text, argv: parsed.argv });
  }
  return out;
}

/** The entries of the setting that can never allow anything, with the reason (for the settings check). */
export function unusableEntries(setting: unknown): { text: string; reason: string }[] {
  if (!Array.isArray(setting)) return [];
  const out: { text: string; reason: string }[] = [];
  for (const v of setting) {
    if (typeof v !== 'string' || !trimSpaces(v)) continue;
    const parsed = parseCommandLine(trimSpaces(v));
    if (parsed.refused) out.push({ text: v, reason: parsed.refused });
  }
  return out;
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((w, i) => w === b[i]);
}

/** What the matcher decided about one line: the entry and the words to run, or no entry. */
export type AllowDecision = { entry: AllowedEntry; argv: string[] } | undefined;

/** The entry that allows `command` to run without asking (with the words to run), or undefined: then the user is asked. */
export function allowedBy(command: string, entries: readonly AllowedEntry[]): AllowDecision {
  const parsed = parseCommandLine(trimSpaces(command));
  if (!parsed.argv) return undefined;
  const entry = entries.find((e) => sameWords(e.argv, parsed.argv));
  return entry && { entry, argv: parsed.argv };
}

/** Names for the invisible characters people know by name. */
const CHAR_NAMES: Record<number, string> = { 0x09: 'TAB', 0x0d: 'CR', 0x1b: 'ESC', 0x7f: 'DEL', 0x00: 'NUL', 0x08: 'BS', 0xa0: 'NBSP', 0xfeff: 'BOM' };

/**
 * `command` as the approval card shows it: every character that is not visible (control
 * characters, escapes, invisible and format code points, other spaces) written as ⟨NAME⟩ or
 * ⟨U+XXXX⟩, so what the card shows is every character that reaches the shell. Line ends stay line
 * ends (they are visible as such); a literal ⟨ is written ⟨U+27E8⟩ so the marks cannot be faked.
 */
export function visibleCommand(command: string): { text: string; hidden: number } {
  let text = '';
  let hidden = 0;
  for (const ch of command) {
    if (ch === '\n' || (isVisibleChar(ch) && ch !== '⟨')) {
      text += ch;
      continue;
    }
    if (ch !== '⟨') hidden++;
    const code = ch.codePointAt(0)!;
    text += `⟨${CHAR_NAMES[code] ?? codePoint(ch)}⟩`;
  }
  return { text, hidden };
}
