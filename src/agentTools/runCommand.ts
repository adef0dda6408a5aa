// run_command: runs one command in a workspace folder, only after the user pressed Run on the
// panel's card (./approvals.ts) showing every character of the command (invisible
// ones marked) and the folder, or when `modelgate.chat.allowedCommands` (user settings) lists
// exactly its words (src/core/workspace/allowedCommands.ts). It runs as a child process, never
// typed into a terminal, whose line editor would turn control characters inside the line into
// key presses and run something else; its output is mirrored into a VS Code terminal so the user
// sees it (commandTerminal.ts). While it runs, a card offers Stop; Stop in the panel, Ctrl+C in the
// terminal and the time limit (`modelgate.chat.commandTimeoutSeconds`) end it too. The model gets
// the exit code and the output, capped (commandOutput.ts). Every run is logged: the command,
// folder, how it was allowed, exit code and time, never the output.
import * as vscode from 'vscode';
import { allowedBy, visibleCommand, type AllowedEntry } from '../core/workspace/allowedCommands';
import { clipForLog } from '../core/logText';
import type { Log } from '../services/log';
import type { ToolRunContext } from './toolContext';
import { throwIfCancelled } from './cancellation';
import { OutputCollector } from './commandOutput';
import { startProcess, type CommandToRun } from '../platform/commandProcess';
import { CommandTerminal } from './commandTerminal';
import { ToolError } from './errors';
import { listPaths, stagedNote } from './stagedNote';
import type { Approvals } from './approvals';
import type { RunCommandArgs } from './schemas';
import { resolvePath, statTarget, workspaceFolders } from './workspaceAccess';

export interface CommandSettings {
  /** entries of `modelgate.chat.allowedCommands` (user settings only) */
  allowedCommands: readonly AllowedEntry[];
  commandTimeoutMs: number;
}

export interface RunCommandDeps {
  approvals: Approvals;
  settings(): CommandSettings;
  log: Log;
}

/** After SIGTERM: the grace before SIGKILL. */
const STOP_GRACE_MS = 2_000;

type EndReason = 'exited' | 'stopped' | 'timeout' | 'cancelled';

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
  // only ASCII spaces and line ends: trim() would hide control and invisible characters from the card
  const command = args.command.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  if (!command) throw new ToolError('The command is empty.');
  if (command.includes('\u0000')) throw new ToolError('The command contains a NUL character, which no shell can run. Nothing was run.');
  const dir = await commandFolder(args.cwd, token);
  const settings = deps.settings();
  const allowed = allowedBy(command, settings.allowedCommands);
  const shown = visibleCommand(command);
  const cardDetail = (files: readonly string[]) => {
    const lines = [vscode.l10n.t('Folder: {0}', dir.display)];
    if (shown.hidden > 0)
      lines.push(
        vscode.l10n.t(
          'The command contains {0} invisible or control character(s), shown as ⟨…⟩: they reach the shell as they are. Skip unless you know why they are there.',
          shown.hidden,
        ),
      );
    if (files.length > 0)
      lines.push(
        vscode.l10n.t(
          'Not on disk yet: {0} file(s) with changes the model staged that you have not kept ({1}). The command runs on the files on disk, without those changes.',
          files.length,
          listPaths(files),
        ),
      );
    return lines;
  };
  if (!allowed) {
    if (!context) throw new ToolError('run_command needs the user to approve the command in the chat panel, which is not available here.');
    const choice = await deps.approvals.ask(
      {
        conversationId: context.conversationId,
        messageId: context.messageId,
        title: vscode.l10n.t('Run this command?'),
        detail: cardDetail(unsaved()),
        code: shown.text,
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
      deps.log.info(`run_command skipped by the user: ${clipForLog(JSON.stringify(command))} in ${dir.display}`);
      return `The user chose Skip: the command was not run.\nCommand: ${command}\nDo not run it again unless the user asks; continue without its result or tell the user how to run it.`;
    }
  }

  const staged = unsaved(); // what the command does not see, as it starts
  const collector = new OutputCollector();
  const started = Date.now();
  // An allowed line runs as the words the allow-list matched, without a shell; an approved one as the user saw it.
  const toRun: CommandToRun = allowed ? { argv: allowed.argv } : { shellLine: command };
  const terminal = new CommandTerminal(shown.text, dir.display, () => end('stopped'));
  const exec = startProcess(toRun, dir.uri.fsPath, (text) => {
    collector.add(text);
    terminal.output(text);
  });

  // While it runs: Stop on a card in the answer, Stop of the answer, the time limit.
  let reason = 'exited' as EndReason;
  const end = (r: EndReason) => {
    if (reason !== 'exited' || finished) return;
    reason = r;
    exec.stop(STOP_GRACE_MS);
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
          code: shown.text,
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
    exitCode = (await exec.exited).exitCode;
  } finally {
    finished = true;
    clearTimeout(timer);
    onCancel.dispose();
    cardCancel.cancel();
    cardCancel.dispose();
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ending = reason === 'exited' ? `exit code ${exitCode ?? 'unknown'}` : reason;
  terminal.finished(`${ending}, ${seconds} s.`);
  deps.log.info(
    `run_command ${allowed ? `allowed by the setting entry ${JSON.stringify(allowed.entry.text)}` : 'approved by the user'}: ${clipForLog(JSON.stringify(command))} in ${dir.display}, ` +
      `${ending}, ${seconds} s`,
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
  const note = stagedNote(staged, 'run_command');
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
