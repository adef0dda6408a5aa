// The chat controller's side of the edits: posts the review state of the conversation on screen
// (on every snapshot and every change), and turns the panel's Keep, Undo, diff, restore and
// auto-accept messages into calls of ChatEdits, with notices for what could not be done.
import * as vscode from 'vscode';
import type { ChatScope } from '../chatScope';
import type { Conversation } from '../conversations/conversationTranscript';
import type { WebviewMessage } from '../protocol';
import type { ChatEdits } from '../../workspaceEdits/toolEdits';

type EditMessage = Extract<WebviewMessage, { type: 'editReview' | 'restoreAnswer' | 'setAutoAccept' }>;

export class EditsPanel implements vscode.Disposable {
  readonly #subscription: vscode.Disposable;

  constructor(
    private readonly edits: ChatEdits,
    private readonly scope: ChatScope,
  ) {
    this.#subscription = edits.onDidChange((conversationId) => {
      if (this.scope.closing) return;
      const active = this.#active();
      if (active?.id === conversationId) void this.post(active);
    });
  }

  #active(): Conversation | undefined {
    try {
      return this.scope.store().active;
    } catch {
      return undefined;
    }
  }

  /** Posts the review state of `c` (the panel shows it while `c` is on screen). */
  async post(c: Conversation): Promise<void> {
    const state = await this.edits.state(c.id);
    this.scope.out.postFor(c, { type: 'edits', conversationId: c.id, ...state });
  }

  async handle(msg: EditMessage, c: Conversation): Promise<void> {
    const known = (id: string) => c.messages.some((m) => m.id === id && m.role === 'assistant');
    switch (msg.type) {
      case 'setAutoAccept':
        return this.edits.setAutoAccept(c.id, msg.on);
      case 'restoreAnswer': {
        if (!known(msg.messageId)) return;
        const r = await this.edits.restore(msg.messageId);
        if (r.kind === 'restored') {
          if (r.problems.length) this.scope.out.notice('warning', r.problems.join(' '));
          else this.scope.out.notice('info', vscode.l10n.t('The files are back to how they were before that answer.'));
        }
        return;
      }
      case 'editReview': {
        if (!known(msg.messageId)) return;
        if (msg.action === 'diff') {
          if (msg.path) await this.edits.showDiff(msg.messageId, msg.path);
          return;
        }
        if (msg.action === 'undo') return this.edits.undo(msg.messageId, msg.path);
        const problems = await this.edits.keep(msg.messageId, msg.path);
        if (problems.length) this.scope.out.notice('warning', problems.join(' '));
        return;
      }
    }
  }

  /** The answer ended: auto-accept keeps its changes; the panel gets the final state. */
  async answerEnded(c: Conversation, answerId: string): Promise<void> {
    const problems = await this.edits.answerFinished(answerId);
    if (problems.length) this.scope.out.notice('warning', problems.join(' '));
  }

  /** A conversation was deleted: its pending changes are dropped and its checkpoints removed. */
  conversationDeleted(conversationId: string): Promise<void> {
    return this.edits.conversationDeleted(conversationId);
  }

  dispose(): void {
    this.#subscription.dispose();
  }
}
