// The demo's gateway console (`startGateway({ demo: true })` only): the page that Modelgate's
// "Top up" opens (`npm start` sets modelgate.consoleUrl to it). It shows each key's balance, with
// the key masked, and a button that adds $10 to it: a top-up end to end, without a payment. A plain
// HTML form, no script; served on the api server's origin outside /v1, reached directly or through
// code-server's port proxy (relative links only).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayState } from './gateway-state';

export const CONSOLE_PATH = '/console';
export const TOP_UP_USD = 10;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const masked = (key: string) => (key.length > 10 ? `${key.slice(0, 6)}…${key.slice(-4)}` : '…');

/**
 * The top-up form's action, relative to the page's own address: `npm start`'s browser reaches the
 * page through code-server's port proxy (`/proxy/PORT/console`), where an absolute `/console/top-up`
 * would post to code-server itself ("Unsupported method POST").
 */
const topUpAction = (path: string) => (path === CONSOLE_PATH ? `${CONSOLE_PATH.slice(1)}/top-up` : 'top-up');

function page(state: GatewayState, notice: string, path: string): string {
  const rows = [...state.balances.entries()]
    .map(
      ([key, usd], i) =>
        `<tr><td><code>${escapeHtml(masked(key))}</code></td><td>$${usd.toFixed(2)}</td>` +
        `<td><form method="post" action="${topUpAction(path)}"><input type="hidden" name="key" value="${i}"><button type="submit">Add $${TOP_UP_USD}</button></form></td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gateway console (simulator)</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; form-action 'self'">
<style>body{font:15px system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em}td,th{padding:.4em .8em;text-align:left}button{font:inherit}</style></head>
<body><h1>Gateway console</h1><p>This is the <strong>Modelgate demo's simulator</strong>: balances are pretend money, and a top-up adds $${TOP_UP_USD} without a payment.
A real gateway's console is where you would buy credit for your API key.</p>
${notice ? `<p role="status"><strong>${escapeHtml(notice)}</strong></p>` : ''}
<table><thead><tr><th>API key</th><th>Balance</th><th></th></tr></thead><tbody>${rows}</tbody></table>
<p>Back in VS Code, the next request runs on the new balance.</p></body></html>`;
}

/** Serves the console page and its top-up form; false when the path is not the console's. */
export function handleConsole(state: GatewayState, req: IncomingMessage, res: ServerResponse, path: string, body: Buffer): boolean {
  if (!state.options.demo || (path !== CONSOLE_PATH && path !== `${CONSOLE_PATH}/top-up`)) return false;
  let notice = '';
  if (req.method === 'POST' && path === `${CONSOLE_PATH}/top-up`) {
    const index = Number(new URLSearchParams(body.toString('utf8')).get('key'));
    const key = [...state.balances.keys()][index];
    if (key !== undefined) {
      state.balances.set(key, (state.balances.get(key) ?? 0) + TOP_UP_USD);
      notice = `Added $${TOP_UP_USD} to ${masked(key)}.`;
    }
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(page(state, notice, path));
  return true;
}
