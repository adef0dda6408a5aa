// The one error type of the client. `kind` says what went wrong in terms a caller can act on;
// the message is a short sentence for a person that keeps the server's own words.
// The sentences the client writes go through l10n.t (whole sentences, {n} placeholders); the
// server's own words, HTTP reason phrases and technical details are passed in as received.
import { parseErrorBody, truncate, type ErrorDetails } from './errorBody';
import { l10n } from './l10n';
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

/** A function, not a constant: translated when a message is built, after the translator is wired. */
export function setKeyHint(): string {
  return l10n.t('Set a new key with “Modelgate: Set API Key”.');
}

export function missingKeyError(): GatewayError {
  return new GatewayError('auth', l10n.t('No Modelgate API key is set. Set one with “Modelgate: Set API Key”.'), { retryable: false });
}

export function abortedError(): GatewayError {
  return new GatewayError('aborted', l10n.t('The request was cancelled.'), { retryable: false });
}

/** `peerName` is transport.ts's Peer name: 'the gateway' or 'the image host' (client.ts). */
export function timeoutError(timeoutMs: number, peerName = 'the gateway'): GatewayError {
  const seconds = Math.max(1, Math.round(timeoutMs / 1000));
  const message =
    peerName === 'the image host'
      ? l10n.t('Nothing arrived from the image host for {0} s, so the request was stopped. Try again, or raise “modelgate.requestTimeoutSeconds”.', seconds)
      : l10n.t('Nothing arrived from the gateway for {0} s, so the request was stopped. Try again, or raise “modelgate.requestTimeoutSeconds”.', seconds);
  return new GatewayError('timeout', message);
}

/** Keep-alives but no content for `seconds` (transport.ts's content timeout). */
export function keepAliveOnlyError(seconds: number, peerName = 'the gateway'): GatewayError {
  const message =
    peerName === 'the image host'
      ? l10n.t('The image host sent only keep-alives and no answer for {0} s, so the request was stopped. Try again, or raise “modelgate.requestTimeoutSeconds”.', seconds)
      : l10n.t('The gateway sent only keep-alives and no answer for {0} s, so the request was stopped. Try again, or raise “modelgate.requestTimeoutSeconds”.', seconds);
  return new GatewayError('timeout', message);
}

/**
 * The message of a failed connection (transport.ts): `detail` is the technical cause ("connection
 * refused, ECONNREFUSED"), `hint` a translated sentence of what to check.
 */
export function networkMessage(phase: 'connect' | 'read', peerName: string, where: string, detail: string, hint: string): string {
  const image = peerName === 'the image host';
  if (phase === 'connect') {
    const reach = image ? l10n.t('Could not reach the image host at {0} ({1}).', where, detail) : l10n.t('Could not reach the gateway at {0} ({1}).', where, detail);
    return `${reach} ${hint}`;
  }
  return image
    ? l10n.t('The connection to the image host was lost before the response was complete ({0}).', detail)
    : l10n.t('The connection to the gateway was lost before the response was complete ({0}).', detail);
}

/** The stored key could not be read (SecretStorage failed). */
export function keyUnreadableError(): GatewayError {
  return new GatewayError('auth', l10n.t('Could not read the Modelgate API key. Set it again with “Modelgate: Set API Key”.'), { retryable: false });
}

/** The key cannot go into a header; the header error would quote it, so this says it instead. */
export function keyNotSendableError(): GatewayError {
  return new GatewayError('auth', l10n.t('The API key contains spaces or characters that cannot be sent. Set it again with “Modelgate: Set API Key”.'), { retryable: false });
}

/** Anything thrown that is not a GatewayError yet (a bug, or an odd injected fetch). */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const text = error instanceof Error ? error.message : String(error);
  return new GatewayError('protocol', l10n.t('Unexpected failure while talking to the gateway ({0}).', text.slice(0, 160)), { retryable: false });
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
  // error.message is one of our sentences already (translated, so its end is not necessarily '.').
  return new GatewayError(error.kind, l10n.t('{0} The answer above is incomplete.', error.message), {
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
    summary
      ? l10n.t('The gateway (or a proxy in front of it) returned an HTML page instead of an answer ({0}). Check “modelgate.baseUrl”.', summary)
      : l10n.t('The gateway (or a proxy in front of it) returned an HTML page instead of an answer (no title). Check “modelgate.baseUrl”.'),
    { retryable: false },
  );
}

export function protocolError(detail: string): GatewayError {
  // `detail` is a technical diagnostic (what was wrong with the bytes), kept as written.
  return new GatewayError('protocol', l10n.t('The gateway sent a response Modelgate cannot read ({0}).', truncate(detail, 200)), { retryable: false });
}

/** `Retry after` in English words: "in 45 s", "in 5 min", or "at 14:05" for long waits (messages use `tryAgainAfter`). */
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

/** "Try again in 45 s." / "in 5 min." / "at 14:05." / "at 14:05 on <date>." as one sentence. */
export function tryAgainAfter(ms: number, now = new Date()): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return l10n.t('Try again in {0} s.', Math.max(seconds, 1));
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return l10n.t('Try again in {0} min.', minutes);
  const at = new Date(now.getTime() + ms);
  const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  return at.toDateString() === now.toDateString() ? l10n.t('Try again at {0}.', hhmm) : l10n.t('Try again at {0} on {1}.', hhmm, at.toDateString());
}

/**
 * The four shapes of one reason sentence, each a whole message for translators: with the status
 * (a number, or "<status> <reason phrase>, no message") and the server's words, with only one of
 * them, or bare. The server's words come last and end the sentence.
 */
interface Shapes {
  both(status: string, said: string): string;
  status(status: string): string;
  said(said: string): string;
  bare(): string;
}

function shaped(shapes: Shapes, status: string | undefined, said: string | undefined): string {
  if (status !== undefined) return said !== undefined ? shapes.both(status, said) : shapes.status(status);
  return said !== undefined ? shapes.said(said) : shapes.bare();
}

const AUTH_SAYS: Shapes = {
  both: (s, w) => l10n.t('Gateway rejected the API key ({0}): {1}', s, w),
  status: (s) => l10n.t('Gateway rejected the API key ({0}).', s),
  said: (w) => l10n.t('Gateway rejected the API key: {0}', w),
  bare: () => l10n.t('Gateway rejected the API key.'),
};
const BALANCE_SAYS: Shapes = {
  both: (s, w) => l10n.t('The gateway balance is too low for this request ({0}): {1}', s, w),
  status: (s) => l10n.t('The gateway balance is too low for this request ({0}).', s),
  said: (w) => l10n.t('The gateway balance is too low for this request: {0}', w),
  bare: () => l10n.t('The gateway balance is too low for this request.'),
};
const RATE_LIMIT_SAYS: Shapes = {
  both: (s, w) => l10n.t('The gateway is limiting requests ({0}): {1}', s, w),
  status: (s) => l10n.t('The gateway is limiting requests ({0}).', s),
  said: (w) => l10n.t('The gateway is limiting requests: {0}', w),
  bare: () => l10n.t('The gateway is limiting requests.'),
};
const UNSUPPORTED_SAYS: Shapes = {
  both: (s, w) => l10n.t('The gateway does not support this request ({0}): {1}', s, w),
  status: (s) => l10n.t('The gateway does not support this request ({0}).', s),
  said: (w) => l10n.t('The gateway does not support this request: {0}', w),
  bare: () => l10n.t('The gateway does not support this request.'),
};
const modelMissing = (model: string): Shapes => ({
  both: (s, w) => l10n.t('Model “{0}” is not available on the gateway ({1}): {2}', model, s, w),
  status: (s) => l10n.t('Model “{0}” is not available on the gateway ({1}).', model, s),
  said: (w) => l10n.t('Model “{0}” is not available on the gateway: {1}', model, w),
  bare: () => l10n.t('Model “{0}” is not available on the gateway.', model),
});
const NO_ENDPOINT_SAYS: Shapes = {
  both: (s, w) => l10n.t('The gateway has no such endpoint ({0}): {1}', s, w),
  status: (s) => l10n.t('The gateway has no such endpoint ({0}).', s),
  said: (w) => l10n.t('The gateway has no such endpoint: {0}', w),
  bare: () => l10n.t('The gateway has no such endpoint.'),
};
const TIMED_OUT_SAYS: Shapes = {
  both: (s, w) => l10n.t('The gateway timed out ({0}): {1}', s, w),
  status: (s) => l10n.t('The gateway timed out ({0}).', s),
  said: (w) => l10n.t('The gateway timed out: {0}', w),
  bare: () => l10n.t('The gateway timed out.'),
};
const SERVER_SAYS: Shapes = {
  both: (s, w) => l10n.t('The gateway had a problem ({0}): {1}', s, w),
  status: (s) => l10n.t('The gateway had a problem ({0}).', s),
  said: (w) => l10n.t('The gateway had a problem: {0}', w),
  bare: () => l10n.t('The gateway had a problem.'),
};
const REJECTED_CHAT_SAYS: Shapes = {
  both: (s, w) => l10n.t('The gateway rejected the chat request ({0}): {1}', s, w),
  status: (s) => l10n.t('The gateway rejected the chat request ({0}).', s),
  said: (w) => l10n.t('The gateway rejected the chat request: {0}', w),
  bare: () => l10n.t('The gateway rejected the chat request.'),
};
const REJECTED_IMAGE_SAYS: Shapes = {
  both: (s, w) => l10n.t('The gateway rejected the image generation request ({0}): {1}', s, w),
  status: (s) => l10n.t('The gateway rejected the image generation request ({0}).', s),
  said: (w) => l10n.t('The gateway rejected the image generation request: {0}', w),
  bare: () => l10n.t('The gateway rejected the image generation request.'),
};
const REJECTED_SAYS: Shapes = {
  both: (s, w) => l10n.t('The gateway rejected the request ({0}): {1}', s, w),
  status: (s) => l10n.t('The gateway rejected the request ({0}).', s),
  said: (w) => l10n.t('The gateway rejected the request: {0}', w),
  bare: () => l10n.t('The gateway rejected the request.'),
};
const ASKED_TO_WAIT_SAYS: Shapes = {
  both: (s, w) => l10n.t('The gateway asked to wait before the next request ({0}): {1}', s, w),
  status: (s) => l10n.t('The gateway asked to wait before the next request ({0}).', s),
  said: (w) => l10n.t('The gateway asked to wait before the next request: {0}', w),
  bare: () => l10n.t('The gateway asked to wait before the next request.'),
};

export interface ErrorContext {
  /** Model of the request, for a "pick another model" hint on 404. */
  model?: string;
  /** What the request was for: 'chat' or 'image generation' (named in a rejection; others say "the request"). */
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
  const tag = !status ? undefined : details.message || kind === 'auth' ? String(status) : l10n.t('{0}, no message', statusLabel!);
  const said = details.message ? sentence(details.message) : undefined;
  const wait = retryAfterMs !== undefined ? tryAgainAfter(retryAfterMs) : undefined;
  let message: string;
  if (details.htmlSummary !== undefined) {
    const summary = details.htmlSummary || statusLabel;
    const label = summary && status && !summary.includes(String(status)) ? `${status} ${summary}` : summary;
    message = label
      ? l10n.t('The gateway (or a proxy in front of it) returned an HTML error page ({0}).', label)
      : l10n.t('The gateway (or a proxy in front of it) returned an HTML error page (no title).');
    if (kind === 'auth') message += ` ${setKeyHint()}`;
    else if (kind === 'server' || kind === 'rate_limit' || kind === 'timeout') message += ` ${wait ?? l10n.t('Try again in a moment.')}`;
  } else {
    switch (kind) {
      case 'auth':
        message = `${shaped(AUTH_SAYS, tag, said)} ${setKeyHint()}`;
        break;
      case 'balance':
        message = `${shaped(BALANCE_SAYS, tag, said)} ${l10n.t('Top up the balance in the gateway console.')}`;
        break;
      case 'rate_limit':
        message = `${shaped(RATE_LIMIT_SAYS, tag, said)} ${wait ?? l10n.t('Wait a moment and try again.')}`;
        break;
      case 'unsupported':
        message = `${shaped(UNSUPPORTED_SAYS, tag, said)} ${l10n.t('Try another channel or model.')}`;
        break;
      case 'not_found':
        if (context.model && (!details.message || /model/i.test(textOf(details)))) {
          message = `${shaped(modelMissing(context.model), tag, said)} ${l10n.t('Pick another model.')}`;
        } else {
          message = `${shaped(NO_ENDPOINT_SAYS, tag, said)} ${l10n.t('Check that “modelgate.baseUrl” ends in the version segment (for example /v1).')}`;
        }
        break;
      case 'timeout':
        message = `${shaped(TIMED_OUT_SAYS, tag, said)} ${l10n.t('Try again.')}`;
        break;
      case 'server':
        message = `${shaped(SERVER_SAYS, tag, said)} ${wait ?? l10n.t('Try again in a moment.')}`;
        break;
      default:
        message = shaped(context.operation === 'chat' ? REJECTED_CHAT_SAYS : context.operation === 'image generation' ? REJECTED_IMAGE_SAYS : REJECTED_SAYS, tag, said);
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
  const said = error.serverMessage ? sentence(error.serverMessage) : undefined;
  const message = `${shaped(ASKED_TO_WAIT_SAYS, error.status ? String(error.status) : undefined, said)} ${tryAgainAfter(retryAfterMs)}`;
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
