// Small helpers over node:http shared by the simulator's handlers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiError } from './api-error';

/** Benchmarks send prompts of several MB; anything far beyond that is refused like a real proxy would. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

export class BodyTooLarge extends Error {}

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ApiError): void {
  sendJson(res, error.status, error.body(), error.headers);
}

/** Resolves after `ms` (never, for Infinity) or as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Lets other work on the event loop run (the client often shares it, in-process). */
export const yieldToLoop = (): Promise<void> => new Promise((r) => setImmediate(r));
