// One HTTP attempt: the caller's abort signal, an idle timeout, and reading the body in
// chunks. Every wait is raced against the attempt's AbortController, so an abort or a
// timeout ends the wait at once even if the injected fetch ignores its signal.
import { abortedError, GatewayError, timeoutError } from './errors';

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_CLOSED: 'connection closed',
};

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Who is on the other end, for messages: the gateway, or an image host. */
export interface Peer {
  /** e.g. "the gateway" */
  name: string;
  /** origin and path, never a query string (signed image URLs carry tokens there) */
  where: string;
  /** what to check when it cannot be reached */
  hint: string;
}

/** A failure of the connection itself (fetch TypeError, ECONNRESET, a body that ends abruptly). */
export function networkError(error: unknown, phase: 'connect' | 'read', peer: Peer): GatewayError {
  const code = errorCode(error);
  const raw = error instanceof Error ? error.message : String(error);
  const detail = code ? `${NETWORK_CODES[code] ?? 'network error'}, ${code}` : raw.slice(0, 120) || 'network error';
  const message =
    phase === 'connect'
      ? `Could not reach ${peer.name} at ${peer.where} (${detail}). ${peer.hint}`
      : `The connection to ${peer.name} was lost before the response was complete (${detail}).`;
  return new GatewayError('network', message, { code });
}

export class Attempt {
  private readonly controller = new AbortController();
  private timedOut = false;
  private readonly unlink: () => void;
  /** One idle timer per attempt, re-armed for each wait (a stream can have thousands of chunks). */
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waiting = false;
  /** Rejects the wait in progress; called when the attempt's signal aborts. */
  private abortWait: (() => void) | undefined;

  constructor(
    private readonly userSignal: AbortSignal | undefined,
    private readonly timeoutMs: number,
    private readonly peer: Peer,
  ) {
    this.controller.signal.addEventListener('abort', () => this.abortWait?.(), { once: true });
    if (userSignal) {
      const onAbort = () => this.controller.abort();
      userSignal.addEventListener('abort', onAbort, { once: true });
      this.unlink = () => userSignal.removeEventListener('abort', onAbort);
      if (userSignal.aborted) this.controller.abort();
    } else {
      this.unlink = () => undefined;
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why this attempt ended, as a GatewayError. */
  classify(error: unknown, phase: 'connect' | 'read'): GatewayError {
    if (this.userSignal?.aborted) return abortedError();
    if (this.timedOut) return timeoutError(this.timeoutMs, this.peer.name);
    if (error instanceof GatewayError) return error;
    return networkError(error, phase, this.peer);
  }

  private readonly onIdle = (): void => {
    // Silence only counts while we are waiting for the server, not while the consumer is busy.
    if (!this.waiting) return;
    this.timedOut = true;
    this.controller.abort();
  };

  private armTimer(): void {
    if (this.timer && typeof this.timer.refresh === 'function') this.timer.refresh();
    else this.timer = setTimeout(this.onIdle, this.timeoutMs);
  }

  /**
   * Awaits `start()`; fails with 'timeout' when nothing happens for the idle timeout and with
   * 'aborted' the moment the caller aborts, even if the work itself never settles.
   */
  guard<T>(start: () => Promise<T>, phase: 'connect' | 'read'): Promise<T> {
    if (this.controller.signal.aborted) return Promise.reject(this.classify(undefined, phase));
    return new Promise<T>((resolve, reject) => {
      const finish = () => {
        this.waiting = false;
        this.abortWait = undefined;
      };
      this.abortWait = () => {
        finish();
        reject(this.classify(undefined, phase));
      };
      this.waiting = true;
      this.armTimer();
      let work: Promise<T>;
      try {
        work = start();
      } catch (error) {
        work = Promise.reject(error);
      }
      work.then(
        (value) => {
          finish();
          resolve(value);
        },
        (error: unknown) => {
          finish();
          reject(this.classify(error, phase));
        },
      );
    });
  }

  /** Ends the attempt: clears the timer, drops the caller's listener, aborts anything in flight. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.unlink();
    if (!this.controller.signal.aborted) this.controller.abort();
  }
}

/**
 * The body's chunks, each read under the idle timeout. Breaking out of the loop cancels the
 * body, which closes the connection.
 */
export async function* bodyChunks(response: Response, attempt: Attempt): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const reader = response.body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await attempt.guard(() => reader.read(), 'read');
      if (done) {
        finished = true;
        return;
      }
      if (value && value.byteLength > 0) yield value;
    }
  } finally {
    if (!finished) reader.cancel().catch(() => undefined);
  }
}

/**
 * The body as text, at most `limitBytes` of it (an error page can be huge). With `tolerant`,
 * a connection failure mid-body returns what arrived so far; an abort still throws.
 */
export async function readBodyText(
  response: Response,
  attempt: Attempt,
  limitBytes: number,
  tolerant = false,
): Promise<{ text: string; truncated: boolean }> {
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  let truncated = false;
  try {
    for await (const chunk of bodyChunks(response, attempt)) {
      const room = limitBytes - total;
      text += decoder.decode(room < chunk.byteLength ? chunk.subarray(0, room) : chunk, { stream: true });
      total += chunk.byteLength;
      if (total > limitBytes) {
        truncated = true;
        break;
      }
    }
  } catch (error) {
    if (!tolerant || (error instanceof GatewayError && error.kind === 'aborted')) throw error;
  }
  return { text: text + decoder.decode(), truncated };
}
