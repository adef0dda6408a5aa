// The input area: the Message box, attachment chips and buttons, the model/channel button, the
// context meter (contextMeter.ts), Send and Stop. The draft is saved to webview state at once and to the host
// (debounced) so nothing typed is lost when the view is hidden, reloaded or restarted.
import type { ComposerState, WebviewMessage } from '../chat/protocol';
import { ContextMeter } from './contextMeter';
import { clear, h, isElement } from './dom';
import { icon } from './icons';
import { l10n } from './panelL10n';
import { attachmentChip } from './messageViews';
import { ModelChip } from './modelChip';
import { ToolPicker } from './toolPicker';

export interface ComposerCallbacks {
  post(message: WebviewMessage): void;
  saveDraft(draft: string): void;
  /** a notice that comes from the panel itself (e.g. why an image cannot be attached) */
  notice(level: 'info' | 'warning' | 'error', message: string, actions?: 'pickModel'[]): void;
}

const PASTE_MIMES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
type PasteMime = (typeof PASTE_MIMES)[number];
/** the protocol caps pasted images at ~20 MB of base64 */
const MAX_PASTE_BYTES = 20 * 1024 * 1024;

export class Composer {
  readonly element: HTMLElement;
  readonly input: HTMLTextAreaElement;
  readonly sendButton: HTMLButtonElement;
  readonly stopButton: HTMLButtonElement;
  private readonly attachImageButton: HTMLButtonElement;
  private readonly attachSelectionButton: HTMLButtonElement;
  private readonly attachFileButton: HTMLButtonElement;
  private readonly attachProblemsButton: HTMLButtonElement;
  private readonly chips: HTMLElement;
  private readonly modelChip: ModelChip;
  private readonly modelButton: HTMLButtonElement;
  private readonly meter: ContextMeter;
  private readonly hint: HTMLElement;
  private readonly editBanner: HTMLElement;
  private readonly status: HTMLElement;
  /** the tools from VS Code the user may switch on for the conversation */
  readonly toolPicker: ToolPicker;
  private state: ComposerState | undefined;
  private busy = false;
  private ready = false;
  /** the user typed before the first snapshot (see takeTypedBeforeReady) */
  private typedBeforeReady = false;
  private draftTimer: number | undefined;
  private lastPostedDraft: string | undefined;
  /** set while the user edits an earlier message; the normal draft is kept aside meanwhile */
  private editing: { messageId: string; stashedDraft: string } | undefined;
  private readonly win: Window;

  constructor(
    private readonly doc: Document,
    private readonly callbacks: ComposerCallbacks,
    private readonly draftDebounceMs = 300,
  ) {
    this.win = doc.defaultView!;
    const button = (cls: string, label: string, title: string, iconName: Parameters<typeof icon>[1], onClick: () => void, text?: string) =>
      h(doc, 'button', { className: cls, attrs: { type: 'button', 'aria-label': label, title }, on: { click: onClick } }, [
        icon(doc, iconName),
        text !== undefined && h(doc, 'span', { text }),
      ]);

    this.input = h(doc, 'textarea', {
      className: 'message-input',
      attrs: {
        'aria-label': l10n.t('Message'),
        rows: 2,
        placeholder: l10n.t('Ask about your code (Enter to send, Shift+Enter for a new line)'),
        spellcheck: 'true',
      },
      on: {
        keydown: (e) => this.onKeyDown(e),
        input: () => this.onInput(),
        paste: (e) => this.onPaste(e),
      },
    });
    this.sendButton = button('send-button primary', l10n.t('Send'), l10n.t('Send (Enter)'), 'send', () => this.send(), l10n.t('Send'));
    this.stopButton = button('stop-button', l10n.t('Stop'), l10n.t('Stop the answer (Escape)'), 'stop', () => this.stop(), l10n.t('Stop'));
    this.stopButton.hidden = true;
    this.attachSelectionButton = button('icon-button', l10n.t('Attach selection'), l10n.t('Attach the editor selection'), 'selection', () =>
      this.post({ type: 'attachSelection' }),
    );
    this.attachFileButton = button('icon-button', l10n.t('Attach file'), l10n.t('Attach a file'), 'file', () => this.post({ type: 'attachFile' }));
    this.attachImageButton = button('icon-button', l10n.t('Attach image'), l10n.t('Attach an image'), 'image', () => this.attachImage());
    this.attachProblemsButton = button(
      'icon-button',
      l10n.t('Attach problems'),
      l10n.t("Attach the current file's problems (or the workspace's errors)"),
      'problems',
      () => this.post({ type: 'attachDiagnostics' }),
    );
    this.chips = h(doc, 'div', { className: 'chips composer-attachments', attrs: { role: 'list', 'aria-label': l10n.t('Attachments') } });
    this.modelChip = new ModelChip(doc, () => this.post({ type: 'action', action: 'pickModel' }));
    this.modelButton = this.modelChip.element;
    this.meter = new ContextMeter(doc);
    this.hint = h(doc, 'div', { className: 'composer-hint' });
    this.hint.hidden = true;
    this.editBanner = h(doc, 'div', { className: 'edit-banner', attrs: { role: 'status' } }, [
      h(doc, 'span', { text: l10n.t('Editing an earlier message: sending replaces it and everything after it.') }),
      h(doc, 'button', { className: 'link-button', text: l10n.t('Cancel edit'), attrs: { type: 'button' }, on: { click: () => this.cancelEdit() } }),
    ]);
    this.editBanner.hidden = true;
    this.toolPicker = new ToolPicker(doc, (m) => this.post(m));

    this.element = h(doc, 'div', { className: 'composer' }, [
      this.editBanner,
      this.chips,
      h(doc, 'div', { className: 'input-frame' }, [this.input]),
      h(doc, 'div', { className: 'composer-bar' }, [
        h(doc, 'div', { className: 'attach-buttons' }, [this.attachSelectionButton, this.attachFileButton, this.attachProblemsButton, this.attachImageButton]),
        this.modelButton,
        h(doc, 'div', { className: 'send-buttons' }, [this.stopButton, this.sendButton]),
      ]),
      // the tool picker shares the context meter's row while closed (a row less under the message box,
      // which three notices and the composer share with the conversation at 290 px); open, it wraps to its own
      (this.status = h(doc, 'div', { className: 'composer-status' }, [this.meter.element, this.toolPicker.element, this.hint])),
    ]);
    this.chips.addEventListener('click', (e) => {
      const remove = isElement(e.target) ? e.target.closest('[data-remove-attachment]') : null;
      if (remove) this.post({ type: 'removeAttachment', attachmentId: remove.getAttribute('data-remove-attachment')! });
      const rules = isElement(e.target) ? e.target.closest('[data-toggle-rules]') : null;
      if (rules) this.post({ type: 'toggleRules', path: rules.getAttribute('data-toggle-rules')! });
    });
    this.refresh();
  }

  /** Adds an item at the end of the row under the message box (and, below it, what it expands). */
  addStatus(item: HTMLElement, expanded?: HTMLElement): void {
    this.status.append(item);
    if (expanded) this.element.append(expanded);
  }

  get isEditing(): boolean {
    return this.editing !== undefined;
  }

  get editingMessageId(): string | undefined {
    return this.editing?.messageId;
  }

  /** The snapshot arrived: the panel may send from now on. */
  setReady(ready: boolean): void {
    this.ready = ready;
    this.refresh();
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.refresh();
  }

  setState(state: ComposerState): void {
    this.state = state;
    clear(this.chips);
    for (const r of state.rules ?? []) this.chips.appendChild(rulesChip(this.doc, r));
    for (const a of state.attachments) this.chips.appendChild(attachmentChip(this.doc, a, true));
    this.chips.hidden = state.attachments.length === 0 && !state.rules?.length;
    // at the default side-bar width the channel's word gives way to its icon, then the name is elided in the middle
    this.modelChip.set(state.model, state.channel, state.reasoningEffort);
    this.meter.render(state);
    this.toolPicker.setTools(state.vscodeTools);
    const hints: string[] = [];
    if (state.toolsDisabledReason) hints.push(state.toolsDisabledReason); // a whole sentence from the host (turnContext.ts)
    this.hint.textContent = hints.join(' ');
    this.hint.hidden = hints.length === 0;
    this.refresh();
  }

  /** Replaces the text (a restored draft, or a message that failed to send). */
  setDraft(text: string, options: { notifyHost?: boolean } = {}): void {
    this.input.value = text;
    this.callbacks.saveDraft(this.editing ? this.editing.stashedDraft : text);
    if (options.notifyHost) this.scheduleDraftPost();
  }

  /** What the host has stored as the draft, so an unchanged draft is not posted back. */
  noteHostDraft(text: string): void {
    this.lastPostedDraft = text;
  }

  get draft(): string {
    return this.editing ? this.editing.stashedDraft : this.input.value;
  }

  focus(): void {
    this.input.focus();
  }

  /** Puts an earlier message into the box; Send then posts editAndResend for it. */
  startEdit(messageId: string, text: string): void {
    const stashedDraft = this.editing ? this.editing.stashedDraft : this.input.value;
    this.flushDraft();
    this.editing = { messageId, stashedDraft };
    this.input.value = text;
    this.editBanner.hidden = false;
    this.element.classList.add('editing');
    this.focus();
    this.input.setSelectionRange(text.length, text.length);
    this.onEditChanged?.(messageId);
  }

  cancelEdit(): void {
    if (!this.editing) return;
    const { stashedDraft } = this.editing;
    this.editing = undefined;
    this.input.value = stashedDraft;
    this.editBanner.hidden = true;
    this.element.classList.remove('editing');
    this.onEditChanged?.(undefined);
  }

  /** the transcript highlights the message being edited */
  onEditChanged?: (messageId: string | undefined) => void;

  /**
   * The text typed since the last draft post, which the host has not been given yet (undefined
   * when there is none, or while an earlier message is being edited); the post is cancelled.
   */
  takeUnpostedDraft(): string | undefined {
    if (this.editing || !this.cancelDraftPost()) return undefined;
    return this.input.value === this.lastPostedDraft ? undefined : this.input.value;
  }

  /**
   * The box's text when the user typed before the first snapshot (the box shows at once; a busy
   * host answers later), else undefined; the pending draft post is cancelled.
   */
  takeTypedBeforeReady(): string | undefined {
    if (!this.typedBeforeReady) return undefined;
    this.typedBeforeReady = false;
    this.cancelDraftPost();
    return this.input.value;
  }

  /** Sends any pending draft to the host now (before switching conversation). */
  flushDraft(): void {
    if (this.cancelDraftPost()) this.postDraft();
  }

  send(): void {
    if (!this.ready || this.busy) return;
    const text = this.input.value;
    if (!text.trim()) return;
    if (this.editing) {
      this.post({ type: 'editAndResend', messageId: this.editing.messageId, text });
      this.cancelEdit();
      return;
    }
    this.post({ type: 'send', text });
    this.input.value = '';
    this.cancelDraftPost();
    this.callbacks.saveDraft('');
    this.lastPostedDraft = '';
    this.post({ type: 'draft', text: '' });
  }

  stop(): void {
    if (this.busy) this.post({ type: 'stop' });
  }

  // ---------------------------------------------------------------------------------------

  private post(message: WebviewMessage): void {
    this.callbacks.post(message);
  }

  private refresh(): void {
    const busy = this.busy;
    this.sendButton.disabled = !this.ready || busy;
    // Stop takes Send's place while an answer runs (Send cannot send then): at 290 px the model
    // chip keeps the room of the button that is gone, and its name reads whole
    if (busy && this.doc.activeElement === this.sendButton) this.input.focus();
    this.sendButton.hidden = busy;
    this.stopButton.hidden = !busy;
    this.stopButton.disabled = !busy;
    this.element.classList.toggle('busy', busy);
    const imageOk = this.state?.imageInput === true;
    const why = this.imageUnsupportedReason();
    this.attachImageButton.setAttribute('aria-disabled', String(!imageOk));
    this.attachImageButton.title = imageOk ? l10n.t('Attach an image') : why;
    this.attachSelectionButton.disabled = !this.ready;
    this.attachFileButton.disabled = !this.ready;
    this.attachProblemsButton.disabled = !this.ready;
    this.modelButton.hidden = !this.state;
  }

  private imageUnsupportedReason(): string {
    const model = this.state?.model;
    return model ? l10n.t('Image input is not supported by {0}. Pick a model that accepts images.', model) : l10n.t('Image input is not available yet.');
  }

  private attachImage(): void {
    if (this.state?.imageInput !== true) {
      this.callbacks.notice('warning', this.imageUnsupportedReason(), ['pickModel']);
      return;
    }
    this.post({ type: 'attachImage' });
  }

  private onKeyDown(e: KeyboardEvent): void {
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      this.send();
    }
  }

  private onInput(): void {
    if (this.editing) return;
    if (!this.ready) this.typedBeforeReady = true;
    this.callbacks.saveDraft(this.input.value);
    this.scheduleDraftPost();
  }

  /** Cancels the debounced draft post; whether one was pending. */
  private cancelDraftPost(): boolean {
    if (this.draftTimer === undefined) return false;
    this.win.clearTimeout(this.draftTimer);
    this.draftTimer = undefined;
    return true;
  }

  private scheduleDraftPost(): void {
    this.cancelDraftPost();
    this.draftTimer = this.win.setTimeout(() => {
      this.draftTimer = undefined;
      this.postDraft();
    }, this.draftDebounceMs);
  }

  private postDraft(): void {
    const text = this.draft;
    if (text === this.lastPostedDraft) return;
    this.lastPostedDraft = text;
    this.post({ type: 'draft', text });
  }

  private onPaste(e: ClipboardEvent): void {
    const items = e.clipboardData ? Array.from(e.clipboardData.items) : [];
    const image = items.find((i) => i.kind === 'file' && i.type.startsWith('image/'));
    if (!image) return;
    e.preventDefault();
    if (this.state?.imageInput !== true) {
      this.callbacks.notice('warning', this.imageUnsupportedReason(), ['pickModel']);
      return;
    }
    if (!(PASTE_MIMES as readonly string[]).includes(image.type)) {
      this.callbacks.notice('warning', l10n.t('Images of type {0} cannot be attached; use PNG, JPEG, WebP or GIF.', image.type));
      return;
    }
    const file = image.getAsFile();
    if (!file) return;
    if (file.size > MAX_PASTE_BYTES) {
      this.callbacks.notice('warning', l10n.t('The pasted image is larger than 20 MB.'));
      return;
    }
    const reader = new (this.win as unknown as { FileReader: typeof FileReader }).FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      const base64 = url.slice(url.indexOf(',') + 1);
      if (base64) this.post({ type: 'pasteImage', mime: image.type as PasteMime, base64, ...(file.name ? { name: file.name.slice(0, 200) } : {}) });
    };
    reader.readAsDataURL(file);
  }
}

/**
 * A rules file in use (AGENTS.md, .github/copilot-instructions.md): a chip whose button switches it
 * off or on for this conversation (aria-pressed says which).
 */
export function rulesChip(doc: Document, rule: { path: string; on: boolean }): HTMLElement {
  return h(doc, 'span', { className: `chip chip-rules${rule.on ? '' : ' chip-off'}`, attrs: { role: 'listitem', title: rule.path } }, [
    icon(doc, 'file'),
    h(doc, 'button', {
      className: 'chip-toggle',
      text: rule.path,
      attrs: {
        type: 'button',
        'aria-pressed': String(rule.on),
        'aria-label': rule.on
          ? l10n.t('Rules file {0}: on (switch off for this conversation)', rule.path)
          : l10n.t('Rules file {0}: off (switch on for this conversation)', rule.path),
        'data-toggle-rules': rule.path,
      },
    }),
  ]);
}
