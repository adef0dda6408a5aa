// The webview view `modelgate.chat`. It holds no state of its own: the controller owns the
// transcript, and a webview that was hidden (and so destroyed: no retainContextWhenHidden) or
// reloaded sends `ready` and gets a fresh snapshot. Until then, nothing is posted to it.
// Images a tool saved (chatImages.ts) are resolved here, where the webview is: the view may load
// only the extension's dist and media folders, plus the folders of the images of the conversation
// on screen, added when they are needed. Changing the roots reloads the page (VS Code sets its
// content again), which then says `ready` and gets a snapshot that shows them.
import * as vscode from 'vscode';
import { imagesMessageSchema, parseWebviewMessage, webviewMessageSchema, type HostMessage, type ImagesPart, type WebviewMessage } from '../protocol';
import type { Log } from '../../services/log';
import { makeNonce } from '../../core/webviewShell';
import { buildChatHtml } from './chatHtml';
import { ChatImages, hasAll, unionOf, type ResolvedImages } from './chatImages';
import { errorText } from '../../core/errorText';

export { CHAT_VIEW_ID } from '../../shared/featureIds';

/** The message types the webview may send: the only type names that may appear in the log. */
const KNOWN_TYPES: ReadonlySet<string> = new Set(webviewMessageSchema.options.map((o) => o.shape.type.value));

/** What the view needs of the chat's controller (ChatController has it; ChatApi.reload hands in a new one). */
export interface ChatViewController {
  readonly onDidPost: vscode.Event<HostMessage>;
  postSnapshot(): Promise<void>;
  handle(msg: WebviewMessage): Promise<void>;
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  /** the webview has said `ready` since it was last (re)created */
  private ready = false;
  /** the page holds the keyboard focus, as it last said (with `ready`, then on each change) */
  private focused = false;
  private controller: ChatViewController;
  private controllerSubscription: vscode.Disposable;
  private readonly viewSubscriptions: vscode.Disposable[] = [];
  /** called once when the webview next says `ready` */
  private readyWaiters: Array<() => void> = [];
  private readonly images = new ChatImages();
  /** the image folders the view may load from now (beside dist and media) */
  private imageRoots: vscode.Uri[] = [];
  /** bumped by every snapshot and every change of the roots: image lookups begun before are dropped */
  private epoch = 0;
  readonly #delivered = new vscode.EventEmitter<HostMessage>();
  /** Every message posted to the webview, as posted (tests read the `images` messages here). */
  readonly onDidDeliver: vscode.Event<HostMessage> = this.#delivered.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    controller: ChatViewController,
    private readonly log: Log,
  ) {
    this.controller = controller;
    this.controllerSubscription = controller.onDidPost((m) => this.deliver(m));
  }

  /** Switches to another controller (after ChatApi.reload) and refreshes the view from it. */
  setController(controller: ChatViewController): void {
    this.controllerSubscription.dispose();
    this.controller = controller;
    this.controllerSubscription = controller.onDidPost((m) => this.deliver(m));
    if (this.view && this.ready) void controller.postSnapshot();
  }

  /**
   * Whether the loaded page holds the keyboard focus, as it last said: with `ready`, and again each
   * time it takes or loses the focus (the workbench can give it the keyboard after `ready`).
   */
  get pageHasFocus(): boolean {
    return this.ready && this.focused;
  }

  /** Whether the webview is loaded and has said `ready` (a cold view has not, yet). */
  get isReady(): boolean {
    return !!this.view && this.ready;
  }

  /** Resolves when the webview has said `ready`, or after `timeoutMs` (false then). */
  whenReady(timeoutMs: number): Promise<boolean> {
    if (this.isReady) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.readyWaiters = this.readyWaiters.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.readyWaiters.push(done);
    });
  }

  get isVisible(): boolean {
    return !!this.view?.visible;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    for (const d of this.viewSubscriptions.splice(0)) d.dispose();
    this.view = view;
    this.ready = false;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = this.options();
    view.webview.html = buildChatHtml({
      cspSource: view.webview.cspSource,
      nonce: makeNonce(),
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.css')).toString(),
      l10nBundle: vscode.l10n.bundle,
    });
    this.viewSubscriptions.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      // Hidden = destroyed: wait for its next `ready` before posting again.
      view.onDidChangeVisibility(() => {
        if (!view.visible) this.ready = false;
      }),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
        this.ready = false;
        for (const d of this.viewSubscriptions.splice(0)) d.dispose();
      }),
    );
  }

  /** Everything the webview sends comes through here (public so the tests can take the same path). */
  receive(raw: unknown): void {
    const msg = parseWebviewMessage(raw);
    if (!msg) {
      // Never log the content: it can hold code or pasted secrets. Not even an unknown type
      // name: it is text from the page (a canary, a forged log line after a newline).
      const claimed = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
      const type = typeof claimed === 'string' && KNOWN_TYPES.has(claimed) ? claimed : raw && typeof raw === 'object' ? 'unknown' : typeof raw;
      this.log.warn(`Chat view sent a message that is not valid (type ${type}); ignored.`);
      return;
    }
    if (msg.type === 'ready') {
      this.ready = true;
      this.focused = msg.hasFocus === true;
    }
    if (msg.type === 'keyboardFocus') {
      this.focused = msg.hasFocus;
      return;
    }
    if (msg.type === 'openImage') {
      void this.images.open(msg.openId).catch((err: unknown) => this.log.warn(`Chat: could not open an image: ${errorText(err)}`));
      return;
    }
    const handled = this.controller.handle(msg);
    // After the snapshot went out, so a waiter's next message reaches a page that has it.
    if (msg.type === 'ready') void handled.catch(() => undefined).then(() => this.readyWaiters.splice(0).forEach((w) => w()));
  }

  /**
   * What the view was given, for the CSP tests: its HTML and options (undefined until resolved);
   * the roots include the image folders of the conversation on screen when it shows images.
   */
  get served(): { html: string; options: vscode.WebviewOptions } | undefined {
    return this.view && { html: this.view.webview.html, options: this.view.webview.options };
  }

  private deliver(message: HostMessage): void {
    if (!this.view || !this.ready) return;
    if (message.type === 'images') {
      const paths = message.images.map((i) => i.path);
      void this.showImages([{ messageId: message.messageId, part: { kind: 'images', id: message.partId, paths } }], false);
      return;
    }
    this.post(message);
    if (message.type === 'snapshot') {
      this.epoch++;
      const parts = message.conversation.messages.flatMap((m) =>
        m.role === 'assistant' ? m.parts.flatMap((p) => (p.kind === 'images' ? [{ messageId: m.id, part: p }] : [])) : [],
      );
      void this.showImages(parts, true);
    }
  }

  private post(message: HostMessage): void {
    void this.view!.webview.postMessage(message);
    this.#delivered.fire(message);
  }

  /** The view's options: scripts, and the folders it may load from. */
  private options(): vscode.WebviewOptions {
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    return { enableScripts: true, localResourceRoots: [dist, media, ...this.imageRoots] };
  }

  /**
   * Resolves image parts and posts them. A snapshot's parts set the image folders to exactly what
   * its conversation shows (fewer when it shows fewer); an answer's new images only add theirs.
   * When the folders change, the page reloads and the snapshot after its `ready` shows them.
   */
  private async showImages(parts: Array<{ messageId: string; part: ImagesPart }>, snapshot: boolean): Promise<void> {
    const view = this.view;
    if (!view) return;
    const epoch = this.epoch;
    let resolved: ResolvedImages[];
    try {
      resolved = await Promise.all(parts.map((p) => this.images.resolve(view.webview, p.part.paths)));
    } catch (err) {
      this.log.warn(`Chat: could not look up the images to show: ${errorText(err)}`);
      return;
    }
    if (this.view !== view || !this.ready || epoch !== this.epoch) return;
    const needed = unionOf(
      [],
      resolved.flatMap((r) => r.folders),
    );
    const roots = snapshot ? needed : unionOf(this.imageRoots, needed);
    if (!hasAll(this.imageRoots, roots) || !hasAll(roots, this.imageRoots)) {
      this.imageRoots = roots;
      this.epoch++;
      this.ready = false; // the page reloads with the new roots and says `ready` again
      view.webview.options = this.options();
      return;
    }
    parts.forEach((p, i) => {
      const checked = imagesMessageSchema.safeParse({ type: 'images', messageId: p.messageId, partId: p.part.id, images: resolved[i]!.images });
      if (checked.success) this.post(checked.data);
      else this.log.warn('Chat: an images message did not pass its check; not shown.');
    });
  }

  dispose(): void {
    this.#delivered.dispose();
    this.controllerSubscription.dispose();
    for (const d of this.viewSubscriptions.splice(0)) d.dispose();
  }
}
