// The user's turns in a conversation: send, regenerate, edit-and-resend. Each checks that the
// request can go out (sendChecks) with the conversation marked busy, adds the user's message to
// the history and the webview, and hands the answer to AnswerRuns.
import * as vscode from 'vscode';
import { imagesOf, userMessage, type ImageInput, type VolatileContext } from '../../core/prompt/promptLayout';
import type { AttachmentView } from '../protocol';
import type { ChatScope } from '../chatScope';
import type { AnswerRuns } from './answerRuns';
import { checkSendable, refuse } from './sendChecks';
import type { ConversationCompactor } from '../compaction/conversationCompactor';
import { nextMessageContext } from '../context/turnContext';
import {
  lastAssistant,
  messageView,
  newId,
  titleFrom,
  truncateFrom,
  wireHistory,
  NEW_CHAT_TITLE,
  type Conversation,
  type UserRecord,
} from '../conversations/conversationTranscript';

export class ChatTurns {
  /** conversations whose next turn is being checked (key prompt, ...): a second send waits its turn */
  readonly #preparing = new Set<string>();

  constructor(
    private readonly scope: ChatScope,
    private readonly runs: AnswerRuns,
    /** a request that does not fit the window compacts the conversation first */
    private readonly compactor?: ConversationCompactor,
  ) {}

  /** True while an answer runs or the next turn is being checked. */
  isBusy(c: Conversation): boolean {
    return this.runs.has(c.id) || this.#preparing.has(c.id);
  }

  /** See ChatController.send. */
  async send(text: string): Promise<void> {
    const { out, store } = this.scope;
    const c = store().active;
    if (this.isBusy(c)) {
      out.post({ type: 'setDraft', text });
      return out.notice('info', vscode.l10n.t('An answer is still being written: stop it (Escape) or wait for it, then send.'), [], {
        conversation: c,
        topic: 'busy',
      });
    }
    const { contexts, images, attachments } = nextMessageContext(c);
    if (!text.trim() && contexts.length === 0 && images.length === 0) return;
    const user = await this.#preparingTurn(c, () => this.#prepareTurn(c, text, contexts, images, attachments, c.messages.length));
    if (!user || this.scope.closing) return;
    c.pending = [];
    c.draft = '';
    this.#addUser(c, user);
    this.scope.postComposer();
    await this.runs.answer(c);
  }

  /** See ChatController.regenerate. */
  async regenerate(): Promise<void> {
    const c = this.scope.store().active;
    if (this.isBusy(c)) return;
    const last = lastAssistant(c);
    if (!last && c.messages[c.messages.length - 1]?.role !== 'user') return;
    const refusal = await this.#preparingTurn(c, () => checkSendable(this.scope, c, wireHistory(c, last ? c.messages.length - 1 : c.messages.length)));
    if (refusal) return refuse(this.scope, c, refusal);
    if (this.scope.closing || this.isBusy(c) || (last && lastAssistant(c) !== last)) return;
    if (last) {
      truncateFrom(c, last.id);
      this.scope.out.postFor(c, { type: 'truncated', fromMessageId: last.id });
    }
    await this.runs.answer(c);
  }

  /** See ChatController.editAndResend. */
  async editAndResend(messageId: string, text: string): Promise<void> {
    const { out } = this.scope;
    const c = this.scope.store().active;
    if (this.isBusy(c)) return out.notice('info', vscode.l10n.t('Stop the current answer before editing a message.'), [], { conversation: c, topic: 'busy' });
    const index = c.messages.findIndex((m) => m.id === messageId);
    const old = c.messages[index];
    if (!old || old.role !== 'user') return;
    if (!text.trim()) return out.notice('info', vscode.l10n.t('The edited message is empty.'), [], { conversation: c, transient: true });
    const user = await this.#preparingTurn(c, () => this.#prepareTurn(c, text, old.context, imagesOf(old.wire), old.attachments, index));
    if (!user || this.scope.closing || this.isBusy(c) || c.messages[index] !== old) return;
    truncateFrom(c, messageId);
    out.postFor(c, { type: 'truncated', fromMessageId: messageId });
    this.#addUser(c, user);
    await this.runs.answer(c);
  }

  /** Runs the checks before a turn with the conversation marked busy (no second send meanwhile). */
  async #preparingTurn<T>(c: Conversation, prepare: () => Promise<T>): Promise<T> {
    this.#preparing.add(c.id);
    try {
      return await prepare();
    } finally {
      this.#preparing.delete(c.id);
    }
  }

  /** Builds the user message and checks that the request can go out; undefined when refused. */
  async #prepareTurn(
    c: Conversation,
    text: string,
    contexts: VolatileContext[],
    images: ImageInput[],
    attachments: AttachmentView[],
    historyEnd: number,
  ): Promise<UserRecord | undefined> {
    const wire = userMessage(text, contexts, images);
    let refusal = await checkSendable(this.scope, c, [...wireHistory(c, historyEnd), wire]);
    // no room for the answer: compacting is necessary, and says so in one line with its cost
    if (refusal?.noRoom && this.compactor && historyEnd === c.messages.length && (await this.compactor.mayCompact(c, 'room'))) {
      const done = await this.compactor.compact(c, { reason: 'room' });
      if (done.ok) {
        this.compactor.postDivider(c);
        this.scope.out.notice('info', this.compactor.doneNote(done, 'room'), ['undoCompaction'], { conversation: c });
        refusal = await checkSendable(this.scope, c, [...wireHistory(c, historyEnd), wire]);
      }
    }
    if (refusal) {
      this.scope.out.post({ type: 'setDraft', text });
      refuse(this.scope, c, refusal);
      return undefined;
    }
    // by price: compacting now costs less than it saves over the turns that count (a cold cache)
    if (this.compactor && historyEnd === c.messages.length && this.scope.services.settings().compaction !== 'off') {
      const verdict = this.compactor.priceCheck(c, wire);
      if (verdict && (await this.compactor.mayCompact(c, 'price', verdict))) {
        const done = await this.compactor.compact(c, { reason: 'price' });
        if (done.ok) {
          this.compactor.postDivider(c);
          this.scope.out.notice('info', this.compactor.doneNote(done, 'price', verdict), ['undoCompaction'], { conversation: c });
        } else this.scope.out.notice('info', done.message, [], { conversation: c, transient: true });
      }
    }
    return { id: newId(), role: 'user', text, attachments, createdAt: Date.now(), context: contexts, wire };
  }

  #addUser(c: Conversation, user: UserRecord): void {
    const store = this.scope.store();
    if (!c.renamed && (c.messages.length === 0 || c.title === NEW_CHAT_TITLE)) c.title = titleFrom(user.text);
    c.messages.push(user);
    store.changed(c, { touch: true });
    this.scope.out.postFor(c, { type: 'messageAdded', message: messageView(user) });
    this.scope.out.postFor(c, { type: 'conversations', conversations: store.list(), activeId: store.active.id });
  }
}
