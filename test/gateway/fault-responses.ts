// What each fault does to a response. Upfront faults stand in for a proxy in front of the
// service (they answer before authentication, like a CDN would); response faults damage or
// pace a body the service did produce.
import type { ServerResponse } from 'node:http';
import { ApiError } from './api-error';
import type { ResponseFault, UpfrontFault } from './faults';
import { sendError, yieldToLoop } from './http-io';
import { ResponseSender } from './response-sender';

// A CDN-style error page: long, with markup and a script, so a client that shows it raw is caught.
export const HTML_502_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>502 Bad Gateway | edge.example</title>
<style>body{font-family:sans-serif;margin:4em}h1{color:#b00}.ray{color:#888}</style>
<script>window.__edge={ray:"8c1f2e3d4a5b6c7d"};</script></head>
<body><h1>Error 502</h1><h2>Bad gateway</h2>
<p>The web server reported a bad gateway error.</p>
<p class="ray">Ray ID: 8c1f2e3d4a5b6c7d &bull; edge.example</p>
</body></html>`;

/** Default pause between keep-alive comments (servers and proxies send one every few seconds). */
export const KEEP_ALIVE_INTERVAL_MS = 1_000;
/**
 * How much an endless line sends at most before it stops sending (and stays open): the simulator
 * often runs in the test's own process, and a client without a line cap must not take the test
 * process down with it. Well above any sane per-line cap.
 */
export const ENDLESS_LINE_MAX_BYTES = 96 * 1024 * 1024;
const ENDLESS_PIECE = Buffer.alloc(64 * 1024, 'x');

/** Sends an SSE comment now and then, and nothing else, until the client goes away. */
export async function sendKeepAlives(sender: ResponseSender, intervalMs = KEEP_ALIVE_INTERVAL_MS): Promise<void> {
  while (!sender.gone) {
    await sender.write(': keep-alive\n\n');
    await sender.stall(intervalMs);
  }
}

/** Starts `prefix` and never ends its line: bytes without a newline until the client goes (or maxBytes). */
export async function sendEndlessLine(sender: ResponseSender, prefix: string, maxBytes = ENDLESS_LINE_MAX_BYTES): Promise<void> {
  await sender.write(prefix);
  let sent = 0;
  while (!sender.gone && sent < maxBytes) {
    await sender.write(ENDLESS_PIECE);
    sent += ENDLESS_PIECE.length;
    await yieldToLoop();
  }
  await sender.stall(undefined); // keep the line open: no newline, no end
}

export const streamErrorBody = (message?: string) => ({
  error: { message: message ?? 'The upstream model stopped unexpectedly. Please retry.', type: 'server_error', param: null, code: 'stream_error' },
});

/** Answers an upfront fault. Returns true when the request then goes on normally (a finite stall). */
export async function applyUpfrontFault(fault: UpfrontFault, res: ServerResponse, signal: AbortSignal): Promise<boolean> {
  switch (fault.kind) {
    case 'stall':
      await new ResponseSender(res, signal).stall(fault.ms);
      return fault.ms !== undefined && !signal.aborted;
    case 'html502':
      res.writeHead(502, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(HTML_502_PAGE) });
      res.end(HTML_502_PAGE);
      return false;
    case 'empty':
      res.writeHead(fault.status, { 'content-length': '0' });
      res.end();
      return false;
    case 'rateLimit':
      sendError(
        res,
        new ApiError(
          429,
          'Rate limit reached for requests. Please retry after the time in the Retry-After header.',
          'rate_limit_error',
          null,
          'rate_limit_exceeded',
          {
            'retry-after': fault.retryAfter,
          },
        ),
      );
      return false;
    case 'status': {
      const body = fault.body ?? JSON.stringify({ error: { message: `Simulated status ${fault.status}.`, type: 'server_error', param: null, code: null } });
      res.writeHead(fault.status, { 'content-type': fault.contentType ?? 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return false;
    }
  }
}

/**
 * Sends a JSON body with a response fault applied. Without chunks to count, the stream faults
 * act on the body itself: `drop` and `stallAfter` cut or pause it half-way, `malformed` sends
 * invalid JSON, `streamError` a 200 whose body is an error object (some gateways do this).
 */
export async function sendJsonWithFault(res: ServerResponse, signal: AbortSignal, body: unknown, fault: ResponseFault | undefined): Promise<void> {
  let text = JSON.stringify(body);
  if (fault?.kind === 'malformed') text = '{not json';
  if (fault?.kind === 'streamError') text = JSON.stringify(streamErrorBody(fault.message));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  const sender = new ResponseSender(res, signal, fault?.kind === 'drip' ? fault.delayMs : undefined);
  if (fault?.kind === 'drop' || fault?.kind === 'stallAfter') {
    const bytes = Buffer.from(text);
    const half = Math.floor(bytes.length / 2); // may fall inside a character: clients must cope
    await sender.write(bytes.subarray(0, half));
    if (fault.kind === 'drop') return sender.drop();
    await sender.stall(fault.ms);
    await sender.write(bytes.subarray(half));
    sender.end();
    return;
  }
  if (fault?.kind === 'keepAlive') return sendKeepAlives(sender, fault.intervalMs); // JSON whitespace never ends
  if (fault?.kind === 'endlessLine') return sendEndlessLine(sender, '{"data":"', fault.maxBytes);
  await sender.write(text);
  sender.end();
}
