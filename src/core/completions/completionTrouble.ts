// What an error during completions does. The editor never gets a dialog from typing: each kind of
// trouble is shown once (in the status bar, with its one action) and completions back off:
//   key       401/403 or no key     until the key changes               Set API Key
//   balance   402, quota words      10 minutes, then one try            Top Up
//   rateLimit 429                   Retry-After (capped) or 30 s, x2    Change Channel
//   server    5xx, a cut stream     15 s, x2 per failure, up to 5 min   Change Channel
//   network   unreachable, timeout  15 s, x2, up to 5 min               Show Log
//   request   400/404/unsupported   until the settings change           Pick Completion Model
// A success clears the trouble and the back-off. A cancelled request is not trouble.
import type { GatewayError } from '../client/gatewayError';

export type TroubleKind = 'key' | 'balance' | 'rateLimit' | 'server' | 'network' | 'request';

/** The one action the status bar offers for each kind (the feature maps it to a command). */
export type TroubleAction = 'setKey' | 'topUp' | 'changeChannel' | 'showLog' | 'pickModel';

export const TROUBLE_ACTION: Record<TroubleKind, TroubleAction> = {
  key: 'setKey',
  balance: 'topUp',
  rateLimit: 'changeChannel',
  server: 'changeChannel',
  network: 'showLog',
  request: 'pickModel',
};

export function troubleOf(error: Pick<GatewayError, 'kind' | 'status'>): TroubleKind | undefined {
  switch (error.kind) {
    case 'aborted':
      return undefined;
    case 'auth':
      return 'key';
    case 'balance':
      return 'balance';
    case 'rate_limit':
      return 'rateLimit';
    case 'server':
    case 'protocol':
      return 'server';
    case 'network':
    case 'timeout':
      return 'network';
    default:
      return 'request';
  }
}

const FIRST_WAIT_MS: Record<TroubleKind, number> = {
  key: Infinity,
  balance: 10 * 60_000,
  rateLimit: 30_000,
  server: 15_000,
  network: 15_000,
  request: Infinity,
};
export const MAX_BACKOFF_MS = 5 * 60_000;

export interface TroubleState {
  kind: TroubleKind;
  /** failures in a row of this kind */
  count: number;
  /** no request before this time (Infinity: until cleared) */
  until: number;
  /** the error's message, for the tooltip */
  message: string;
  /** true once the status bar has shown it (it is shown once per trouble, not per failure) */
  shown: boolean;
}

/** The back-off of completions: one trouble at a time, the newest. */
export class CompletionBackoff {
  private current: TroubleState | undefined;

  get trouble(): TroubleState | undefined {
    return this.current;
  }

  /** True while no request may go out. */
  blocked(now: number): boolean {
    return !!this.current && now < this.current.until;
  }

  /**
   * Notes a failure; returns the trouble when it is new (the caller shows it once), undefined when
   * it repeats one already shown or is no trouble at all (a cancelled request).
   */
  fail(error: Pick<GatewayError, 'kind' | 'status' | 'retryAfterMs' | 'message'>, now: number): TroubleState | undefined {
    const kind = troubleOf(error);
    if (!kind) return undefined;
    const same = this.current?.kind === kind;
    const count = same ? this.current!.count + 1 : 1;
    let wait = FIRST_WAIT_MS[kind];
    if (Number.isFinite(wait)) {
      if (kind === 'rateLimit' && error.retryAfterMs !== undefined && error.retryAfterMs > 0) wait = error.retryAfterMs;
      else if (kind !== 'balance') wait = wait * 2 ** (count - 1);
      wait = Math.min(wait, kind === 'balance' ? FIRST_WAIT_MS.balance : MAX_BACKOFF_MS);
    }
    const shown = same && this.current!.shown;
    this.current = { kind, count, until: now + wait, message: error.message, shown };
    return shown ? undefined : this.current;
  }

  /** The status bar showed the current trouble. */
  markShown(): void {
    if (this.current) this.current.shown = true;
  }

  /** A request succeeded, or what the trouble waited for changed (a new key, other settings). */
  clear(kinds?: readonly TroubleKind[]): void {
    if (!kinds || (this.current && kinds.includes(this.current.kind))) this.current = undefined;
  }
}
