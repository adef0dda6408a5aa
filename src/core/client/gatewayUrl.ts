// The base URL as the client uses it: normalized, checked, and never left behind by a
// redirect (the key goes to this address only; see the credential-redirection notes).
// Whether http is acceptable for a given host is settled earlier, by ./baseUrl (settings).
import { GatewayError } from './gatewayError';
import { l10n } from '../l10n';

export function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** One key per gateway however the URL is spelled (host case, default port, trailing slashes). */
export function gatewayIdentity(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl;
  }
}

/** An error for a base URL that is not http(s), else undefined. */
export function invalidBaseUrlError(baseUrl: string): GatewayError | undefined {
  try {
    const url = new URL(baseUrl);
    if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
  } catch {
    // fall through
  }
  return new GatewayError('bad_request', l10n.t('The gateway base URL “{0}” is not an http(s) URL. Fix “modelgate.baseUrl”.', baseUrl.slice(0, 100)), {
    retryable: false,
    code: 'invalid_base_url',
  });
}

/** A 3xx from the base URL: said plainly, not followed (the key must not travel on). */
export function redirectError(response: Response): GatewayError {
  let target: string | undefined;
  const location = response.headers.get('location');
  if (location) {
    try {
      const url = new URL(location, response.url || undefined);
      target = `${url.origin}${url.pathname}`.slice(0, 120); // no query: it may carry tokens
    } catch {
      // keep the neutral wording
    }
  }
  return new GatewayError(
    'bad_request',
    target
      ? l10n.t(
          'The gateway redirected the request ({0}) to {1}. Modelgate does not send your key on to another address; if that address is right, put it in “modelgate.baseUrl”.',
          response.status,
          target,
        )
      : l10n.t(
          'The gateway redirected the request ({0}) to another address. Modelgate does not send your key on to another address; if that address is right, put it in “modelgate.baseUrl”.',
          response.status,
        ),
    { status: response.status, retryable: false, code: 'invalid_base_url' },
  );
}
