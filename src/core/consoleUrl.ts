// Validation of `modelgate.consoleUrl`, the gateway console where the balance is topped up.
// Only ever opened in the browser (never sent the key), but a link the user clicks to pay must
// not be plain http to another machine. Pure, unit-tested in plain Node.
import { isLoopbackHost } from './baseUrl';

export type ConsoleUrlCheck = { kind: 'unset' } | { kind: 'ok'; url: string } | { kind: 'invalid'; message: string };

export const CONSOLE_URL_HINT =
  'Set "modelgate.consoleUrl" in your user settings to the address of the gateway console where the API key was created, e.g. https://console.example.com.';

export function checkConsoleUrl(raw: unknown): ConsoleUrlCheck {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return { kind: 'unset' };
  if (typeof raw !== 'string') return { kind: 'invalid', message: `The console URL setting must be a text address. ${CONSOLE_URL_HINT}` };
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { kind: 'invalid', message: `The console URL "${raw.slice(0, 200)}" is not a valid URL. ${CONSOLE_URL_HINT}` };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    return { kind: 'invalid', message: `The console URL must use https (got ${u.protocol.replace(':', '')}). ${CONSOLE_URL_HINT}` };
  }
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    return { kind: 'invalid', message: `The console URL uses plain http to ${u.hostname}; a payment page must use https (http is allowed only for 127.0.0.1/localhost).` };
  }
  if (u.username || u.password) {
    return { kind: 'invalid', message: 'The console URL must not contain a user name or password.' };
  }
  return { kind: 'ok', url: u.href };
}
