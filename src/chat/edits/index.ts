// The model's edits under the user's review (issue 18): the edit tools stage changes per answer
// (editTools.ts), the panel lists them with Keep and Undo (editReview.ts), each answer that
// changed files can be restored from its checkpoint (restore.ts, checkpoints.ts). registerChat
// builds one ChatEdits and hands it to the workspace tools (as their EditHost) and the controller.
import * as vscode from 'vscode';
import type { EditHost, ToolRunContext } from '../tools';
import type { CreateFileArgs, DeleteFileArgs, EditFileArgs } from '../tools/schemas';
import { CheckpointStore } from './checkpoints';
import { EditReview } from './editReview';
import { createFileTool, deleteFileTool, editFileTool, type EditContext } from './editTools';
import { confirmRestoreModal, restoreAnswer, type ConfirmRestore, type RestoreOutcome } from './restore';
import { pathForDialog } from '../tools/sensitivePrompt';
import type { AnswerEditsView } from '../protocol';

export type { ConfirmRestore, RestoreOutcome } from './restore';

/** Asked before the model may change a file that may hold secrets (per file and answer). */
export type AllowSensitiveWrite = (display: string) => Promise<boolean>;

export const allowSensitiveWriteModal: AllowSensitiveWrite = async (display) => {
  const allow = vscode.l10n.t('Allow Change');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('The model wants to change "{0}", which may contain secrets.', pathForDialog(display)),
    {
      modal: true,
      detail: vscode.l10n.t(
        'The change is staged for your review either way, but the model sees the file’s text. Allow it only if you asked for this change: text in a file or web page can instruct a model to touch secrets.',
      ),
    },
    allow,
  );
  return choice === allow;
};

export interface EditsUi {
  allowSensitive: AllowSensitiveWrite;
  confirmRestore: ConfirmRestore;
}

export interface ChatEdits extends EditHost, vscode.Disposable {
  readonly review: EditReview;
  /** the questions the edits ask (tests answer them) */
  ui: EditsUi;
  /** fires with a conversation id when its edits changed */
  readonly onDidChange: vscode.Event<string>;
  /** the panel's state of a conversation's edits (checkpoints of earlier windows read first) */
  state(conversationId: string): Promise<{ available: boolean; autoAccept: boolean; answers: AnswerEditsView[] }>;
  keep(answerId: string, path?: string): Promise<string[]>;
  undo(answerId: string, path?: string): Promise<void>;
  showDiff(answerId: string, path: string): Promise<boolean>;
  restore(answerId: string): Promise<RestoreOutcome>;
  setAutoAccept(conversationId: string, on: boolean): void;
  answerFinished(answerId: string): Promise<string[]>;
  /** Drops what is in memory, as a window reload does (ChatApi.reload). */
  reset(): void;
}

/** `storage`: the extension's workspace storage (no edit tools without it: a checkpoint needs a place). */
export function createChatEdits(storage: vscode.Uri | undefined, log: (m: string) => void): ChatEdits {
  const changed = new vscode.EventEmitter<string>();
  const checkpoints = new CheckpointStore(vscode.Uri.joinPath(storage ?? vscode.Uri.file('/'), 'checkpoints'), log);
  const review = new EditReview(checkpoints, { log, changed: (id) => changed.fire(id) });
  const ui: EditsUi = { allowSensitive: allowSensitiveWriteModal, confirmRestore: confirmRestoreModal };

  const context = (ctx: ToolRunContext): EditContext => ({
    changes: review.changesFor(ctx.conversationId, ctx.messageId),
    checkpoints,
    log,
    allowSensitive: async (display, token) => {
      if (token.isCancellationRequested) return false;
      try {
        return (await edits.ui.allowSensitive(display)) === true;
      } catch {
        return false;
      }
    },
    pendingElsewhere: (key, answerId) => review.pendingElsewhere(key, answerId),
    changed: () => changed.fire(ctx.conversationId),
  });

  const edits: ChatEdits = {
    review,
    ui,
    onDidChange: changed.event,
    available: () => storage !== undefined,
    async run(name, args, ctx, token) {
      const c = context(ctx);
      switch (name) {
        case 'edit_file':
          return editFileTool(args as EditFileArgs, c, token);
        case 'create_file':
          return createFileTool(args as CreateFileArgs, c, token);
        case 'delete_file':
          return deleteFileTool(args as DeleteFileArgs, c, token);
      }
    },
    staged: (key, answerId) => review.staged(key, answerId),
    async state(conversationId) {
      await review.load(conversationId);
      return {
        available: storage !== undefined && vscode.workspace.isTrusted,
        autoAccept: review.autoAccept(conversationId),
        answers: review.views(conversationId),
      };
    },
    keep: (answerId, path) => review.keep(answerId, path),
    undo: (answerId, path) => review.undo(answerId, path),
    showDiff: (answerId, path) => review.showDiff(answerId, path),
    async restore(answerId) {
      const a = review.answers.get(answerId);
      const r = await restoreAnswer(review, answerId, (m, d) => edits.ui.confirmRestore(m, d), log);
      if (a) changed.fire(a.conversationId);
      return r;
    },
    setAutoAccept: (conversationId, on) => review.setAutoAccept(conversationId, on),
    async answerFinished(answerId) {
      const a = review.answers.get(answerId);
      if (!a || a.pending().length === 0 || !review.autoAccept(a.conversationId)) return [];
      return review.keep(answerId);
    },
    reset: () => review.reset(),
    dispose() {
      review.dispose();
      changed.dispose();
    },
  };
  return edits;
}
