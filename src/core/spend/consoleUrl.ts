// Validation of `modelgate.consoleUrl`, the gateway console where the balance is topped up.
// Only ever opened in the browser (never sent the key), but a link the user clicks to pay must
// not be plain http to another machine. Pure, unit-tested in plain Node.
import { isLoopbackHost } from '../client/baseUrl';
import { l10n } from '../l10n';

export type ConsoleUrlCheck = { kind: 'unset' } | { kind: 'ok'; url: string } | { kind: 'invalid'; message: string };

/** A function, so the hint is translated when shown (after activate wired the translator). */
export const consoleUrlHint = (): string =>
  l10n.t(
    'Set "modelgate.consoleUrl" in your user settings to the address of the gateway console where the API key was created, e.g. https://console.example.com.',
  );

export function checkConsoleUrl(raw: unknown): ConsoleUrlCheck {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return { kind: 'unset' };
  if (typeof raw !== 'string') return { kind: 'invalid', message: `${l10n.t('The console URL setting must be a text address.')} ${consoleUrlHint()}` };
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { kind: 'invalid', message: `${l10n.t('The console URL "{0}" is not a valid URL.', raw.slice(0, 200))} ${consoleUrlHint()}` };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    return { kind: 'invalid', message: `${l10n.t('The console URL must use https (got {0}).', u.protocol.replace(':', ''))} ${consoleUrlHint()}` };
  }
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    return {
      kind: 'invalid',
      message: l10n.t('The console URL uses plain http to {0}; a payment page must use https (http is allowed only for 127.0.0.1/localhost).', u.hostname),
    };
  }
  if (u.username || u.password) {
    return { kind: 'invalid', message: l10n.t('The console URL must not contain a user name or password.') };
  }
  return { kind: 'ok', url: u.href };
}
