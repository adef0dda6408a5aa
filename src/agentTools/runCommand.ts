// run_command: runs one shell command in a workspace folder, only after the user pressed Run on
// the panel's card (./approvals.ts) showing the exact command and folder, or
// when `modelgate.chat.allowedCommands` (user settings) allows it (src/core/workspace/allowedCommands.ts).
// It runs in a VS Code terminal with shell integration, so the user sees it and the output can be
// read back; where shell integration does not come up, it runs as a child process of the
// extension host instead, and the result says so. While it runs, a card offers Stop; Stop in the
// panel and the time limit (`modelgate.chat.commandTimeoutSeconds`) end it too. The model gets
// the exit code and the output, capped (commandOutput.ts). Every run is logged: the command,
// folder, how it was allowed, exit code and time, never the output.
import * as vscode from 'vscode';
import { allowedBy } from '../core/workspace/allowedCommands';
import type { Log } from '../services/log';
import type { ToolRunContext } from './toolContext';
import { throwIfCancelled } from './cancellation';
import { OutputCollector } from './commandOutput';
import { startProcess } from '../platform/commandProcess';
import { ToolError } from './errors';
import { listPaths, stagedNote } from './stagedNote';
import type { Approvals } from './approvals';
import type { RunCommandArgs } from './schemas';
import { resolvePath, statTarget, workspaceFolders } from './workspaceAccess';

export interface CommandSettings {
  /** entries of `modelgate.chat.allowedCommands` (user settings only) */
  allowedCommands: readonly string[];
  commandTimeoutMs: number;
}

export interface RunCommandDeps {
  approvals: Approvals;
  settings(): CommandSettings;
  log: Log;
  /** how long to wait for a new terminal's shell integration before running as a process */
  shellIntegrationWaitMs?: number;
}

/** Long enough for bash or zsh with VS Code's injected script on a slow machine. */
export const SHELL_INTEGRATION_WAIT_MS = 5_000;
/** After Ctrl+C (terminal) or SIGTERM (process): the grace before the terminal is closed or SIGKILL. */
const STOP_GRACE_MS = 2_000;

type EndReason = 'exited' | 'stopped' | 'timeout' | 'cancelled';

interface Execution {
  via: 'terminal' | 'process';
  /** resolves with the exit code (undefined when unknown: killed, or the shell did not report it) */
  exited: Promise<number | undefined>;
  stop(): void;
}

/**
 * `unsaved`: the files with changes the edit tools staged and the user has not kept (not on disk):
 * the cards and the result say that the command does not see them.
 */
export async function runCommandTool(
  args: RunCommandArgs,
  context: ToolRunContext | undefined,
  token: vscode.CancellationToken,
  deps: RunCommandDeps,
  unsaved: () => readonly string[] = () => [],
): Promise<string> {
  const command = args.command.trim();
  if (!command) throw new ToolError('The command is empty.');
  const dir = await commandFolder(args.cwd, token);
  const settings = deps.settings();
  const allowed = allowedBy(command, settings.allowedCommands);
  const cardDetail = (files: readonly string[]) => {
    const folder = vscode.l10n.t('Folder: {0}', dir.display);
    if (files.length === 0) return [folder];
    return [
      folder,
      vscode.l10n.t(
        'Not on disk yet: {0} file(s) with changes the model staged that you have not kept ({1}). The command runs on the files on disk, without those changes.',
        files.length,
        listPaths(files),
      ),
    ];
  };
  if (!allowed) {
    if (!context) throw new ToolError('run_command needs the user to approve the command in the chat panel, which is not available here.');
    const choice = await deps.approvals.ask(
      {
        conversationId: context.conversationId,
        messageId: context.messageId,
        title: vscode.l10n.t('Run this command?'),
        detail: cardDetail(unsaved()),
        code: command,
        choices: [
          { id: 'run', label: vscode.l10n.t('Run') },
          { id: 'skip', label: vscode.l10n.t('Skip') },
        ],
        safeChoiceId: 'skip',
      },
      token,
    );
    throwIfCancelled(token);
    if (choice !== 'run') {
      deps.log.info(`run_command skipped by the user: ${JSON.stringify(command)} in ${dir.display}`);
      return `The user chose Skip: the command was not run.\nCommand: ${command}\nDo not run it again unless the user asks; continue without its result or tell the user how to run it.`;
    }
  }

  const staged = unsaved(); // what the command does not see, as it starts
  const collector = new OutputCollector();
  const started = Date.now();
  let note = '';
  let exec = await startInTerminal(command, dir.uri, collector, deps.shellIntegrationWaitMs ?? SHELL_INTEGRATION_WAIT_MS);
  if (!exec) {
    note = 'Shell integration was not available in a VS Code terminal, so the command ran as a background process of VS Code (not shown in a terminal).\n';
    deps.log.info('run_command: no terminal shell integration; running as a child process.');
    exec = startAsProcess(command, dir.uri.fsPath, collector);
  }

  // While it runs: Stop on a card in the answer, Stop of the answer, the time limit.
  let reason = 'exited' as EndReason;
  const end = (r: EndReason) => {
    if (reason !== 'exited' || finished) return;
    reason = r;
    exec.stop();
  };
  let finished = false;
  const cardCancel = new vscode.CancellationTokenSource();
  if (context) {
    void deps.approvals
      .ask(
        {
          conversationId: context.conversationId,
          messageId: context.messageId,
          title: vscode.l10n.t('Running…'),
          detail: cardDetail(staged),
          code: command,
          choices: [{ id: 'stop', label: vscode.l10n.t('Stop') }],
          safeChoiceId: 'stop',
        },
        cardCancel.token,
      )
      .then((choice) => {
        if (!finished && choice === 'stop' && !cardCancel.token.isCancellationRequested) end('stopped');
      });
  }
  const timer = setTimeout(() => end('timeout'), settings.commandTimeoutMs);
  const onCancel = token.onCancellationRequested(() => end('cancelled'));
  let exitCode: number | undefined;
  try {
    exitCode = await exec.exited;
  } finally {
    finished = true;
    clearTimeout(timer);
    onCancel.dispose();
    cardCancel.cancel();
    cardCancel.dispose();
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  deps.log.info(
    `run_command ${allowed ? `allowed by the setting entry ${JSON.stringify(allowed)}` : 'approved by the user'}: ${JSON.stringify(command)} in ${dir.display}, ` +
      `via ${exec.via}, ${reason === 'exited' ? `exit code ${exitCode ?? 'unknown'}` : reason}, ${seconds} s`,
  );
  throwIfCancelled(token);
  const head =
    reason === 'stopped'
      ? `The user stopped the command after ${seconds} s.`
      : reason === 'timeout'
        ? `The command was stopped at the time limit of ${Math.round(settings.commandTimeoutMs / 1000)} s (the user's setting modelgate.chat.commandTimeoutSeconds).`
        : `Exit code: ${exitCode ?? 'unknown'}`;
  const output = collector.text();
  // first, so that capping a long output never cuts it
  note = `${stagedNote(staged, 'run_command')}${note}`;
  return `${note}Command: ${command}\nFolder: ${dir.display}\n${head}\nOutput:\n${output.trim() ? output : '(no output)'}`;
}

/** The folder to run in: `cwd` through the workspace path guard, else the (first) workspace folder. */
async function commandFolder(cwd: string | undefined, token: vscode.CancellationToken): Promise<{ uri: vscode.Uri; display: string }> {
  if (cwd === undefined || cwd.trim() === '' || cwd.trim() === '.') {
    const folder = workspaceFolders()[0];
    if (!folder) throw new ToolError('No folder is open in VS Code, so there is nowhere to run a command.');
    if (folder.uri.scheme !== 'file') throw new ToolError('Commands run only in folders on this computer’s disk; this workspace folder is not one.');
    return { uri: folder.uri, display: workspaceFolders().length > 1 ? folder.name : '.' };
  }
  const t = await resolvePath(cwd);
  if (t.uri.scheme !== 'file') throw new ToolError('Commands run only in folders on this computer’s disk; this workspace folder is not one.');
  const info = await statTarget(t, token);
  if (info.kind !== 'directory') throw new ToolError(`"${t.display}" is not a folder: cwd must name a folder of the workspace.`);
  return { uri: t.uri, display: t.display };
}

function startAsProcess(command: string, cwd: string, collector: OutputCollector): Execution {
  const run = startProcess(command, cwd, (s) => collector.add(s));
  return { via: 'process', exited: run.exited.then((r) => r.exitCode), stop: () => run.stop(STOP_GRACE_MS) };
}

/** Runs in a new terminal once its shell integration is active; undefined when it does not come up in time. */
async function startInTerminal(command: string, cwd: vscode.Uri, collector: OutputCollector, waitMs: number): Promise<Execution | undefined> {
  if (waitMs <= 0) return undefined;
  const terminal = vscode.window.createTerminal({ name: vscode.l10n.t('Modelgate command'), cwd, isTransient: true });
  const integration = terminal.shellIntegration ?? (await shellIntegrationOf(terminal, waitMs));
  if (!integration) {
    terminal.dispose();
    return undefined;
  }
  let execution: vscode.TerminalShellExecution | undefined;
  const exited = new Promise<number | undefined>((resolve) => {
    const subs: vscode.Disposable[] = [];
    const done = (code: number | undefined) => {
      for (const s of subs.splice(0)) s.dispose();
      resolve(code);
    };
    subs.push(
      vscode.window.onDidEndTerminalShellExecution((e) => {
        if (execution && e.execution === execution) done(e.exitCode);
      }),
      vscode.window.onDidCloseTerminal((t) => {
        if (t === terminal) done(undefined);
      }),
    );
  });
  execution = integration.executeCommand(command);
  const stream = execution.read();
  const reading = (async () => {
    for await (const data of stream) collector.add(data);
  })().catch(() => undefined);
  return {
    via: 'terminal',
    // the stream ends with the command; a little slack for its last piece
    exited: exited.then(async (code) => {
      await Promise.race([reading, new Promise((r) => setTimeout(r, 1_000))]);
      return code;
    }),
    stop: () => {
      terminal.sendText('\u0003', false);
      const closer = setTimeout(() => terminal.dispose(), STOP_GRACE_MS);
      void exited.then(() => clearTimeout(closer));
    },
  };
}

function shellIntegrationOf(terminal: vscode.Terminal, waitMs: number): Promise<vscode.TerminalShellIntegration | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(terminal.shellIntegration);
    }, waitMs);
    const sub = vscode.window.onDidChangeTerminalShellIntegration((e) => {
      if (e.terminal !== terminal) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(e.shellIntegration);
    });
  });
}
