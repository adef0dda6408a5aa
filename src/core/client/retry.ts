// Retry policy, after the official `openai` SDK's baseline: retry connection
// errors, 408, 409, 429 and 5xx; exponential back-off from 0.5 s capped at 8 s with jitter;
// honour Retry-After / retry-after-ms, but never park a request for longer than 30 s.
import { abortedError, GatewayError } from './gatewayError';
import { waitTooLongError } from './errorMessages';

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this ends the request at once instead of being waited out. */
  maxRetryAfterMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
}

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
export const DEFAULT_RETRY_MAX_DELAY_MS = 8_000;
export const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;

/** Resolves after `ms`, or rejects with an 'aborted' GatewayError as soon as `signal` fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Resolves when `promise` does, rejects with 'aborted' the moment `signal` fires: an injected
 * sleep that ignores the signal still cannot hold an aborted request.
 */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(abortedError());
    const onAbort = () => reject(abortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => signal.removeEventListener('abort', onAbort);
    promise.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}

/**
 * Milliseconds the server asked us to wait, from `retry-after-ms` or `Retry-After`
 * (delta-seconds or an HTTP date); undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const trimmed = after.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export function backoffDelay(retryNumber: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const exponential = Math.min(policy.baseDelayMs * 2 ** retryNumber, policy.maxDelayMs);
  // Up to 25 % less, so many clients failing together do not come back in lock-step.
  return Math.round(exponential * (1 - policy.random() * 0.25));
}

/**
 * Decides what follows a failed attempt: a delay before the next one, or the error to throw.
 * `retriesDone` counts retries already made.
 */
export function nextRetry(error: GatewayError, retriesDone: number, policy: RetryPolicy): { delayMs: number } | { error: GatewayError } {
  if (!error.retryable || error.kind === 'aborted') return { error };
  if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) {
    return { error: waitTooLongError(error, error.retryAfterMs) };
  }
  if (retriesDone >= policy.maxRetries) return { error };
  const delayMs = error.retryAfterMs ?? backoffDelay(retriesDone, policy);
  return { delayMs };
}
