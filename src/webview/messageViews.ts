// The two kinds of transcript entries. Each is an <article> named "You" or "Assistant" (tests
// and screen readers find messages by that name). Buttons carry data-* attributes and are
// handled by the transcript's delegated listener.
import type { AssistantPart, AttachmentView, ErrorAction, ErrorView, MessageStatus, MessageView, ShownImage, ToolCallView, UsageView } from '../chat/protocol';
import { endsInOpenFence, plainSegmentOffsets, PLAIN_SEGMENT_CHARS } from './codeBlock';
import { clear, h } from './dom';
import { formatUsageLine } from './format';
import { icon } from './icons';
import { ImageGallery } from './imageGallery';
import { l10n } from './panelL10n';
import { ReasoningBlock } from './reasoningView';
import { StreamingMarkdown, type StreamingMarkdownOptions } from './streamingMarkdown';
import { ToolCallElement } from './toolCallView';

type UserMessage = Extract<MessageView, { role: 'user' }>;
type AssistantMessage = Extract<MessageView, { role: 'assistant' }>;

export const ACTION_LABELS: Record<ErrorAction, string> = {
  setKey: l10n.t('Set API key'),
  topUp: l10n.t('Top up balance'),
  switchChannel: l10n.t('Switch channel'),
  pickModel: l10n.t('Pick model'),
  retry: l10n.t('Retry'),
  openSettings: l10n.t('Open settings'),
  showLog: l10n.t('Show log'),
  newChat: l10n.t('New chat'),
  compactRetry: l10n.t('Compact and retry'),
  undoCompaction: l10n.t('Undo compaction'),
};

export function actionButton(doc: Document, action: ErrorAction): HTMLButtonElement {
  return h(doc, 'button', { className: 'action-button', text: ACTION_LABELS[action] ?? action, attrs: { type: 'button', 'data-action': action } });
}

export function attachmentChip(doc: Document, a: AttachmentView, removable: boolean): HTMLElement {
  const thumb =
    a.kind === 'image' && typeof a.thumbnail === 'string' && /^data:image\/(png|jpeg|webp|gif);base64,/i.test(a.thumbnail)
      ? h(doc, 'img', { className: 'chip-thumb', attrs: { src: a.thumbnail, alt: '' } })
      : icon(doc, a.kind === 'image' ? 'image' : a.kind === 'selection' ? 'selection' : a.kind === 'diagnostics' ? 'problems' : 'file');
  return h(doc, 'span', { className: `chip chip-${a.kind}`, attrs: { role: 'listitem', title: a.label } }, [
    thumb,
    h(doc, 'span', { className: 'chip-label', text: a.label }),
    removable &&
      h(
        doc,
        'button',
        {
          className: 'chip-remove icon-button',
          attrs: { type: 'button', 'aria-label': l10n.t('Remove attachment {0}', a.label), title: l10n.t('Remove'), 'data-remove-attachment': a.id },
        },
        [icon(doc, 'close')],
      ),
  ]);
}

/**
 * The user's own text, exactly as typed. A long one is built in segments (as plain blocks are,
 * see PLAIN_SEGMENT_CHARS) that the browser lays out only when on screen: a 172 KB message was one
 * 66 to 185 ms layout right after Send.
 */
export function userText(doc: Document, text: string): HTMLElement {
  if (text.length <= PLAIN_SEGMENT_CHARS) return h(doc, 'div', { className: 'message-text', text });
  const cuts = plainSegmentOffsets(text);
  const segments: HTMLElement[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) segments.push(h(doc, 'span', { className: 'text-segment', text: text.slice(cuts[i], cuts[i + 1]) }));
  return h(doc, 'div', { className: 'message-text' }, segments);
}

export class UserMessageElement {
  readonly element: HTMLElement;
  readonly editButton: HTMLButtonElement;

  constructor(
    doc: Document,
    readonly message: UserMessage,
  ) {
    this.editButton = h(
      doc,
      'button',
      {
        className: 'icon-button message-edit',
        attrs: { type: 'button', 'aria-label': l10n.t('Edit'), title: l10n.t('Edit and resend from here'), 'data-edit-message': message.id },
      },
      [icon(doc, 'edit')],
    );
    this.element = h(doc, 'article', { className: 'message message-user', attrs: { 'aria-label': l10n.t('You'), 'data-message-id': message.id } }, [
      h(doc, 'div', { className: 'message-header' }, [h(doc, 'span', { className: 'message-author', text: l10n.t('You') }), this.editButton]),
      message.attachments.length > 0 &&
        h(
          doc,
          'div',
          { className: 'chips message-attachments', attrs: { role: 'list', 'aria-label': l10n.t('Attached context') } },
          message.attachments.map((a) => attachmentChip(doc, a, false)),
        ),
      userText(doc, message.text),
    ]);
  }

  setBusy(busy: boolean): void {
    this.editButton.disabled = busy;
  }
}

export class AssistantMessageElement {
  readonly element: HTMLElement;
  status: MessageStatus;
  private readonly body: HTMLElement;
  private readonly footer: HTMLElement;
  private readonly thinking: HTMLElement;
  private readonly regenerate: HTMLButtonElement;
  private text: StreamingMarkdown | null = null;
  /** the last text part, when nothing came after it (its source and element): an answer cut off inside a code block */
  private tail: { source: string; element: HTMLElement } | null = null;
  /** the Thinking block of the current round while the model reasons */
  private reasoning: ReasoningBlock | null = null;
  private readonly tools = new Map<string, ToolCallElement>();
  private readonly galleries = new Map<string, ImageGallery>();
  private usage?: UsageView;
  private error?: ErrorView;
  private canRegenerate = false;

  constructor(
    private readonly doc: Document,
    private readonly message: AssistantMessage,
    private readonly markdownOptions: StreamingMarkdownOptions = {},
    /** the images the host already resolved for a part of this answer (a message rendered after they arrived) */
    private readonly shownImages: (partId: string) => readonly ShownImage[] | undefined = () => undefined,
  ) {
    this.status = message.status;
    this.usage = message.usage;
    this.error = message.error;
    this.body = h(doc, 'div', { className: 'message-body' });
    this.footer = h(doc, 'div', { className: 'message-footer' });
    this.thinking = h(doc, 'div', { className: 'thinking', attrs: { 'aria-hidden': 'true' } }, [h(doc, 'span'), h(doc, 'span'), h(doc, 'span')]);
    this.regenerate = h(
      doc,
      'button',
      {
        className: 'message-regenerate',
        attrs: { type: 'button', 'aria-label': l10n.t('Regenerate'), title: l10n.t('Answer again'), 'data-regenerate': message.id },
      },
      [icon(doc, 'regenerate'), h(doc, 'span', { text: l10n.t('Regenerate') })],
    );
    const meta = [message.model, message.channel].filter(Boolean).join(' · ');
    this.element = h(doc, 'article', { className: 'message message-assistant', attrs: { 'aria-label': l10n.t('Assistant'), 'data-message-id': message.id } }, [
      h(doc, 'div', { className: 'message-header' }, [
        h(doc, 'span', { className: 'message-author', text: l10n.t('Assistant') }),
        meta && h(doc, 'span', { className: 'message-meta', text: meta }),
      ]),
      this.body,
      this.thinking,
      this.footer,
    ]);
    const parts = message.parts;
    parts.forEach((p, i) => this.addPart(p, message.status === 'streaming' && i === parts.length - 1));
    this.render();
  }

  get id(): string {
    return this.message.id;
  }

  get isStreaming(): boolean {
    return this.status === 'streaming';
  }

  /** Buffers streamed reasoning (into this round's Thinking block); returns the renderer that needs a flush. */
  appendThinking(text: string): StreamingMarkdown | null {
    if (!this.isStreaming) return null;
    if (!this.reasoning) {
      this.closeText();
      this.reasoning = new ReasoningBlock(this.doc, '', this.markdownOptions);
      this.body.appendChild(this.reasoning.element);
      this.tail = null;
    }
    this.thinking.hidden = true;
    return this.reasoning.append(text);
  }

  /** The round's thinking ended after `ms`: its block collapses. */
  endThinking(ms?: number): void {
    this.reasoning?.end(ms);
    this.reasoning = null;
  }

  /** Buffers streamed text; returns the renderer that needs a flush. */
  appendText(text: string): StreamingMarkdown | null {
    if (!this.isStreaming) return null;
    this.endThinking();
    if (!this.text) this.text = this.newTextPart();
    this.text.append(text);
    if (this.tail) this.tail.source += text;
    this.thinking.hidden = true;
    return this.text;
  }

  upsertToolCall(call: ToolCallView): void {
    const existing = this.tools.get(call.id);
    if (existing) {
      existing.update(call);
      return;
    }
    this.endThinking();
    this.closeText();
    this.tail = null;
    const el = new ToolCallElement(this.doc, call);
    this.tools.set(call.id, el);
    this.body.appendChild(el.element);
    this.thinking.hidden = true;
  }

  /** Shows the images of part `partId` as the host resolved them; a part not shown yet goes at the end of the answer. */
  showImages(partId: string, images: readonly ShownImage[]): void {
    const gallery = this.galleries.get(partId);
    if (gallery) {
      gallery.show(images);
      return;
    }
    this.addGallery(new ImageGallery(this.doc, { id: partId, paths: images.map((i) => i.path) }, images));
  }

  private addGallery(gallery: ImageGallery): void {
    this.endThinking();
    this.closeText();
    this.tail = null;
    this.galleries.set(gallery.part.id, gallery);
    this.body.appendChild(gallery.element);
    this.thinking.hidden = true;
  }

  /** Puts a card (an approval question) at the current end of the answer. */
  addCard(card: HTMLElement): void {
    this.endThinking();
    this.closeText();
    this.body.appendChild(card);
    this.thinking.hidden = true;
  }

  flush(): boolean {
    const thought = this.reasoning ? this.reasoning.flush() : false;
    return (this.text ? this.text.flush() : false) || thought;
  }

  finish(status: MessageStatus, usage?: UsageView, error?: ErrorView, channel?: string): void {
    this.reasoning?.flush();
    this.endThinking();
    this.closeText();
    this.status = status;
    // after a failover the answer names the channel that served it
    if (channel && channel !== this.message.channel) {
      this.message.channel = channel;
      const meta = this.element.querySelector('.message-meta');
      if (meta) meta.textContent = [this.message.model, channel].filter(Boolean).join(' · ');
    }
    if (usage) this.usage = usage;
    if (error) this.error = error;
    this.render();
  }

  setCanRegenerate(can: boolean): void {
    if (this.canRegenerate === can) {
      this.regenerate.hidden = !can || this.isStreaming || this.retryShown();
      return;
    }
    this.canRegenerate = can;
    this.render(); // an error card's Retry depends on it
  }

  /**
   * An error card offers Retry or Regenerate, never both (they do the same thing): Retry when the
   * error suggests it and this is the answer that would be replaced (the last one); an older
   * error card offers no Retry at all, since retrying answers the last message, not this one.
   */
  private errorActions(): ErrorAction[] {
    const err = this.error ?? { message: '', actions: ['retry'] as ErrorAction[] };
    return err.actions.filter((a) => a !== 'retry' || this.canRegenerate);
  }

  private retryShown(): boolean {
    return this.status === 'error' && this.errorActions().includes('retry');
  }

  // ---------------------------------------------------------------------------------------

  private addPart(part: AssistantPart, streaming: boolean): void {
    if (part.kind === 'tool') {
      this.upsertToolCall(part.call);
      return;
    }
    if (part.kind === 'images') {
      if (!this.galleries.has(part.id)) this.addGallery(new ImageGallery(this.doc, part, this.shownImages(part.id)));
      return;
    }
    if (part.kind === 'thinking') {
      this.closeText();
      // still thinking when the snapshot was taken: a live block (its clock starts now)
      const live = streaming && part.ms === undefined;
      const block = new ReasoningBlock(this.doc, part.text, this.markdownOptions, live ? undefined : { ms: part.ms });
      this.body.appendChild(block.element);
      this.tail = null;
      if (live) this.reasoning = block;
      return;
    }
    if (streaming) {
      this.text = this.newTextPart();
      this.text.append(part.text);
      this.tail!.source = part.text;
      this.text.flush();
    } else {
      this.closeText();
      const element = StreamingMarkdown.render(this.doc, part.text, this.markdownOptions).element;
      this.body.appendChild(element);
      this.tail = { source: part.text, element };
    }
  }

  private newTextPart(): StreamingMarkdown {
    const r = new StreamingMarkdown(this.doc, this.markdownOptions);
    this.body.appendChild(r.element);
    this.tail = { source: '', element: r.element };
    return r;
  }

  private closeText(): void {
    this.text?.finish();
    this.text = null;
  }

  /**
   * An answer that ended before its last code block was closed (stopped, failed, interrupted):
   * that block is not the whole proposal, so it offers no Apply (Copy and Insert stay).
   */
  private markCutBlock(): void {
    if (this.status === 'done' || !this.tail || !endsInOpenFence(this.tail.source)) return;
    const blocks = this.tail.element.querySelectorAll('.code-block');
    const last = blocks[blocks.length - 1];
    if (!last || last.classList.contains('code-cut')) return;
    last.classList.add('code-cut');
    last.setAttribute('data-cut', '');
    const apply = last.querySelector<HTMLElement>('[data-code-action="apply"]');
    if (apply) apply.hidden = true;
    const lang = last.querySelector('.code-lang');
    lang?.after(h(this.doc, 'span', { className: 'code-cut-note', text: l10n.t('cut off') }));
  }

  private render(): void {
    const doc = this.doc;
    const streaming = this.isStreaming;
    this.element.setAttribute('aria-busy', String(streaming));
    this.element.classList.toggle('streaming', streaming);
    this.thinking.hidden = !streaming || this.body.childNodes.length > 0;
    clear(this.footer);
    if (streaming) return;
    this.markCutBlock();
    if (this.status === 'stopped') {
      this.footer.appendChild(h(doc, 'div', { className: 'message-status status-stopped', text: l10n.t('Stopped') }));
    } else if (this.status === 'interrupted') {
      this.footer.appendChild(
        h(doc, 'div', {
          className: 'message-status status-interrupted',
          text: l10n.t('Interrupted: the answer was cut off (the window was reloaded or closed).'),
        }),
      );
    } else if (this.status === 'error') {
      const err = this.error ?? { message: l10n.t('The request failed.'), actions: ['retry'] as ErrorAction[] };
      const actions = this.errorActions();
      this.footer.appendChild(
        h(doc, 'div', { className: 'message-error', attrs: { role: 'alert' } }, [
          icon(doc, 'alert'),
          h(doc, 'div', { className: 'message-error-body' }, [
            h(doc, 'div', { className: 'message-error-text', text: err.message }),
            actions.length > 0 &&
              h(
                doc,
                'div',
                { className: 'action-row' },
                actions.map((a) => actionButton(doc, a)),
              ),
          ]),
        ]),
      );
    }
    const usageLine = formatUsageLine(this.usage, this.message.model, this.message.channel, this.status);
    const row = h(doc, 'div', { className: 'message-usage-row' }, [
      usageLine && h(doc, 'div', { className: 'message-usage', text: usageLine }),
      this.regenerate,
    ]);
    this.regenerate.hidden = !this.canRegenerate || this.retryShown();
    this.footer.appendChild(row);
  }
}
