// Questions the panel asks inline in an answer, for every feature that needs the user's say
// before it acts (run a command, write a file, use an MCP tool): a card with a title, detail
// lines, an optional code block and buttons. The safe choice (the one that changes nothing) is
// the default button, and it is also the answer when the question is cancelled (Stop, the
// answer or its conversation going away, the chat closing). One question at a time per
// conversation: later ones wait until the shown one is answered, so the user always knows which
// action a button is about.
// No runtime `vscode` import: unit-tested in plain Node with a stand-in token.
import type * as vscode from 'vscode';
import type { ApprovalQuestion, Approvals } from '../../agentTools/approvals';
import type { ApprovalView } from '../protocol';

/** What the chat posts to its webview: a card to show, or one to remove. */
export type ApprovalChange =
  | { kind: 'shown'; conversationId: string; approval: ApprovalView }
  | { kind: 'done'; conversationId: string; id: string; choiceId: string };

interface Pending {
  conversationId: string;
  view: ApprovalView;
  shown: boolean;
  settle(choiceId: string): void;
}

/** The panel's approval questions (one instance per chat; see src/chat/index.ts). */
export class PanelApprovals implements Approvals {
  readonly #queues = new Map<string, Pending[]>();
  readonly #listeners = new Set<(change: ApprovalChange) => void>();
  #next = 0;
  #disposed = false;

  /** Subscribes to cards shown and removed (the chat controller posts them to the webview). */
  onDidChange(listener: (change: ApprovalChange) => void): { dispose(): void } {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  /**
   * Asks `question` in the panel and resolves with the id of the choice the user pressed; with
   * the safe choice when the token fires, the conversation is dropped or the chat closes.
   */
  ask(question: ApprovalQuestion, token: vscode.CancellationToken): Promise<string> {
    if (!question.choices.some((c) => c.id === question.safeChoiceId)) throw new Error('The safe choice must be one of the choices.');
    const safe = question.safeChoiceId;
    if (this.#disposed || token.isCancellationRequested) return Promise.resolve(safe);
    return new Promise<string>((resolve) => {
      const view: ApprovalView = {
        id: `approval-${++this.#next}`,
        messageId: question.messageId,
        title: question.title,
        detail: [...(question.detail ?? [])],
        choices: question.choices.map((c) => ({ id: c.id, label: c.label })),
        safeChoiceId: safe,
      };
      if (question.code !== undefined) view.code = question.code;
      let done = false;
      const pending: Pending = {
        conversationId: question.conversationId,
        view,
        shown: false,
        settle: (choiceId) => {
          if (done) return;
          done = true;
          sub.dispose();
          this.#remove(pending, choiceId);
          resolve(choiceId);
        },
      };
      const sub = token.onCancellationRequested(() => pending.settle(safe));
      const queue = this.#queues.get(question.conversationId) ?? [];
      queue.push(pending);
      this.#queues.set(question.conversationId, queue);
      if (queue.length === 1) this.#show(pending);
    });
  }

  /** The user pressed `choiceId` on card `id`; false (and nothing happens) when no such card is shown. */
  answer(id: string, choiceId: string): boolean {
    for (const queue of this.#queues.values()) {
      const head = queue[0];
      if (head?.shown && head.view.id === id) {
        if (!head.view.choices.some((c) => c.id === choiceId)) return false;
        head.settle(choiceId);
        return true;
      }
    }
    return false;
  }

  /** The card shown in a conversation (for a snapshot after the webview reloaded). */
  shownIn(conversationId: string): ApprovalView | undefined {
    const head = this.#queues.get(conversationId)?.[0];
    return head?.shown ? structuredClone(head.view) : undefined;
  }

  /** Every question of a conversation gets its safe answer (the conversation was deleted). */
  cancelConversation(conversationId: string): void {
    for (const p of [...(this.#queues.get(conversationId) ?? [])]) p.settle(p.view.safeChoiceId);
  }

  /** Every question gets its safe answer, and later ones get it at once. */
  dispose(): void {
    this.#disposed = true;
    for (const id of [...this.#queues.keys()]) this.cancelConversation(id);
    this.#listeners.clear();
  }

  #show(p: Pending): void {
    p.shown = true;
    this.#fire({ kind: 'shown', conversationId: p.conversationId, approval: structuredClone(p.view) });
  }

  #remove(p: Pending, choiceId: string): void {
    const queue = this.#queues.get(p.conversationId);
    if (!queue) return;
    const i = queue.indexOf(p);
    if (i >= 0) queue.splice(i, 1);
    if (p.shown) this.#fire({ kind: 'done', conversationId: p.conversationId, id: p.view.id, choiceId });
    if (queue.length === 0) this.#queues.delete(p.conversationId);
    else if (!queue[0]!.shown) this.#show(queue[0]!);
  }

  #fire(change: ApprovalChange): void {
    for (const l of [...this.#listeners]) {
      try {
        l(change);
      } catch {
        // a listener that throws must not leave a question unshown or unanswered
      }
    }
  }
}
