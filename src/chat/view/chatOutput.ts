// Everything the chat tells its webview goes through here, in order: text deltas are coalesced
// (see DeltaCoalescer), a message about a conversation is posted only while that conversation
// is on screen, and nothing is posted once the chat is closing.
import * as vscode from 'vscode';
import type { ErrorAction, HostMessage, NoticeTopic } from '../protocol';
import { DeltaCoalescer } from './deltaCoalescer';
import type { Conversation } from '../conversations/conversationTranscript';

export type NoticeLevel = 'info' | 'warning' | 'error';

/** Which conversation a notice belongs to and what it is about (see NoticeTopic in ../protocol). */
export interface NoticeAbout {
  /** default: the conversation on screen; 'panel' for the panel's own ("Code copied") */
  conversation?: Conversation | 'panel';
  topic?: NoticeTopic;
  /** fades after a few seconds (a confirmation, not something to act on) */
  transient?: boolean;
}

export class ChatOutput implements vscode.Disposable {
  readonly #posted = new vscode.EventEmitter<HostMessage>();
  readonly #coalescer = new DeltaCoalescer((m) => this.#posted.fire(m));
  #closed = false;

  /** Every message for the webview, in order (text deltas coalesced). */
  readonly onDidPost: vscode.Event<HostMessage> = this.#posted.event;

  constructor(
    private readonly isActive: (c: Conversation) => boolean,
    /** the id of the conversation on screen, once the history is loaded */
    private readonly activeId: () => string | undefined = () => undefined,
  ) {}

  post(message: HostMessage): void {
    if (this.#closed) return;
    this.#coalescer.post(message);
  }

  /** Posts a message about conversation `c` only while it is the one on screen. */
  postFor(c: Conversation, message: HostMessage): void {
    if (this.isActive(c)) this.post(message);
  }

  /** A streamed piece of answer `messageId` of conversation `c` (coalesced; dropped when off screen). */
  text(c: Conversation, messageId: string, text: string): void {
    if (this.isActive(c)) this.#coalescer.text(messageId, text);
  }

  /** Streamed reasoning of answer `messageId` (coalesced like text; dropped when off screen). */
  thinking(c: Conversation, messageId: string, text: string): void {
    if (this.isActive(c)) this.#coalescer.text(messageId, text, true);
  }

  /** Posts a full snapshot: it already holds every streamed character, so pending deltas are dropped. */
  snapshot(message: HostMessage): void {
    this.#coalescer.discard();
    this.#posted.fire(message);
  }

  /**
   * A notice of the conversation on screen (or `about.conversation`: it is shown whenever that
   * one is); set-up notices (Set API Key, Open Settings) belong to the panel, whatever is on screen.
   */
  notice(level: NoticeLevel, message: string, actions?: ErrorAction[], about: NoticeAbout = {}): void {
    const setup = !!actions?.some((a) => a === 'setKey' || a === 'openSettings');
    const topic = about.topic ?? (setup ? 'setup' : undefined);
    const owner = setup ? 'panel' : about.conversation;
    const conversationId = owner === 'panel' ? undefined : owner ? owner.id : this.activeId();
    this.post({
      type: 'notice',
      level,
      message,
      ...(actions?.length ? { actions } : {}),
      ...(conversationId ? { conversationId } : {}),
      ...(topic ? { topic } : {}),
      ...(about.transient ? { transient: true } : {}),
    });
  }

  /** The condition behind the notices of `topic` is fixed: they leave the panel. */
  resolved(topic: NoticeTopic): void {
    this.post({ type: 'noticeResolved', topic });
  }

  /** Stops posting (the chat is closing); pending deltas are dropped. */
  close(): void {
    this.#closed = true;
    this.#coalescer.dispose();
  }

  get closed(): boolean {
    return this.#closed;
  }

  dispose(): void {
    this.close();
    this.#posted.dispose();
  }
}
