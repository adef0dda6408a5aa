// The user's say-so before a secret-looking file (src/core/workspace/sensitiveFiles.ts) reaches the model.
// read_file, get_selection and get_diagnostics (for one file) ask; search_text skips such files
// without asking; list_files lists their names (a name is not a secret, and the model needs the
// path to ask for the file at all).
import { path } from '../platform/path';
import * as vscode from 'vscode';
import { hasSecretContent, isSensitivePath } from '../core/workspace/sensitiveFiles';
import { ApprovalQueue, type ApproveSensitiveRead } from './approvalQueue';
import { ToolError } from './errors';
import type { Approvals } from './approvals';
import { approvalQuestion, declinedMessage, pathForDialog, type SensitiveReadRequest } from './sensitivePrompt';
import type { ToolRunContext } from './toolContext';
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

/**
 * The chat panel's way to ask: a card in the answer (./approvals.ts) with the file named and
 * "Don't Allow" as the default button; a call from elsewhere (no answer to show it in) gets
 * `fallback`, the modal.
 */
export function sensitiveReadInPanel(approvals: Approvals, fallback: ApproveSensitiveRead = promptSensitiveRead): ApproveSensitiveRead {
  return async (relPath, request, token) => {
    if (!request.context || !token) return fallback(relPath, request, token);
    const { message, detail } = approvalQuestion(relPath, request);
    const choice = await approvals.ask(
      {
        conversationId: request.context.conversationId,
        messageId: request.context.messageId,
        title: message,
        detail: [vscode.l10n.t('File: {0}', pathForDialog(relPath)), detail],
        choices: [
          { id: 'allow', label: vscode.l10n.t('Allow Once') },
          { id: 'deny', label: vscode.l10n.t("Don't Allow") },
        ],
        safeChoiceId: 'deny',
      },
      token,
    );
    return choice === 'allow';
  };
}

/** Puts the question for secret-looking files; passes everything else straight through. */
export class SensitiveReadGate {
  private readonly questions: ApprovalQueue;

  constructor(
    approve: ApproveSensitiveRead | ApprovalQueue,
    /** the answer a call comes from (the panel shows the question there) */
    private readonly context?: ToolRunContext,
  ) {
    this.questions = approve instanceof ApprovalQueue ? approve : new ApprovalQueue(approve);
  }

  /** The same gate (one question at a time), for the calls of one answer. */
  for(context: ToolRunContext | undefined): SensitiveReadGate {
    return context ? new SensitiveReadGate(this.questions, context) : this;
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
    if (this.context) request.context = this.context;
    if (!(await this.questions.ask(t.display, request, token))) throw new ToolError(declinedMessage(t.display));
  }
}
