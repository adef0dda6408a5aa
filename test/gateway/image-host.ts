// The image host: a separate origin (its own port) that serves generated images until their
// URL expires. It records every request, so tests can check that no key is ever sent here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayState } from './gateway-state';

export function handleImageHost(state: GatewayState, req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0] as string;
  state.requests.push({ server: 'images', method: req.method ?? 'GET', path, headers: { ...req.headers }, body: undefined, at: Date.now() });
  req.resume();
  const m = /^\/img\/([0-9a-f]+)\.png$/.exec(path);
  const png = m && (req.method === 'GET' || req.method === 'HEAD') ? state.images.get(m[1] as string) : undefined;
  if (!png) {
    // What an object store answers for an expired or unknown signed URL: not JSON.
    const text =
      '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NotFound</Code><Message>The specified image does not exist or has expired.</Message></Error>';
    res.writeHead(404, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(text) });
    res.end(text);
    return;
  }
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length, 'cache-control': 'private, max-age=60' });
  res.end(req.method === 'HEAD' ? undefined : png);
}
