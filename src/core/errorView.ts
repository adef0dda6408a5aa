// A failure as a person sees it: a short message and the actions that fix it. src/shared/userErrors.ts
// writes it, the chat panel shows it (chat/protocol.ts carries it to the webview),
// and commands show it as a notification with buttons.
import { REASONING_NOT_PASSED_BACK, type GatewayErrorKind } from './client/gatewayError';

export type ErrorAction =
  | 'setKey'
  | 'topUp'
  | 'switchChannel'
  | 'pickModel'
  | 'retry'
  | 'openSettings'
  | 'showLog'
  | 'newChat'
  | 'compactRetry'
  | 'undoCompaction';

export interface ErrorView {
  message: string;
  actions: ErrorAction[];
}

/**
 * The actions that fix a failure of `kind`: one right action where there is one (a
 * 5xx or a dropped connection is retried, not also "switch channel" and "show log").
 */
export function errorActions(kind: GatewayErrorKind, code?: string): ErrorAction[] {
  switch (kind) {
    case 'auth':
      return ['setKey'];
    case 'balance':
      // Every channel draws on the same prepaid balance: a switch cannot fix it.
      return ['topUp'];
    case 'rate_limit':
      return ['retry', 'switchChannel'];
    case 'server':
    case 'network':
    case 'timeout':
      return ['retry'];
    case 'protocol':
      return ['retry', 'switchChannel', 'showLog'];
    case 'not_found':
      return ['pickModel'];
    case 'unsupported':
      return ['switchChannel', 'pickModel'];
    case 'bad_request':
      // A thinking model that wants reasoning this conversation's earlier tool calls do not
      // have (made by another model): another model does not bring it back, a new chat does.
      if (code === REASONING_NOT_PASSED_BACK) return ['newChat'];
      return [code === 'invalid_base_url' || code === 'invalid_setting' ? 'openSettings' : 'pickModel'];
    case 'aborted':
      // the user stopped it: nothing to fix
      return [];
    default:
      kind satisfies never; // every kind has a case above: a new kind without one does not compile
      return [];
  }
}
