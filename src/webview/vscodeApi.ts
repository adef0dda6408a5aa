// The slice of the webview API the panel uses, typed with the protocol's messages. main.ts
// passes the real acquireVsCodeApi() result; tests pass a recorder.
import type { WebviewMessage } from '../chat/protocol';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): unknown;
}

/** What the panel keeps in the webview's own state (survives the view being hidden/reloaded). */
export interface PanelState {
  draft: string;
  conversationId?: string;
}

export class HostChannel {
  constructor(private readonly api: VsCodeApi) {}

  post(message: WebviewMessage): void {
    this.api.postMessage(message);
  }

  readState(): PanelState {
    const s = this.api.getState() as Partial<PanelState> | undefined | null;
    return {
      draft: typeof s?.draft === 'string' ? s.draft : '',
      conversationId: typeof s?.conversationId === 'string' ? s.conversationId : undefined,
    };
  }

  writeState(state: PanelState): void {
    this.api.setState(state);
  }
}
