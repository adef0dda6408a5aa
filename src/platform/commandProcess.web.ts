// Platform seam, web build: a browser extension host starts no processes, so run_command is not
// offered (see commandProcess.ts, whose shape this mirrors).
export const COMMANDS_SUPPORTED = false;

export type CommandToRun = { argv: readonly string[] } | { shellLine: string };

export interface ProcessRun {
  readonly exited: Promise<{ exitCode: number | undefined; signal?: string }>;
  stop(graceMs?: number): void;
}

export function startProcess(_what: CommandToRun | string, _cwd: string, _onOutput: (text: string) => void): ProcessRun {
  throw new Error('Commands cannot run in VS Code for the Web.');
}
