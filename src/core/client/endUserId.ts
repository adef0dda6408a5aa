// `modelgate.endUserId` and the image command's `user` argument: the gateway's `user` field of the
// image request (4.2), "End-user identifier for monitoring and abuse detection". An opaque id
// the gateway's operator uses to tell end users apart. Checked before anything is sent: a value
// that cannot be an id (not a string, control characters, absurdly long) is refused with words
// saying why, rather than sent mangled or silently dropped. Pure.
import { l10n } from '../l10n';

/** Longest id accepted. The gateway's interface sets no limit; OpenAI-style gateways store ids of this order. */
export const END_USER_ID_MAX = 256;

export type EndUserIdCheck = { ok: true; value: string | undefined } | { ok: false; problem: string };

/**
 * `undefined`, null and '' (or only spaces) mean "no id" (nothing is sent). Otherwise the
 * trimmed string is the id. `what` names the value in the problem text.
 */
export function checkEndUserId(raw: unknown, what: string): EndUserIdCheck {
  if (raw === undefined || raw === null) return { ok: true, value: undefined };
  if (typeof raw !== 'string') return { ok: false, problem: l10n.t('{0} must be a string (an identifier of the end user), not {1}', what, typeof raw) };
  const value = raw.trim();
  if (!value) return { ok: true, value: undefined };
  // Never echo the value: it may be personal data, or a secret pasted into the wrong field.
  if (value.length > END_USER_ID_MAX)
    return { ok: false, problem: l10n.t('{0} is {1} characters long; at most {2} are allowed', what, value.length, END_USER_ID_MAX) };
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value))
    return { ok: false, problem: l10n.t('{0} contains line breaks or control characters; use a plain one-line identifier', what) };
  if (/^(bearer\s+)?sk-[\w-]{8,}$/i.test(value)) {
    return {
      ok: false,
      problem: l10n.t('{0} looks like an API key; it is sent in request bodies, so put an identifier of the end user there, never a key', what),
    };
  }
  return { ok: true, value };
}
