// One HTTP attempt: the caller's abort signal, an idle timeout, and reading the body in
// chunks. Every wait is raced against the attempt's AbortController, so an abort or a
// timeout ends the wait at once even if the injected fetch ignores its signal.
import { abortedError, GatewayError, keepAliveOnlyError, networkMessage, timeoutError } from './gatewayError';
import { l10n } from '../l10n';
import { errorText } from '../errorText';

const secondsOf = (ms: number) => Math.max(1, Math.round(ms / 1000));

/** The first-token bound ran out: nothing of the answer arrived in time. */
export function firstTokenTimeoutError(boundMs: number, waitedMs = boundMs): GatewayError {
  return new GatewayError(
    'timeout',
    l10n.t(
      "No answer from the gateway after {0} s: the first-token bound of {1} s ran out (it grows with the prompt size and the channel's measured first-token times), so the request was stopped. Try again, or raise “modelgate.requestTimeoutSeconds”.",
      secondsOf(waitedMs),
      secondsOf(boundMs),
    ),
    { code: 'first_token_timeout' },
  );
}

/** The idle bound between chunks ran out once the answer was flowing. */
export function idleTimeoutError(boundMs: number, keepAlivesOnly: boolean): GatewayError {
  const message = keepAlivesOnly
    ? l10n.t(
        'The answer stalled: the gateway sent only keep-alives and no new text for {0} s (the idle bound between chunks), so the request was stopped. Try again, or raise “modelgate.requestTimeoutSeconds”.',
        secondsOf(boundMs),
      )
    : l10n.t(
        'The answer stalled: nothing arrived from the gateway for {0} s (the idle bound between chunks), so the request was stopped. Try again, or raise “modelgate.requestTimeoutSeconds”.',
        secondsOf(boundMs),
      );
  return new GatewayError('timeout', message, { code: 'idle_timeout' });
}

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
  const raw = errorText(error);
  const detail = code ? `${NETWORK_CODES[code] ?? 'network error'}, ${code}` : raw.slice(0, 120) || 'network error';
  const message = networkMessage(phase, peer.name, peer.where, detail, peer.hint);
  return new GatewayError('network', message, { code });
}

/** what a stream read gives (the DOM lib's ReadableStreamReadResult, which @types/node does not declare globally) */
type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

export class Attempt {
  private readonly controller = new AbortController();
  private timedOut = false;
  private readonly unlink: () => void;
  /**
   * One idle check per attempt: a timer that, when it fires, compares the time of the last
   * progress with the timeout and re-arms itself for the rest. Progress itself is a timestamp
   * write, so a stream of thousands of chunks costs no timer work per chunk.
   */
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastProgress = performance.now();
  /** Last byte of any kind, keep-alives included. */
  private lastByte = this.lastProgress;
  private waiting = false;
  /** The no-content bound ran out (as opposed to plain silence). */
  private noContent = false;
  /** Rejects the wait in progress; called when the attempt's signal aborts. */
  private abortWait: (() => void) | undefined;
  /** Cancels the body reader in use, so a pending read ends the moment the attempt aborts. */
  private cancelRead: (() => void) | undefined;
  private readonly started = performance.now();
  /** Two-bound mode (firstTokenMs given): still waiting for the first content of the answer. */
  private awaitingFirst: boolean;
  /** The first-token bound ran out (as opposed to the idle bounds). */
  private firstTokenRanOut = false;
  /** how long the attempt waited for its first token when the bound ran out */
  private firstTokenWaitedMs = 0;

  constructor(
    private readonly userSignal: AbortSignal | undefined,
    private readonly timeoutMs: number,
    private readonly peer: Peer,
    /**
     * A stream that stays alive with keep-alives but sends no content for this long is
     * stopped too (default 5 x the idle timeout): keep-alives prove the connection, not an
     * answer; a model may think for minutes behind them, but not forever.
     */
    private readonly contentTimeoutMs = timeoutMs * 5,
    /**
     * With a first-token bound, the wait for the answer's first content is bounded by it alone
     * (a long prompt may take minutes before anything, keep-alives or not); from the first
     * content on, the idle bounds above apply between chunks.
     */
    private readonly firstTokenMs?: number,
  ) {
    this.awaitingFirst = firstTokenMs !== undefined;
    this.controller.signal.addEventListener(
      'abort',
      () => {
        this.abortWait?.();
        this.cancelRead?.();
      },
      { once: true },
    );
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
    if (this.timedOut) {
      if (this.firstTokenRanOut) return firstTokenTimeoutError(this.firstTokenMs ?? this.timeoutMs, this.firstTokenWaitedMs);
      if (this.firstTokenMs !== undefined) return idleTimeoutError(this.noContent ? this.contentTimeoutMs : this.timeoutMs, this.noContent);
      if (!this.noContent) return timeoutError(this.timeoutMs, this.peer.name);
      const seconds = Math.max(1, Math.round(this.contentTimeoutMs / 1000));
      return keepAliveOnlyError(seconds, this.peer.name);
    }
    if (error instanceof GatewayError) return error;
    return networkError(error, phase, this.peer);
  }

  /** Something meaningful arrived (or the consumer just handed control back): silence restarts. */
  progress(): void {
    this.lastProgress = this.lastByte = performance.now();
  }

  /** Bytes arrived that only keep the connection alive (SSE comments): not content. */
  alive(): void {
    this.lastByte = performance.now();
  }

  /** The answer's first content arrived: from now on the idle bounds apply. */
  firstContent(): void {
    if (!this.awaitingFirst) return;
    this.awaitingFirst = false;
    this.progress();
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
      if (this.waiting) this.timer = setTimeout(this.onIdle, this.timeoutMs);
    }
  }

  /** ms left of the first-token bound */
  private firstTokenLeft(now: number): number {
    return (this.firstTokenMs ?? 0) - (now - this.started);
  }

  private readonly onIdle = (): void => {
    this.timer = undefined;
    // Silence only counts while we are waiting for the server, not while the consumer is busy:
    // the next wait re-arms the check.
    if (!this.waiting || this.controller.signal.aborted) return;
    const now = performance.now();
    if (this.awaitingFirst) {
      // Past the bound, a connection that still sends keep-alives (a model thinking behind them)
      // gets up to the keep-alive bound, as before; a silent one is stopped.
      const elapsed = now - this.started;
      const bound = this.firstTokenMs ?? 0;
      const aliveBound = Math.max(bound, this.contentTimeoutMs);
      const silent = now - this.lastByte;
      if (elapsed >= aliveBound || (elapsed >= bound && silent >= this.timeoutMs)) {
        this.timedOut = true;
        this.firstTokenRanOut = true;
        this.firstTokenWaitedMs = elapsed;
        this.controller.abort();
        return;
      }
      this.timer = setTimeout(this.onIdle, elapsed < bound ? bound - elapsed : Math.max(1, Math.min(aliveBound - elapsed, this.timeoutMs - silent)));
      return;
    }
    const silent = now - this.lastByte;
    const noContent = now - this.lastProgress;
    if (silent >= this.timeoutMs || noContent >= this.contentTimeoutMs) {
      this.timedOut = true;
      this.noContent = silent < this.timeoutMs;
      this.controller.abort();
      return;
    }
    this.timer = setTimeout(this.onIdle, Math.min(this.timeoutMs - silent, this.contentTimeoutMs - noContent));
  };

  /** Starts a wait for the server; arms the idle check if it is not armed. */
  beginWait(): void {
    this.waiting = true;
    if (this.timer === undefined) {
      this.timer = setTimeout(this.onIdle, this.awaitingFirst ? Math.max(0, this.firstTokenLeft(performance.now())) : this.timeoutMs);
    }
  }

  endWait(): void {
    this.waiting = false;
  }

  /**
   * Awaits `start()` (connecting); fails with 'timeout' when nothing happens for the idle
   * timeout and with 'aborted' the moment the caller aborts, even if the work never settles.
   */
  guard<T>(start: () => Promise<T>, phase: 'connect' | 'read'): Promise<T> {
    if (this.controller.signal.aborted) return Promise.reject(this.classify(undefined, phase));
    return new Promise<T>((resolve, reject) => {
      const finish = () => {
        this.endWait();
        this.abortWait = undefined;
      };
      this.abortWait = () => {
        finish();
        reject(this.classify(undefined, phase));
      };
      this.progress();
      this.beginWait();
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

  /**
   * A reader of `response`'s body bound to this attempt: an abort or timeout cancels it, which
   * ends a pending read at once (even if the injected fetch ignores its signal).
   */
  reader(response: Response): ReadableStreamDefaultReader<Uint8Array> | undefined {
    if (!response.body) return undefined;
    const reader = response.body.getReader();
    this.cancelRead = () => {
      reader.cancel().catch(() => undefined);
    };
    if (this.controller.signal.aborted) this.cancelRead();
    return reader;
  }

  /** One read under the idle check; a failed or aborted read comes out as a GatewayError. */
  async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadResult> {
    if (this.controller.signal.aborted) throw this.classify(undefined, 'read');
    this.beginWait();
    let result: ReadResult;
    try {
      result = await reader.read();
    } catch (error) {
      throw this.classify(error, 'read');
    } finally {
      this.waiting = false;
    }
    if (this.controller.signal.aborted) throw this.classify(undefined, 'read');
    return result;
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
 * The body's chunks; every chunk counts as progress for the idle timeout. Breaking out of the
 * loop cancels the body, which closes the connection.
 */
export async function* bodyChunks(response: Response, attempt: Attempt): AsyncGenerator<Uint8Array> {
  const reader = attempt.reader(response);
  if (!reader) return;
  let finished = false;
  try {
    for (;;) {
      attempt.progress();
      const { done, value } = await attempt.read(reader);
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
 * a connection failure mid-body returns what arrived so far; an abort still throws. A body whose
 * first character (after whitespace) is `<` is an HTML page, not the JSON asked for: with
 * `pageLimitBytes`, it is read only that far (its summary needs the top of it).
 */
export async function readBodyText(
  response: Response,
  attempt: Attempt,
  limitBytes: number,
  tolerant = false,
  pageLimitBytes?: number,
): Promise<{ text: string; truncated: boolean }> {
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  let truncated = false;
  let limit = limitBytes;
  let decided = pageLimitBytes === undefined;
  try {
    for await (const chunk of bodyChunks(response, attempt)) {
      const room = limit - total;
      const piece = decoder.decode(room < chunk.byteLength ? chunk.subarray(0, Math.max(0, room)) : chunk, { stream: true });
      text += piece;
      total += chunk.byteLength;
      if (!decided) {
        const head = piece.trimStart();
        if (head) {
          decided = true;
          if (head.startsWith('<') && pageLimitBytes! < limit) limit = pageLimitBytes!;
        }
      }
      if (total > limit) {
        truncated = true;
        break;
      }
    }
  } catch (error) {
    if (!tolerant || (error instanceof GatewayError && error.kind === 'aborted')) throw error;
  }
  return { text: text + decoder.decode(), truncated };
}
