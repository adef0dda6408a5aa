// Platform seam: run_command's commands run as child processes of the Node extension host, never
// typed into a terminal (a terminal's line editor would act on control characters inside the
// line: DEL, Ctrl-U, Ctrl-W, Esc sequences, Ctrl-Z… and run another command than the one shown).
// Two forms: the words of a line the user's allow-list allows, run as they are without a shell (so
// nothing in them is expanded); or a line the user approved on a card, run by their shell with
// `-c` (non-interactive: no line editing, no history expansion). The web build swaps in
// commandProcess.web.ts: a browser extension host has no processes, and run_command is not
// offered there.
import { spawn, type ChildProcess } from 'node:child_process';

export const COMMANDS_SUPPORTED = true;

/** What to run: words without a shell, or a line for the user's shell. */
export type CommandToRun = { argv: readonly string[] } | { shellLine: string };

export interface ProcessRun {
  /** resolves when the process has exited: its exit code (undefined when ended by a signal or not started) */
  readonly exited: Promise<{ exitCode: number | undefined; signal?: string }>;
  /** ends the process and what it started (its process group): SIGTERM, then SIGKILL after `graceMs` */
  stop(graceMs?: number): void;
}

/** Quotes a word for cmd.exe (Windows runs `.cmd` programs such as npm only through it). */
const cmdQuote = (word: string) => (/^[\w\-./:=@+,\\]+$/.test(word) ? word : `"${word.replace(/"/g, '""')}"`);

export function startProcess(what: CommandToRun | string, cwd: string, onOutput: (text: string) => void): ProcessRun {
  const windows = process.platform === 'win32';
  const run: CommandToRun = typeof what === 'string' ? { shellLine: what } : what;
  const common = {
    cwd,
    // its own process group, so Stop ends the whole pipeline the command started
    detached: !windows,
    stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  };
  let child: ChildProcess;
  try {
    if ('argv' in run) {
      const [file, ...args] = run.argv;
      child = windows ? spawn(run.argv.map(cmdQuote).join(' '), { ...common, shell: true }) : spawn(file!, args, { ...common, shell: false });
    } else {
      child = spawn(run.shellLine, { ...common, shell: windows ? true : process.env.SHELL || '/bin/sh' });
    }
  } catch (e) {
    // e.g. a NUL character in the line: nothing started
    onOutput(`${e instanceof Error ? e.message : String(e)}\n`);
    return { exited: Promise.resolve({ exitCode: undefined }), stop() {} };
  }
  child.stdout?.setEncoding('utf8').on('data', (s: string) => onOutput(s));
  child.stderr?.setEncoding('utf8').on('data', (s: string) => onOutput(s));
  const exited = new Promise<{ exitCode: number | undefined; signal?: string }>((resolve) => {
    child.on('error', (e) => {
      onOutput(`${e.message}\n`);
      resolve({ exitCode: undefined });
    });
    child.on('close', (code, signal) => resolve(code === null ? { exitCode: undefined, ...(signal ? { signal } : {}) } : { exitCode: code }));
  });
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (!windows && child.pid !== undefined) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // already gone
    }
  };
  return {
    exited,
    stop(graceMs = 2000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), graceMs);
      void exited.then(() => clearTimeout(timer));
    },
  };
}
