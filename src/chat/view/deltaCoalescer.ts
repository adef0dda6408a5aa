// Merges the text deltas of a streaming answer into one `textDelta` message every few
// milliseconds: a fast stream yields hundreds of tiny chunks per second, and each postMessage
// to a webview is a structured clone plus an IPC hop. The first delta of an answer (and the first
// after a pause, or of its answer text after its reasoning) is posted at once and opens a window:
// what arrives in it is merged and posted when it closes, which opens the next one while deltas
// keep coming. So the first words are not held for the window, and the end of a long stream
// lands within one window of its last chunk. Any other message flushes the pending text first,
// so the webview sees everything in order. Reasoning (`thinkingDelta`) is merged the same way; a
// switch between reasoning and answer text flushes.
import type { HostMessage } from '../protocol';

interface Stream {
  messageId: string;
  thinking: boolean;
}

export class DeltaCoalescer {
  private pending: (Stream & { text: string }) | undefined;
  /** the window opened by the last post; undefined: idle, the next delta goes at once */
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** whose text the open window merges */
  private windowOf: Stream | undefined;

  constructor(
    private readonly deliver: (message: HostMessage) => void,
    private readonly intervalMs = 24,
  ) {}

  text(messageId: string, text: string, thinking = false): void {
    if (!text) return;
    if (this.pending && (this.pending.messageId !== messageId || this.pending.thinking !== thinking)) this.flush();
    if (this.pending) {
      this.pending.text += text;
      return;
    }
    const sameStream = this.windowOf?.messageId === messageId && this.windowOf.thinking === thinking;
    if (this.timer && sameStream) {
      this.pending = { messageId, text, thinking };
      return;
    }
    // the first delta of this text (or the first after a quiet window): at once
    this.send({ messageId, text, thinking });
    this.openWindow({ messageId, thinking });
  }

  /** Posts a message after whatever text is pending. */
  post(message: HostMessage): void {
    this.flush();
    this.deliver(message);
  }

  flush(): void {
    this.closeWindow();
    const p = this.pending;
    this.pending = undefined;
    if (p) this.send(p);
  }

  /** Drops pending text: a snapshot that already contains it is about to be sent. */
  discard(): void {
    this.closeWindow();
    this.pending = undefined;
  }

  dispose(): void {
    this.discard();
  }

  private send(p: Stream & { text: string }): void {
    this.deliver({ type: p.thinking ? 'thinkingDelta' : 'textDelta', messageId: p.messageId, text: p.text });
  }

  private openWindow(of: Stream): void {
    this.closeWindow();
    this.windowOf = of;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const p = this.pending;
      this.pending = undefined;
      if (!p) {
        this.windowOf = undefined;
        return;
      }
      // deltas kept coming: post them, and merge what follows for another window
      this.send(p);
      this.openWindow(p);
    }, this.intervalMs);
  }

  private closeWindow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.windowOf = undefined;
  }
}
