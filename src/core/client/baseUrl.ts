// Validation of the gateway base URL. The key is sent to this URL, so it must be https unless it
// points at this machine (the simulator, a local proxy). Pure, unit-tested in plain Node.
import { l10n } from '../l10n';

export type BaseUrlCheck = { ok: true; url: string; origin: string } | { ok: false; message: string };

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export function checkBaseUrl(raw: unknown): BaseUrlCheck {
  const hint = () =>
    l10n.t('Set "modelgate.baseUrl" in your user settings to the gateway address ending in its version segment, e.g. https://gateway.example.com/v1.');
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, message: `${l10n.t('No gateway base URL is configured.')} ${hint()}` };
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { ok: false, message: `${l10n.t('The gateway base URL "{0}" is not a valid URL.', raw.slice(0, 200))} ${hint()}` };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    return { ok: false, message: `${l10n.t('The gateway base URL must use https (got {0}).', u.protocol.replace(':', ''))} ${hint()}` };
  }
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    return {
      ok: false,
      message: l10n.t(
        'The gateway base URL uses plain http to {0}: your API key would travel unencrypted. Use https (http is allowed only for 127.0.0.1/localhost).',
        u.hostname,
      ),
    };
  }
  if (u.username || u.password) {
    return {
      ok: false,
      message: l10n.t('The gateway base URL must not contain a user name or password. The API key is stored separately (Modelgate: Set API Key).'),
    };
  }
  if (u.search || u.hash) {
    return { ok: false, message: `${l10n.t('The gateway base URL must not contain a query or fragment.')} ${hint()}` };
  }
  const url = `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  return { ok: true, url, origin: u.origin };
}
