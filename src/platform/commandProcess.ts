// Platform seam: a command run as a child process of the Node extension host, used by
// run_command where the terminal has no shell integration (so its output cannot be read). The
// web build swaps in commandProcess.web.ts: a browser extension host has no processes, and
// run_command is not offered there.
import { spawn } from 'node:child_process';

export const COMMANDS_SUPPORTED = true;

export interface ProcessRun {
  /** resolves when the process has exited: its exit code (undefined when ended by a signal) */
  readonly exited: Promise<{ exitCode: number | undefined; signal?: string }>;
  /** ends the process and what it started (its process group): SIGTERM, then SIGKILL after `graceMs` */
  stop(graceMs?: number): void;
}

export function startProcess(command: string, cwd: string, onOutput: (text: string) => void): ProcessRun {
  const windows = process.platform === 'win32';
  const child = spawn(command, {
    cwd,
    shell: windows ? true : process.env.SHELL || '/bin/sh',
    // its own process group, so Stop ends the whole pipeline the shell started
    detached: !windows,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
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
