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

/** Removes ANSI/VT escape sequences (colours, cursor moves, OSC titles) and carriage-return redraws. */
export function stripTerminalCodes(text: string): string {
  return (
    text
      // OSC … BEL or ST (shell integration marks, titles)
      .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
      // CSI sequences
      .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
      // other two-character escapes
      .replace(/\u001b[@-Z\\-_]/g, '')
      .replace(/\r\n/g, '\n')
      // a line redrawn with \r (progress bars): keep what it ended as
      .replace(/[^\n]*\r(?!\n)/g, '')
  );
}
