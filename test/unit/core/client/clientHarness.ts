// Shared helpers for the core client tests: a raw node:http server on 127.0.0.1 that writes
// exactly the bytes a test wants, a fake fetch that delivers chosen chunks, SSE builders.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatEventBatches } from '../../../../src/core/client/chatResponse';
import { Attempt } from '../../../../src/core/client/transport';
import { randomSplit } from '../../helpers';
import {
  createGatewayClient,
  GatewayError,
  type ChatStreamEvent,
  type GatewayClient,
  type GatewayClientOptionsWithTuning,
  type GatewayErrorKind,
} from '../../../../src/core';

export const KEY = 'sk-test-4f9c2e81d7b3a6';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): Record<string, unknown>;
  /** resolves when this request's socket closes */
  socketClosed: Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, request: RecordedRequest, index: number) => void | Promise<void>;

export interface TestServer {
  origin: string;
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const openServers = new Set<TestServer>();

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    const socketClosed = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        json: () => JSON.parse(body) as Record<string, unknown>,
        socketClosed,
      };
      requests.push(recorded);
      Promise.resolve(handler(req, res, recorded, requests.length - 1)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const testServer: TestServer = {
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        openServers.delete(testServer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  openServers.add(testServer);
  return testServer;
}

/** Mocha root hook: no test leaves a server listening. */
export async function closeAllServers(): Promise<void> {
  await Promise.all([...openServers].map((s) => s.close()));
}

afterEach(closeAllServers);

export const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Writes `bytes` in pieces of `size`, yielding to the event loop between them so they leave as separate packets. */
export async function writeInPieces(res: http.ServerResponse, bytes: Uint8Array | string, size: number): Promise<void> {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes);
  for (let i = 0; i < data.length; i += size) {
    res.write(data.subarray(i, i + size));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export function sseHead(res: http.ServerResponse, extra: Record<string, string> = {}): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', ...extra });
  res.flushHeaders();
}

// ---- SSE chunk builders (OpenAI wire shapes) ----

export const roleChunk = () => ({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant' } }] });
export const textChunk = (content: string) => ({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] });
export const finishChunk = (reason = 'stop') => ({ id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: reason }] });
export const usageChunk = (prompt: number, completion: number, cached?: number) => ({
  id: 'c1',
  choices: [],
  usage: {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(cached !== undefined ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  },
});
export const toolChunk = (fragments: { index: number; id?: string; name?: string; arguments?: string }[]) => ({
  id: 'c1',
  choices: [
    {
      index: 0,
      delta: {
        tool_calls: fragments.map((f) => ({
          index: f.index,
          ...(f.id ? { id: f.id, type: 'function' } : {}),
          function: { ...(f.name ? { name: f.name } : {}), ...(f.arguments !== undefined ? { arguments: f.arguments } : {}) },
        })),
      },
    },
  ],
});

export function sseEvent(data: unknown, eol = '\n'): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}${eol}${eol}`;
}

/** A whole stream: each payload as an event, then `data: [DONE]`. */
export function sseStream(payloads: unknown[], { eol = '\n', done = true } = {}): string {
  return payloads.map((p) => sseEvent(p, eol)).join('') + (done ? sseEvent('[DONE]', eol) : '');
}

// ---- fake fetch that delivers exactly the chunks given (deterministic splitting) ----

export interface FakeFetchCall {
  url: string;
  init: RequestInit;
}

export function chunkedFetch(
  chunks: (Uint8Array | string)[],
  { status = 200, headers = { 'content-type': 'text/event-stream' } as Record<string, string> } = {},
): { fetch: typeof globalThis.fetch; calls: FakeFetchCall[] } {
  const calls: FakeFetchCall[] = [];
  const encoder = new TextEncoder();
  const fetchImpl = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i >= chunks.length) return controller.close();
        const c = chunks[i++]!;
        controller.enqueue(typeof c === 'string' ? encoder.encode(c) : c);
      },
    });
    return new Response(body, { status, headers });
  }) as typeof globalThis.fetch;
  return { fetch: fetchImpl, calls };
}

/** Splits bytes into pieces of `size`. */
export function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** Splits bytes at random places (`rnd`: a seeded generator): pieces of 1 to `max` bytes, so that 1 splits every UTF-8 character and CRLF. */
export function randomPieces(bytes: Uint8Array, rnd: () => number, max: number): Uint8Array[] {
  return randomSplit(bytes, rnd, max);
}

// ---- client + assertions ----

/** Records back-off waits instead of sleeping (no timing in tests: count and inspect). */
export function sleepRecorder(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

export function client(baseUrl: string, extra: Partial<GatewayClientOptionsWithTuning> = {}): GatewayClient {
  return createGatewayClient({ baseUrl, apiKey: KEY, sleep: async () => undefined, random: () => 0, ...extra });
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Runs `work`, asserts it fails with a GatewayError of `kind`, returns the error. */
export async function expectGatewayError(work: Promise<unknown> | (() => Promise<unknown>), kind: GatewayErrorKind): Promise<GatewayError> {
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (error) {
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    assert.equal(error.kind, kind, `kind (message: ${error.message})`);
    return error;
  }
  assert.fail(`expected a GatewayError of kind ${kind}, but it succeeded`);
}

/** Streams and collects; on failure, returns the events seen so far along with the error. */
export async function collectUntilError<T>(iterable: AsyncIterable<T>): Promise<{ events: T[]; error?: unknown }> {
  const events: T[] = [];
  try {
    for await (const item of iterable) events.push(item);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

export function textOf(events: { type: string; text?: string }[]): string {
  return events.map((e) => (e.type === 'text' ? e.text : '')).join('');
}

/** A minimal valid PNG (1x1) and JPEG/WebP headers for magic-byte checks. */
export const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
export const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
export const WEBP_HEAD = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

/** globalThis.fetch that counts how often the client called it (attempts, independent of server timing). */
export function countingFetch(): { fetch: typeof globalThis.fetch; count(): number } {
  let calls = 0;
  return {
    fetch: ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      calls++;
      return fetch(input, init);
    }) as typeof globalThis.fetch,
    count: () => calls,
  };
}

/** What a stream of raw chunks decodes to (events, and the error it ends with): `fast` on or off, for comparing the decode paths. */
const decodePeer = { name: 'the gateway', where: 'http://127.0.0.1:9/v1', hint: '' };

export interface DecodeOutcome {
  events: ChatStreamEvent[];
  error?: { kind: string; message: string };
}

export async function decodeStream(chunks: Uint8Array[], fast: boolean): Promise<DecodeOutcome> {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
  const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  const attempt = new Attempt(undefined, 60_000, decodePeer);
  const events: ChatStreamEvent[] = [];
  try {
    for await (const batch of chatEventBatches(response, attempt, { model: 'm', operation: 'chat' }, { fast })) events.push(...batch);
    return { events };
  } catch (error) {
    assert.ok(error instanceof GatewayError, `not a GatewayError: ${String(error)}`);
    return { events, error: { kind: error.kind, message: error.message } };
  } finally {
    attempt.dispose();
  }
}
