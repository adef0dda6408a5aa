// The person-facing messages of gateway failures: one short sentence per kind that keeps the
// server's own words, and the GatewayErrors built from a failed HTTP response or an in-band error.
import { parseErrorBody, type ErrorDetails } from './errorBody';
import { kindForErrorObject, kindForStatus, textOf } from './errorClassification';
import { GatewayError, REASONING_NOT_PASSED_BACK, setKeyHint, type GatewayErrorKind } from './gatewayError';
import { l10n } from '../l10n';

/** A thinking model's refusal of a history whose tool-call messages lack their reasoning. */
const REASONING_PASSBACK = /reasoning_content\b[^.]{0,80}\b(passed|pass|sent|send) back|missing[^.]{0,40}\breasoning_content/i;

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
  let code = details.code;
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
        // the gateway's own words often say it already ("Top up in the console."): said once
        message = saysTopUp(said)
          ? shaped(BALANCE_SAYS, tag, said)
          : `${shaped(BALANCE_SAYS, tag, said)} ${l10n.t('Top up the balance in the gateway console.')}`;
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
        message = shaped(
          context.operation === 'chat' ? REJECTED_CHAT_SAYS : context.operation === 'image generation' ? REJECTED_IMAGE_SAYS : REJECTED_SAYS,
          tag,
          said,
        );
        if (kind === 'bad_request' && REASONING_PASSBACK.test(textOf(details))) {
          // Modelgate sends the reasoning back on every tool call it has it for: what is missing
          // came from another model or client, and only a conversation without it helps.
          message += ` ${l10n.t('Earlier tool calls of this conversation lack the reasoning this model needs back (they were made by another model or client). Continue in a new chat.')}`;
          code = REASONING_NOT_PASSED_BACK;
        }
    }
  }
  return new GatewayError(kind, message, {
    status,
    retryAfterMs,
    serverMessage: details.message ?? details.htmlSummary,
    code,
    param: details.param,
    type: details.type,
  });
}

/** Whether the gateway's words already tell the user to add funds (top up, recharge, add credits, billing). */
function saysTopUp(said: string | undefined): boolean {
  return !!said && /\btop[\s-]?up\b|\brecharge\b|\badd (?:funds|credits?)\b|\bbilling\b|\bconsole\b/i.test(said);
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
