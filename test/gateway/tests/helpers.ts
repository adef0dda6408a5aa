// Shared helpers of the simulator's tests: a simulator per suite, requests with or without a
// key, and a small SSE reader that keeps the raw text so tests can check the framing itself.
import { startGateway, type GatewayOptions, type RunningGateway } from '../index';

export const KEY = 'sk-test';

/** Starts a simulator before the suite and closes it after; `ctx.gw` is the running one. */
export function useGateway(options: GatewayOptions = {}): { gw: RunningGateway } {
  const ctx = {} as { gw: RunningGateway };
  before(async () => {
    ctx.gw = await startGateway(options);
  });
  after(async () => {
    await ctx.gw?.close();
  });
  return ctx;
}

export function post(
  gw: RunningGateway,
  path: string,
  body: unknown,
  init: { key?: string | null; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
  const key = init.key === undefined ? KEY : init.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return fetch(gw.baseUrl + path, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body), signal: init.signal });
}

export const chat = (gw: RunningGateway, body: Record<string, unknown>, init?: Parameters<typeof post>[3]) =>
  post(gw, '/chat/completions', { model: 'flagship-text', ...body }, init);

export const images = (gw: RunningGateway, body: Record<string, unknown>, init?: Parameters<typeof post>[3]) =>
  post(gw, '/images/generations', { model: 'image-restricted', prompt: 'a lighthouse at dusk', ...body }, init);

export const user = (content: string) => ({ role: 'user', content });

export interface SseEvent {
  /** the `data:` value, or undefined for a comment */
  data?: string;
  comment?: string;
}

/** Splits raw SSE text into events, accepting LF and CRLF framing. */
export function parseSse(raw: string): SseEvent[] {
  return raw
    .split(/\r?\n\r?\n/)
    .filter((block) => block.length > 0)
    .map((block) => {
      const line = block.split(/\r?\n/)[0] as string;
      return line.startsWith(':') ? { comment: line.slice(1).trim() } : { data: line.replace(/^data: ?/, '') };
    });
}

export interface StreamSummary {
  raw: string;
  events: SseEvent[];
  /** parsed JSON of every data event except [DONE] and unparseable ones */
  chunks: any[];
  done: boolean;
  text: string;
  /** the error reading the body ended with, if any (a dropped connection) */
  error?: unknown;
}

export function summarize(raw: string, error?: unknown): StreamSummary {
  const events = parseSse(raw);
  const chunks: any[] = [];
  for (const e of events) {
    if (e.data === undefined || e.data === '[DONE]') continue;
    try {
      chunks.push(JSON.parse(e.data));
    } catch {
      /* malformed on purpose in some tests */
    }
  }
  const text = chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('');
  return { raw, events, chunks, done: events.some((e) => e.data === '[DONE]'), text, error };
}

/** Reads a whole streamed body; a connection cut mid-body ends it with `error` set. */
export async function readStream(res: Response): Promise<StreamSummary> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let raw = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      raw += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return summarize(raw, error);
  }
  return summarize(raw + decoder.decode());
}

/** Resolves to 'timeout' if `promise` has not settled after `ms` (used to show that nothing arrives). */
export function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)))]).finally(() => clearTimeout(timer));
}

/** The content of every content-bearing chunk, in order. */
export const contentChunks = (s: StreamSummary): string[] =>
  s.chunks.filter((c) => typeof c.choices?.[0]?.delta?.content === 'string').map((c) => c.choices[0].delta.content as string);

export async function errorOf(res: Response): Promise<{ message: string; type: string; param: string | null; code: string | null }> {
  const body = (await res.json()) as { error: { message: string; type: string; param: string | null; code: string | null } };
  return body.error;
}
