// The one error type of the client. `kind` says what went wrong in terms a caller can act on;
// the message is a short sentence for a person that keeps the server's own words.
import { parseErrorBody, truncate, type ErrorDetails } from './errorBody';
import type { GatewayErrorKind } from './types';

export interface GatewayErrorInit {
  status?: number;
  retryable?: boolean;
  retryAfterMs?: number;
  serverMessage?: string;
  code?: string;
  param?: string;
  type?: string;
  /** True when the stream had already delivered content: nothing was retried. */
  afterContent?: boolean;
}

const RETRYABLE_KINDS: ReadonlySet<GatewayErrorKind> = new Set(['rate_limit', 'server', 'network', 'timeout']);

export class GatewayError extends Error {
  override name = 'GatewayError';
  status?: number;
  kind: GatewayErrorKind;
  retryable: boolean;
  /** How long the server asked us to wait before trying again. */
  retryAfterMs?: number;
  /** The server's own message (cleaned, truncated, key redacted). */
  serverMessage?: string;
  code?: string;
  param?: string;
  type?: string;
  afterContent?: boolean;

  constructor(kind: GatewayErrorKind, message: string, init: GatewayErrorInit = {}) {
    super(message);
    this.kind = kind;
    this.retryable = init.retryable ?? RETRYABLE_KINDS.has(kind);
    for (const key of ['status', 'retryAfterMs', 'serverMessage', 'code', 'param', 'type', 'afterContent'] as const) {
      if (init[key] !== undefined) (this as Record<string, unknown>)[key] = init[key];
    }
  }
}

export const SET_KEY_HINT = 'Set a new key with “Modelgate: Set API Key”.';

export function missingKeyError(): GatewayError {
  return new GatewayError('auth', 'No Modelgate API key is set. Set one with “Modelgate: Set API Key”.', { retryable: false });
}

export function abortedError(): GatewayError {
  return new GatewayError('aborted', 'The request was cancelled.', { retryable: false });
}

export function timeoutError(timeoutMs: number, peerName = 'the gateway'): GatewayError {
  const seconds = Math.max(1, Math.round(timeoutMs / 1000));
  return new GatewayError('timeout', `Nothing arrived from ${peerName} for ${seconds} s, so the request was stopped. Try again, or raise “modelgate.requestTimeoutSeconds”.`);
}

/** Anything thrown that is not a GatewayError yet (a bug, or an odd injected fetch). */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const text = error instanceof Error ? error.message : String(error);
  return new GatewayError('protocol', `Unexpected failure while talking to the gateway (${text.slice(0, 160)}).`, { retryable: false });
}

/**
 * For a failure after the stream had delivered content (nothing is retried then): marks it,
 * and for a cut connection says that the answer is incomplete.
 */
export function markAfterContent(error: GatewayError): GatewayError {
  if (error.kind !== 'network' && error.kind !== 'timeout' && error.kind !== 'protocol') {
    error.afterContent = true;
    return error;
  }
  return new GatewayError(error.kind, `${error.message.replace(/\.$/, '')}. The answer above is incomplete.`, {
    status: error.status,
    retryable: error.retryable,
    code: error.code,
    serverMessage: error.serverMessage,
    afterContent: true,
  });
}

export function htmlInsteadOfAnswerError(summary: string): GatewayError {
  return new GatewayError(
    'protocol',
    `The gateway (or a proxy in front of it) returned an HTML page instead of an answer (${summary || 'no title'}). Check “modelgate.baseUrl”.`,
    { retryable: false },
  );
}

export function protocolError(detail: string): GatewayError {
  return new GatewayError('protocol', `The gateway sent a response Modelgate cannot read (${truncate(detail, 200)}).`, { retryable: false });
}

/** `Retry after` in words: "in 45 s", "in 5 min", or "at 14:05" for long waits. */
export function describeWait(ms: number, now = new Date()): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `in ${Math.max(seconds, 1)} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `in ${minutes} min`;
  const at = new Date(now.getTime() + ms);
  const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  return at.toDateString() === now.toDateString() ? `at ${hhmm}` : `at ${hhmm} on ${at.toDateString()}`;
}

const BALANCE = /insufficient[_ ]?(balance|funds|credit|quota)|balance[_ ](is[_ ])?(too[_ ]low|insufficient|exhausted|empty)|not enough (balance|credit|funds)|out of credits?|top[- ]?up|payment[_ ]required|billing|exceeded your current quota|quota[_ ]exceeded|credit[_ ]limit/i;
const UNSUPPORTED = /not[_ ]supported|unsupported|does not support|doesn't support|not available (on|for|in) (this|the) channel/i;
const AUTH = /invalid[_ ]api[_ ]key|authenticat|unauthori[sz]ed|permission[_ ]denied|forbidden|invalid[_ ](token|key)/i;
const RATE = /rate[_ ]?limit|too many requests|throttl/i;
const MODEL_NOT_FOUND = /model[_ ]not[_ ]found|\bmodel\b[^.]{0,80}\b(does not exist|not found|unknown)|unknown model|no such model/i;
const SERVER = /server[_ ]error|internal|overloaded|upstream|unavailable|bad gateway|timeout/i;

function textOf(details: ErrorDetails): string {
  return [details.code, details.type, details.message].filter(Boolean).join(' ');
}

/** Kind from an HTTP status, refined by what the body says. */
export function kindForStatus(status: number, details: ErrorDetails): GatewayErrorKind {
  const text = textOf(details);
  if (status === 402 || (status >= 400 && status < 500 && BALANCE.test(text))) return 'balance';
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  if (status === 408) return 'timeout';
  if (status === 404) return 'not_found';
  if (status === 409) return 'server';
  if (status >= 500) return 'server';
  // Some gateways answer an unknown model with 400 rather than 404.
  if (MODEL_NOT_FOUND.test(text)) return 'not_found';
  if (UNSUPPORTED.test(text)) return 'unsupported';
  return 'bad_request';
}

/** Kind of an error that arrived inside a 200 stream: from its code/type/words, else its status. */
export function kindForErrorObject(details: ErrorDetails): GatewayErrorKind {
  const text = textOf(details);
  if (BALANCE.test(text)) return 'balance';
  if (AUTH.test(text)) return 'auth';
  if (RATE.test(text)) return 'rate_limit';
  if (details.status) return kindForStatus(details.status, details);
  if (UNSUPPORTED.test(text)) return 'unsupported';
  if (MODEL_NOT_FOUND.test(text)) return 'not_found';
  if (/invalid[_ ]request|bad[_ ]request|invalid[_ ]param/i.test(text)) return 'bad_request';
  if (SERVER.test(text)) return 'server';
  return 'server';
}

function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

export interface ErrorContext {
  /** Model of the request, for a "pick another model" hint on 404. */
  model?: string;
  /** What the request was for, e.g. "chat" or "image generation". */
  operation?: string;
}

/** Builds the person-facing message for a kind, keeping the server's words. */
export function composeError(
  kind: GatewayErrorKind,
  status: number | undefined,
  statusText: string | undefined,
  details: ErrorDetails,
  context: ErrorContext,
  retryAfterMs?: number,
): GatewayError {
  const statusLabel = status ? `${status}${statusText ? ` ${statusText}` : ''}` : undefined;
  // Without the server's words, the reason phrase is all a person has to go on.
  const tag = !status ? '' : details.message || kind === 'auth' ? ` (${status})` : ` (${statusLabel}, no message)`;
  const said = details.message ? `: ${details.message}` : '';
  const wait = retryAfterMs !== undefined ? ` Try again ${describeWait(retryAfterMs)}.` : '';
  let message: string;
  if (details.htmlSummary !== undefined) {
    const summary = details.htmlSummary || statusLabel || 'no title';
    const label = status && !summary.includes(String(status)) ? `${status} ${summary}` : summary;
    message = `The gateway (or a proxy in front of it) returned an HTML error page (${label}).`;
    if (kind === 'auth') message += ` ${SET_KEY_HINT}`;
    else if (kind === 'server' || kind === 'rate_limit' || kind === 'timeout') message += wait || ' Try again in a moment.';
  } else {
    switch (kind) {
      case 'auth':
        message = sentence(`Gateway rejected the API key${tag}${said}`) + ` ${SET_KEY_HINT}`;
        break;
      case 'balance':
        message = sentence(`The gateway balance is too low for this request${tag}${said}`) + ' Top up the balance in the gateway console.';
        break;
      case 'rate_limit':
        message = sentence(`The gateway is limiting requests${tag}${said}`) + (wait || ' Wait a moment and try again.');
        break;
      case 'unsupported':
        message = sentence(`The gateway does not support this request${tag}${said}`) + ' Try another channel or model.';
        break;
      case 'not_found':
        if (context.model && (!details.message || /model/i.test(textOf(details)))) {
          message = sentence(`Model “${context.model}” is not available on the gateway${tag}${said}`) + ' Pick another model.';
        } else {
          message = sentence(`The gateway has no such endpoint${tag}${said}`) + ' Check that “modelgate.baseUrl” ends in the version segment (for example /v1).';
        }
        break;
      case 'timeout':
        message = sentence(`The gateway timed out${tag}${said}`) + ' Try again.';
        break;
      case 'server':
        message = sentence(`The gateway had a problem${tag}${said}`) + (wait || ' Try again in a moment.');
        break;
      default:
        message = sentence(`The gateway rejected the ${context.operation ? `${context.operation} ` : ''}request${tag}${said}`);
    }
  }
  return new GatewayError(kind, message, {
    status,
    retryAfterMs,
    serverMessage: details.message ?? details.htmlSummary,
    code: details.code,
    param: details.param,
    type: details.type,
  });
}

export interface HttpFailure {
  status: number;
  statusText?: string;
  contentType: string | null;
  body: string;
  retryAfterMs?: number;
}

/** GatewayError for a non-2xx response. */
export function errorFromHttp(failure: HttpFailure, context: ErrorContext = {}): GatewayError {
  const details = parseErrorBody(failure.body, failure.contentType);
  const kind = kindForStatus(failure.status, details);
  return composeError(kind, failure.status, failure.statusText, details, context, failure.retryAfterMs);
}

/** GatewayError for an `{error: ...}` object that arrived inside a 200 response. */
export function errorFromInBand(details: ErrorDetails, context: ErrorContext = {}): GatewayError {
  return composeError(kindForErrorObject(details), details.status, undefined, details, context);
}

/** Stops a long Retry-After from parking the request: it ends now and says when to retry. */
export function waitTooLongError(error: GatewayError, retryAfterMs: number): GatewayError {
  // A 429 already says "limiting requests … try again in …".
  if (error.kind === 'rate_limit' && error.retryAfterMs === retryAfterMs) return error;
  const said = error.serverMessage ? `: ${error.serverMessage}` : '';
  const tag = error.status ? ` (${error.status})` : '';
  const message = sentence(`The gateway asked to wait before the next request${tag}${said}`) + ` Try again ${describeWait(retryAfterMs)}.`;
  return new GatewayError('rate_limit', message, {
    status: error.status,
    retryable: true,
    retryAfterMs,
    serverMessage: error.serverMessage,
    code: error.code,
    param: error.param,
    type: error.type,
  });
}
