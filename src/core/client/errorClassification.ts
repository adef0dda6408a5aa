// Which GatewayErrorKind a failure is: from the HTTP status, refined by what the body says, or from
// the code/type/words of an error object that arrived inside a 200 stream.
import type { ErrorDetails } from './errorBody';
import type { GatewayErrorKind } from './gatewayError';

const BALANCE =
  /insufficient[_ ]?(balance|funds|credit|quota)|balance[_ ](is[_ ])?(too[_ ]low|insufficient|exhausted|empty)|not enough (balance|credit|funds)|out of credits?|top[- ]?up|payment[_ ]required|billing|exceeded your current quota|quota[_ ]exceeded|credit[_ ]limit/i;
const UNSUPPORTED = /not[_ ]supported|unsupported|does not support|doesn't support|not available (on|for|in) (this|the) channel/i;
const AUTH = /invalid[_ ]api[_ ]key|authenticat|unauthori[sz]ed|permission[_ ]denied|forbidden|invalid[_ ](token|key)/i;
const RATE = /rate[_ ]?limit|too many requests|throttl/i;
const MODEL_NOT_FOUND = /model[_ ]not[_ ]found|\bmodel\b[^.]{0,80}\b(does not exist|not found|unknown)|unknown model|no such model/i;
const SERVER = /server[_ ]error|internal|overloaded|upstream|unavailable|bad gateway|timeout/i;

export function textOf(details: ErrorDetails): string {
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
