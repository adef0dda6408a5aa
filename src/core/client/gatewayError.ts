// The one error type of the client. `kind` says what went wrong in terms a caller can act on;
// the message is a short sentence for a person that keeps the server's own words.
// The sentences the client writes go through l10n.t (whole sentences, {n} placeholders); the
// server's own words, HTTP reason phrases and technical details are passed in as received.
import { truncate } from './errorBody';
import { l10n } from '../l10n';
import { errorText } from '../errorText';

export type GatewayErrorKind =
  | 'auth'
  | 'balance'
  | 'rate_limit'
  | 'bad_request'
  | 'not_found'
  | 'unsupported'
  | 'server'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'protocol';

/**
 * The code given to a refusal because earlier assistant messages with tool calls lack the
 * model's reasoning (DeepSeek's and Kimi's "The reasoning_content in the thinking mode must be
 * passed back to the API"), whatever code the server gave.
 */
export const REASONING_NOT_PASSED_BACK = 'reasoning_not_passed_back';

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
      ? l10n.t(
          'The image host sent only keep-alives and no answer for {0} s, so the request was stopped. Try again, or raise “modelgate.requestTimeoutSeconds”.',
          seconds,
        )
      : l10n.t(
          'The gateway sent only keep-alives and no answer for {0} s, so the request was stopped. Try again, or raise “modelgate.requestTimeoutSeconds”.',
          seconds,
        );
  return new GatewayError('timeout', message);
}

/**
 * The message of a failed connection (transport.ts): `detail` is the technical cause ("connection
 * refused, ECONNREFUSED"), `hint` a translated sentence of what to check.
 */
export function networkMessage(phase: 'connect' | 'read', peerName: string, where: string, detail: string, hint: string): string {
  const image = peerName === 'the image host';
  if (phase === 'connect') {
    const reach = image
      ? l10n.t('Could not reach the image host at {0} ({1}).', where, detail)
      : l10n.t('Could not reach the gateway at {0} ({1}).', where, detail);
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
  return new GatewayError('auth', l10n.t('The API key contains spaces or characters that cannot be sent. Set it again with “Modelgate: Set API Key”.'), {
    retryable: false,
  });
}

/** Anything thrown that is not a GatewayError yet (a bug, or an odd injected fetch). */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const text = errorText(error);
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
