// The gateway's overflow error as the panel acts on it, and `/compact` typed in the composer.
// Plain Node (no vscode), so the answer loop's tests use it against the simulator.
import { contextOverflow, type ContextOverflow } from '../../core/compaction/contextOverflow';
import { GatewayError } from '../../core/client/gatewayError';
import type { ErrorView } from '../../core/errorView';

/** `/compact [instructions]` typed in the composer: the instructions ('' without), or undefined for any other text. */
export function compactCommand(text: string): string | undefined {
  const m = /^\s*\/compact(?:\s+([\s\S]*))?$/.exec(text);
  return m ? (m[1] ?? '').trim() : undefined;
}

/** Whether an error is the gateway saying the prompt does not fit the window. */
export function isOverflow(err: unknown): boolean {
  return overflowOf(err) !== undefined;
}

/** The overflow a gateway error reports (with the window it names, when it names one). */
export function overflowOf(err: unknown): ContextOverflow | undefined {
  if (!(err instanceof GatewayError) || err.kind !== 'bad_request') return undefined;
  return contextOverflow({ status: err.status, code: err.code, message: err.serverMessage ?? err.message });
}

/** An overflow's error card offers Compact and Retry as its one action; other errors keep theirs. */
export function withOverflowAction(view: ErrorView, err: unknown): ErrorView {
  return isOverflow(err) ? { ...view, actions: ['compactRetry'] } : view;
}
