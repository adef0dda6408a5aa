// Merges the text deltas of a streaming answer into one `textDelta` message every few
// milliseconds: a fast stream yields hundreds of tiny chunks per second, and each postMessage
// to a webview is a structured clone plus an IPC hop. Any other message flushes the pending
// text first, so the webview sees everything in order. Reasoning (`thinkingDelta`) is merged the
// same way; a switch between reasoning and answer text flushes.
import type { HostMessage } from '../protocol';

export class DeltaCoalescer {
  private pending: { messageId: string; text: string; thinking: boolean } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly deliver: (message: HostMessage) => void,
    private readonly intervalMs = 24,
  ) {}

  text(messageId: string, text: string, thinking = false): void {
    if (!text) return;
    if (this.pending && (this.pending.messageId !== messageId || this.pending.thinking !== thinking)) this.flush();
    if (this.pending) this.pending.text += text;
    else this.pending = { messageId, text, thinking };
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Posts a message after whatever text is pending. */
  post(message: HostMessage): void {
    this.flush();
    this.deliver(message);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const p = this.pending;
    this.pending = undefined;
    if (p) this.deliver({ type: p.thinking ? 'thinkingDelta' : 'textDelta', messageId: p.messageId, text: p.text });
  }

  /** Drops pending text: a snapshot that already contains it is about to be sent. */
  discard(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }

  dispose(): void {
    this.discard();
  }
}
