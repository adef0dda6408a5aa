// The model's edits under the user's review: the edit tools stage changes per answer
// (editTools.ts), the panel lists them with Keep and Undo (editReview.ts), each answer that
// changed files can be restored from its checkpoint (restore.ts, checkpoints.ts). registerChat
// builds one ChatEdits and hands it to the workspace tools (as their EditHost) and the controller.
import * as vscode from 'vscode';
import type { EditHost, EditToolName, ToolRunContext } from '../../agentTools';
import type { Approvals } from '../../agentTools/approvals';
import type { CreateFileArgs, DeleteFileArgs, EditFileArgs } from '../../agentTools/schemas';
import { CheckpointStore, type ConversationFate } from './checkpoints';
import { EditReview } from './editReview';
import { createFileTool, deleteFileTool, editFileTool, type EditContext } from './editTools';
import { confirmRestoreModal, restoreAnswer, type ConfirmRestore, type RestoreOutcome } from './restore';
import { pathForDialog } from '../../agentTools/sensitivePrompt';
import type { AnswerEditsView } from './reviewViews';
import { configWarning } from '../../shared/writeGuard';

export type { ConfirmRestore, RestoreOutcome } from './restore';

/** A tool that wants to change a file that may hold secrets: the panel asks in the answer (per file and answer). */
export interface SensitiveWriteRequest {
  /** workspace-relative, as the tools name it */
  display: string;
  tool: EditToolName;
  /** the answer the question is shown in */
  context: ToolRunContext;
}

/** Asked before the model may change a file that may hold secrets; true only for the user's explicit yes. */
export type AllowSensitiveWrite = (request: SensitiveWriteRequest, token: vscode.CancellationToken) => Promise<boolean>;

/**
 * The default: a card in the answer (../tools/approvals.ts) that names the file, with Refuse as the
 * default button and the answer on Stop; Allow Change is the other choice.
 */
export function allowSensitiveWriteInPanel(approvals: Approvals): AllowSensitiveWrite {
  return async ({ display, tool, context }, token) => {
    const shown = pathForDialog(display);
    const title =
      tool === 'create_file'
        ? vscode.l10n.t('The model wants to create "{0}", which may contain secrets.', shown)
        : tool === 'delete_file'
          ? vscode.l10n.t('The model wants to delete "{0}", which may contain secrets.', shown)
          : vscode.l10n.t('The model wants to change "{0}", which may contain secrets.', shown);
    const choice = await approvals.ask(
      {
        conversationId: context.conversationId,
        messageId: context.messageId,
        title,
        detail: [
          vscode.l10n.t('File: {0}', shown),
          vscode.l10n.t(
            'The change is staged for your review either way, but the model sees the file’s text. Allow it only if you asked for this change: text in a file or web page can instruct a model to touch secrets.',
          ),
        ],
        choices: [
          { id: 'allow', label: vscode.l10n.t('Allow Change') },
          { id: 'refuse', label: vscode.l10n.t('Refuse') },
        ],
        safeChoiceId: 'refuse',
      },
      token,
    );
    return choice === 'allow';
  };
}

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
  /** A conversation was deleted: its pending changes are dropped and its checkpoints removed. */
  conversationDeleted(conversationId: string): Promise<void>;
  /** Removes the checkpoints of deleted or unknown conversations (on start; see CheckpointStore.sweep). */
  sweep(fate: (conversationId: string) => ConversationFate): Promise<number>;
  /** Drops what is in memory, as a window reload does (ChatApi.reload). */
  reset(): void;
}

/**
 * `storage`: the extension's workspace storage (no edit tools without it: a checkpoint needs a place);
 * `approvals`: the panel's cards, where the consent for a file that may hold secrets is asked.
 */
export function createChatEdits(storage: vscode.Uri | undefined, log: (m: string) => void, approvals: Approvals): ChatEdits {
  const changed = new vscode.EventEmitter<string>();
  const checkpoints = new CheckpointStore(vscode.Uri.joinPath(storage ?? vscode.Uri.file('/'), 'checkpoints'), log);
  const review = new EditReview(checkpoints, { log, changed: (id) => changed.fire(id) });
  const ui: EditsUi = { allowSensitive: allowSensitiveWriteInPanel(approvals), confirmRestore: confirmRestoreModal };

  const context = (ctx: ToolRunContext): EditContext => ({
    changes: review.changesFor(ctx.conversationId, ctx.messageId),
    checkpoints,
    log,
    allowSensitive: async (display, tool, token) => {
      if (token.isCancellationRequested) return false;
      try {
        return (await edits.ui.allowSensitive({ display, tool, context: ctx }, token)) === true;
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
    created: (answerId) => review.created(answerId),
    unsaved: (conversationId) => [
      ...new Set(
        [...review.answers.values()]
          .filter((a) => a.conversationId === conversationId)
          .flatMap((a) => a.listed())
          .filter((f) => f.state === 'pending')
          .map((f) => f.display),
      ),
    ],
    async state(conversationId) {
      await review.load(conversationId);
      return {
        available: storage !== undefined && vscode.workspace.isTrusted,
        autoAccept: review.autoAccept(conversationId),
        answers: review.views(conversationId),
      };
    },
    keep: (answerId, path) => review.keep(answerId, path === undefined ? undefined : (f) => f.display === path),
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
      // A file that configures tools, tasks, CI or packages is never kept without review.
      const held = a.pending().filter((f) => f.configures);
      const problems = await review.keep(answerId, (f) => !f.configures);
      if (held.length === 0) return problems;
      for (const f of held) log(`Edits: auto-accept left ${f.display} pending (answer ${answerId}): it configures ${f.configures}.`);
      return [
        ...problems,
        vscode.l10n.t(
          'Auto-accept did not keep {0}: it configures tools, tasks, CI or packages ({1}). Review the change and keep or undo it.',
          held.map((f) => f.display).join(', '),
          held.map((f) => configWarning(f.configures!)).join('; '),
        ),
      ];
    },
    async conversationDeleted(conversationId) {
      if (storage) await review.conversationDeleted(conversationId);
    },
    sweep: (fate) => (storage ? checkpoints.sweep(fate) : Promise.resolve(0)),
    reset: () => review.reset(),
    dispose() {
      review.dispose();
      changed.dispose();
    },
  };
  return edits;
}
