// What the model gets of a command's output: terminal escape sequences removed, and at most
// COMMAND_OUTPUT_MAX_CHARS, keeping the start and the (usually more telling) end. Pure.

export const COMMAND_OUTPUT_MAX_CHARS = 48 * 1024;
const HEAD_CHARS = 8 * 1024;

/** Collects output while a command runs, bounded: the first HEAD_CHARS and a rolling tail. */
export class OutputCollector {
  #head = '';
  #tail = '';
  #dropped = 0;

  constructor(private readonly max = COMMAND_OUTPUT_MAX_CHARS) {}

  add(text: string): void {
    if (this.#head.length < HEAD_CHARS) {
      const take = text.slice(0, HEAD_CHARS - this.#head.length);
      this.#head += take;
      text = text.slice(take.length);
    }
    if (!text) return;
    this.#tail += text;
    const tailMax = this.max - HEAD_CHARS;
    if (this.#tail.length > tailMax * 2) this.#trim(tailMax);
  }

  #trim(tailMax: number): void {
    const cut = this.#tail.length - tailMax;
    if (cut <= 0) return;
    this.#dropped += cut;
    this.#tail = this.#tail.slice(cut);
  }

  /** The output as the model reads it. */
  text(): string {
    this.#trim(this.max - HEAD_CHARS);
    const clean = (s: string) => stripTerminalCodes(s);
    if (this.#dropped === 0) return clean(this.#head + this.#tail);
    return `${clean(this.#head)}\n… (${this.#dropped} characters of output left out) …\n${clean(this.#tail)}`;
  }
}

const ESC = 0x1b;
const BEL = 0x07;
const isParam = (c: number) => c >= 0x30 && c <= 0x3f;
const isIntermediate = (c: number) => c >= 0x20 && c <= 0x2f;
const isFinal = (c: number) => c >= 0x40 && c <= 0x7e;
/** ESC ] (OSC), ESC P (DCS), ESC X (SOS), ESC ^ (PM), ESC _ (APC): a string up to BEL or ESC \. */
const STRING_INTRODUCERS = new Set([0x5d, 0x50, 0x58, 0x5e, 0x5f]);

/**
 * Where the escape sequence that starts at `at` (an ESC) ends. A sequence that is cut off or
 * malformed loses its ESC and introducer only: what follows is text. Each scan stops at the next
 * ESC, and the caller searches on from inside the scan, so every character is looked at a bounded
 * number of times.
 */
function escapeEnd(text: string, at: number): number {
  const next = text.charCodeAt(at + 1);
  if (next === 0x5b) {
    // CSI: parameters, intermediates, one final byte
    let j = at + 2;
    while (isParam(text.charCodeAt(j))) j++;
    while (isIntermediate(text.charCodeAt(j))) j++;
    return isFinal(text.charCodeAt(j)) ? j + 1 : at + 2;
  }
  if (STRING_INTRODUCERS.has(next)) {
    for (let j = at + 2; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === BEL) return j + 1;
      if (c === ESC) return text.charCodeAt(j + 1) === 0x5c ? j + 2 : at + 2;
    }
    return at + 2;
  }
  if (isIntermediate(next)) {
    // nF: character-set selection such as ESC ( B
    let j = at + 1;
    while (isIntermediate(text.charCodeAt(j))) j++;
    const c = text.charCodeAt(j);
    return c >= 0x30 && c <= 0x7e ? j + 1 : at + 1;
  }
  // two-character escapes (ESC =, ESC >, ESC 7, ESC M, …); a lone ESC goes alone
  return next >= 0x30 && next <= 0x7e ? at + 2 : at + 1;
}

function stripEscapes(text: string): string {
  let at = text.indexOf('\u001b');
  if (at === -1) return text;
  const kept: string[] = [];
  let from = 0;
  while (at !== -1) {
    kept.push(text.slice(from, at));
    from = escapeEnd(text, at);
    at = text.indexOf('\u001b', from);
  }
  kept.push(text.slice(from));
  return kept.join('');
}

/** A line redrawn with \r (progress bars): keep what it ended as; \r before the line's end ends it. */
function resolveRedraws(text: string): string {
  if (!text.includes('\r')) return text;
  return text
    .split('\n')
    .map((line) => {
      let end = line.length;
      while (end > 0 && line.charCodeAt(end - 1) === 0x0d) end--;
      const start = end === 0 ? 0 : line.lastIndexOf('\r', end - 1) + 1;
      return line.slice(start, end);
    })
    .join('\n');
}

/**
 * Removes ANSI/VT escape sequences (colours, cursor moves, OSC titles and shell-integration marks,
 * character-set switches) and carriage-return redraws. One pass each, linear in the text: a
 * regular expression such as /[^\n]*\r/g rescans a long line from every position, and one 48 KB
 * line without a newline took over a second of the extension host.
 */
export function stripTerminalCodes(text: string): string {
  return resolveRedraws(stripEscapes(text));
}
