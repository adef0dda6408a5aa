// A failure as a person sees it: a short message and the actions that fix it. The services write it
// (src/services/userErrors.ts), the chat panel shows it (chat/protocol.ts carries it to the webview),
// and commands show it as a notification with buttons.
export type ErrorAction = 'setKey' | 'topUp' | 'switchChannel' | 'pickModel' | 'retry' | 'openSettings' | 'showLog';

export interface ErrorView {
  message: string;
  actions: ErrorAction[];
}
