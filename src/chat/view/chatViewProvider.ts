// The webview view `modelgate.chat`. It holds no state of its own: the controller owns the
// transcript, and a webview that was hidden (and so destroyed: no retainContextWhenHidden) or
// reloaded sends `ready` and gets a fresh snapshot. Until then, nothing is posted to it.
import * as vscode from 'vscode';
import { parseWebviewMessage, webviewMessageSchema, type HostMessage } from '../protocol';
import type { Log } from '../../services/log';
import { makeNonce } from '../../services/webviewShell';
import type { ChatController } from '../chatController';
import { buildChatHtml } from './chatHtml';

export { CHAT_VIEW_ID } from '../../services/featureIds';

/** The message types the webview may send: the only type names that may appear in the log. */
const KNOWN_TYPES: ReadonlySet<string> = new Set(webviewMessageSchema.options.map((o) => o.shape.type.value));

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  /** the webview has said `ready` since it was last (re)created */
  private ready = false;
  private controller: ChatController;
  private controllerSubscription: vscode.Disposable;
  private readonly viewSubscriptions: vscode.Disposable[] = [];
  /** called once when the webview next says `ready` */
  private readyWaiters: Array<() => void> = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    controller: ChatController,
    private readonly log: Log,
  ) {
    this.controller = controller;
    this.controllerSubscription = controller.onDidPost((m) => this.deliver(m));
  }

  /** Switches to another controller (after ChatApi.reload) and refreshes the view from it. */
  setController(controller: ChatController): void {
    this.controllerSubscription.dispose();
    this.controller = controller;
    this.controllerSubscription = controller.onDidPost((m) => this.deliver(m));
    if (this.view && this.ready) void controller.postSnapshot();
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
    view.webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
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
    if (msg.type === 'ready') this.ready = true;
    const handled = this.controller.handle(msg);
    // After the snapshot went out, so a waiter's next message reaches a page that has it.
    if (msg.type === 'ready') void handled.catch(() => undefined).then(() => this.readyWaiters.splice(0).forEach((w) => w()));
  }

  /** What the view was given, for the CSP tests: its HTML and options (undefined until resolved). */
  get served(): { html: string; options: vscode.WebviewOptions } | undefined {
    return this.view && { html: this.view.webview.html, options: this.view.webview.options };
  }

  private deliver(message: HostMessage): void {
    if (!this.view || !this.ready) return;
    void this.view.webview.postMessage(message);
  }

  dispose(): void {
    this.controllerSubscription.dispose();
    for (const d of this.viewSubscriptions.splice(0)) d.dispose();
  }
}
