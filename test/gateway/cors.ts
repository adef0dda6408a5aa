// CORS for browser-hosted editors: the web extension (VS Code's web worker extension host) calls the
// gateway with fetch from the workbench's origin, so the browser needs Access-Control-* headers on
// every answer and a preflight answer for POST with Authorization / Content-Type.
// Option `cors`: 'loopback' (default) allows any http://127.0.0.1:PORT or http://localhost:PORT
// origin (the harness's workbench), an array allows exactly those origins, false sends no CORS
// headers at all (how a gateway without CORS looks to a browser).
import type { IncomingMessage, ServerResponse } from 'node:http';

export type CorsPolicy = 'loopback' | readonly string[] | false;

const LOOPBACK_ORIGIN = /^http:\/\/(127\.0\.0\.1|localhost)(:\d{1,5})?$/;

function allowed(policy: CorsPolicy, origin: string): boolean {
  if (policy === false) return false;
  if (policy === 'loopback') return LOOPBACK_ORIGIN.test(origin);
  return policy.includes(origin);
}

/** Adds CORS headers; answers a preflight itself. Returns true when the request is fully answered. */
export function applyCors(policy: CorsPolicy, req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  const ok = typeof origin === 'string' && allowed(policy, origin);
  if (ok) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', '*');
  }
  if (req.method === 'OPTIONS' && typeof req.headers['access-control-request-method'] === 'string') {
    if (ok) {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'authorization, content-type');
      res.setHeader('Access-Control-Max-Age', '600');
    }
    res.writeHead(204).end();
    return true;
  }
  return false;
}
