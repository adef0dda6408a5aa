// The user's say-so before a secret-looking file (src/core/workspace/sensitiveFiles.ts) reaches the model.
// read_file, get_selection and get_diagnostics (for one file) ask; search_text skips such files
// without asking; list_files lists their names (a name is not a secret, and the model needs the
// path to ask for the file at all).
import { path } from '../../platform/path';
import * as vscode from 'vscode';
import { hasSecretContent, isSensitivePath } from '../../core/workspace/sensitiveFiles';
import { ApprovalQueue, type ApproveSensitiveRead } from './approvalQueue';
import { ToolError } from './errors';
import { approvalQuestion, declinedMessage, type SensitiveReadRequest } from './sensitivePrompt';
import { displayPath, type Target } from './workspaceAccess';

/**
 * The default: a modal warning whose first button, the one VS Code makes primary (Enter takes
 * it), is "Don't Allow"; "Allow Once" is the second. Cancel and Escape mean no too.
 */
export const promptSensitiveRead: ApproveSensitiveRead = async (relPath, request) => {
  const { message, detail } = approvalQuestion(relPath, request);
  const allowOnce = vscode.l10n.t('Allow Once');
  const deny = vscode.l10n.t("Don't Allow");
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, deny, allowOnce);
  return choice === allowOnce;
};

/**
 * Every name the file is reached by: as addressed, where it really is (symlinks followed), each
 * also with the workspace folder's own name in front, so that a workspace opened at `~/.ssh` or
 * `~/.aws` is judged like one opened at `~`.
 */
export function targetIsSensitive(t: Target): boolean {
  const named = (folder: vscode.WorkspaceFolder, rel: string) => [rel, `${path.posix.basename(folder.uri.path)}/${rel}`];
  return [...named(t.folder, t.relative), ...named(t.realFolder, t.realRelative)].some(isSensitivePath);
}

/** Puts the question for secret-looking files; passes everything else straight through. */
export class SensitiveReadGate {
  private readonly questions: ApprovalQueue;

  constructor(approve: ApproveSensitiveRead) {
    this.questions = new ApprovalQueue(approve);
  }

  /**
   * Returns when `t` is not secret-looking (by name, or by `text` when the caller read it) or the
   * user allowed this one read; throws ToolError (the model reads it) when the user said no,
   * ToolCancelled when the call was stopped meanwhile.
   */
  async allow(t: Target, tool: SensitiveReadRequest['tool'], token: vscode.CancellationToken, text?: string): Promise<void> {
    if (!targetIsSensitive(t) && !(text !== undefined && hasSecretContent(text))) return;
    const moved = t.realFolder !== t.folder || t.realRelative !== t.relative;
    const request: SensitiveReadRequest = moved ? { tool, linkTarget: displayPath(t.realFolder, t.realRelative) } : { tool };
    if (!(await this.questions.ask(t.display, request, token))) throw new ToolError(declinedMessage(t.display));
  }
}
