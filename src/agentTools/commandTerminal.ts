// A VS Code terminal that shows a run_command's output as it runs, without a shell or a line
// editor behind it (a pseudoterminal the extension writes to): the user watches the command in
// the terminal panel as before, while the command itself runs as a child process, so no
// character of the line can be taken as a key press. Ctrl+C in the terminal stops the command;
// closing the terminal does too. A finished command's terminal stays until a key is pressed in
// it or the next command starts.
import * as vscode from 'vscode';

/** What the terminal keeps before it is opened (it may never be shown): enough for its last screens. */
const PENDING_MAX_CHARS = 256 * 1024;

let lastFinished: vscode.Terminal | undefined;

export class CommandTerminal implements vscode.Pseudoterminal {
  readonly #write = new vscode.EventEmitter<string>();
  readonly #close = new vscode.EventEmitter<number | void>();
  readonly onDidWrite = this.#write.event;
  readonly onDidClose = this.#close.event;
  #opened = false;
  #pending = '';
  #finished = false;
  #closed = false;
  readonly terminal: vscode.Terminal;

  /** `shown`: the line as the approval card shows it (invisible characters marked). `onStop`: Ctrl+C or the terminal closed. */
  constructor(
    shown: string,
    cwd: string,
    private readonly onStop: () => void,
  ) {
    lastFinished?.dispose();
    lastFinished = undefined;
    this.terminal = vscode.window.createTerminal({ name: vscode.l10n.t('Modelgate command'), pty: this, isTransient: true });
    this.#print(`\u001b[2m${cwd}\u001b[0m\n$ ${shown}\n`);
  }

  open(): void {
    this.#opened = true;
    if (this.#pending) this.#write.fire(this.#pending);
    this.#pending = '';
  }

  close(): void {
    this.#closed = true;
    if (!this.#finished) this.onStop();
  }

  handleInput(data: string): void {
    if (this.#finished) {
      this.#dispose();
      return;
    }
    if (data.includes('\u0003')) this.onStop();
  }

  /** Output of the command (as the program wrote it). */
  output(text: string): void {
    this.#print(text);
  }

  /** The command ended: says how, and keeps the terminal for reading until a key or the next command. */
  finished(summary: string): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#print(`\n\u001b[2m${summary} ${vscode.l10n.t('(press any key to close this terminal)')}\u001b[0m\n`);
    if (!this.#closed) lastFinished = this.terminal;
  }

  #print(text: string): void {
    const out = text.replace(/\r?\n/g, '\r\n');
    if (this.#opened) {
      this.#write.fire(out);
      return;
    }
    this.#pending += out;
    if (this.#pending.length > PENDING_MAX_CHARS) this.#pending = this.#pending.slice(-PENDING_MAX_CHARS);
  }

  #dispose(): void {
    if (lastFinished === this.terminal) lastFinished = undefined;
    this.#close.fire();
    this.terminal.dispose();
  }
}
