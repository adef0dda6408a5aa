// The gateway client: one small object per configuration, shared by chat, images and the
// model pickers. Plain Node (never imports vscode); everything it talks to goes through the
// injected fetch, and every failure comes out as a GatewayError with the key redacted.
import { ChatStreamAssembler, completionFromEvents, completionFromJsonText, eventsFromCompletion, inBandError } from './chatStream';
import { summarizeHtml } from './errorBody';
import { abortedError, errorFromHttp, GatewayError, missingKeyError, protocolError, type ErrorContext } from './errors';
import { DEFAULT_MAX_IMAGE_BYTES, decodeBase64Image, imageDownloadError, parseImageUrl, readImageBody } from './imageBytes';
import { redactErrorInPlace } from './redact';
import { chatBody, imageBody, rejectsStreamOptions } from './requestBody';
import {
  abortableSleep,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  nextRetry,
  parseRetryAfter,
  type RetryPolicy,
} from './retry';
import type { EventSourceMessage } from 'eventsource-parser';
import { createSseDecoder } from './sse';
import { Attempt, bodyChunks, readBodyText, type Peer } from './transport';
import type {
  ChatCompletion,
  ChatRequest,
  ChatStreamEvent,
  GatewayClient,
  GatewayClientOptions,
  ImageRequest,
  ImageResponse,
  RequestOptions,
} from './types';
import { describeZodError, imageResponseSchema, modelListSchema } from './wire';

/** Knobs for tests and benchmarks on top of the public options. */
export interface GatewayClientTuning {
  /** First back-off delay (default 500 ms); doubles per retry. */
  retryBaseDelayMs?: number;
  /** Back-off cap (default 8 s). */
  retryMaxDelayMs?: number;
  /** A Retry-After longer than this is not waited out (default 30 s). */
  maxRetryAfterMs?: number;
  /** Replaces the back-off wait (tests record the delays instead of waiting). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source (default Math.random). */
  random?: () => number;
  /** Largest image imageBytes() accepts (default 25 MB). */
  maxImageBytes?: number;
}
export type GatewayClientOptionsWithTuning = GatewayClientOptions & GatewayClientTuning;

export const DEFAULT_TIMEOUT_MS = 60_000;
/** Error bodies are read only this far: enough for any message, not for a runaway page. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** A JSON answer (b64 images included) larger than this is refused. */
const MAX_JSON_BODY_BYTES = 128 * 1024 * 1024;

/**
 * Base URLs known to reject `stream_options`, shared by every client in the process so a
 * rebuilt client (after a settings change) does not pay the failed request again.
 */
const streamOptionsRejectedBy = new Set<string>();

export function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** Same gateway, however the URL is spelled (host case, default port, trailing slashes). */
function usageMemoryKeyOf(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl;
  }
}

function invalidBaseUrl(baseUrl: string): GatewayError | undefined {
  try {
    const url = new URL(baseUrl);
    if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
  } catch {
    // fall through
  }
  return new GatewayError('bad_request', `The gateway base URL “${baseUrl.slice(0, 100)}” is not an http(s) URL. Fix “modelgate.baseUrl”.`, {
    retryable: false,
    code: 'invalid_base_url',
  });
}

/** A 3xx from the base URL: said plainly, not followed (the key must not travel on). */
function redirectError(response: Response): GatewayError {
  let target = 'another address';
  const location = response.headers.get('location');
  if (location) {
    try {
      const url = new URL(location, response.url || undefined);
      target = `${url.origin}${url.pathname}`.slice(0, 120);
    } catch {
      // keep the neutral wording
    }
  }
  return new GatewayError(
    'bad_request',
    `The gateway redirected the request (${response.status}) to ${target}. Modelgate does not send your key on to another address; if that address is right, put it in “modelgate.baseUrl”.`,
    { status: response.status, retryable: false, code: 'invalid_base_url' },
  );
}

function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const text = error instanceof Error ? error.message : String(error);
  return new GatewayError('protocol', `Unexpected failure while talking to the gateway (${text.slice(0, 160)}).`, { retryable: false });
}

/** After content was delivered nothing is retried; the error says the answer is incomplete. */
function afterContent(error: GatewayError): GatewayError {
  if (error.kind !== 'network' && error.kind !== 'timeout' && error.kind !== 'protocol') {
    error.afterContent = true;
    return error;
  }
  const wrapped = new GatewayError(error.kind, `${error.message.replace(/\.$/, '')}. The answer above is incomplete.`, {
    status: error.status,
    retryable: error.retryable,
    code: error.code,
    serverMessage: error.serverMessage,
    afterContent: true,
  });
  return wrapped;
}

/** Resolves when `promise` does, rejects with 'aborted' the moment `signal` fires. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(abortedError());
    const onAbort = () => reject(abortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => signal.removeEventListener('abort', onAbort);
    promise.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}

export function createGatewayClient(options: GatewayClientOptionsWithTuning): GatewayClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const baseUrlProblem = invalidBaseUrl(baseUrl);
  const usageMemoryKey = usageMemoryKeyOf(baseUrl);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxImageBytes = options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  const policy: RetryPolicy = {
    maxRetries: Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES),
    baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
    maxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_MAX_DELAY_MS,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
  };

  /** The key, read per request (it can change at any time); never sent if missing. */
  async function resolveKey(): Promise<string> {
    if (baseUrlProblem) throw baseUrlProblem;
    let raw: string | undefined;
    try {
      raw = typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey;
    } catch {
      throw new GatewayError('auth', 'Could not read the Modelgate API key. Set it again with “Modelgate: Set API Key”.', { retryable: false });
    }
    const key = typeof raw === 'string' ? raw.trim() : '';
    if (!key) throw missingKeyError();
    // A key with spaces or control characters cannot go into a header, and fetch's own
    // error for that would quote the whole header value, key included.
    if (!/^[\x21-\x7e]+$/.test(key)) {
      throw new GatewayError('auth', 'The API key contains spaces or characters that cannot be sent. Set it again with “Modelgate: Set API Key”.', {
        retryable: false,
      });
    }
    return key;
  }

  function headers(key: string, accept: string, json: boolean): Record<string, string> {
    const h: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: accept };
    if (json) h['Content-Type'] = 'application/json';
    return h;
  }

  async function httpFailure(response: Response, attempt: Attempt, context: ErrorContext): Promise<GatewayError> {
    const { text } = await readBodyText(response, attempt, MAX_ERROR_BODY_BYTES, true);
    return errorFromHttp(
      {
        status: response.status,
        statusText: response.statusText,
        contentType: response.headers.get('content-type'),
        body: text,
        retryAfterMs: parseRetryAfter(response.headers),
      },
      context,
    );
  }

  /**
   * Runs `attempt` until it succeeds, fails for good, or retries run out. Every error that
   * leaves here is a GatewayError with `secret` redacted from its texts.
   */
  async function withRetries<T>(
    signal: AbortSignal | undefined,
    secret: string | undefined,
    peer: Peer,
    run: (attempt: Attempt) => Promise<T>,
  ): Promise<T> {
    for (let retries = 0; ; ) {
      const attempt = new Attempt(signal, timeoutMs, peer);
      try {
        return await run(attempt);
      } catch (caught) {
        const next = nextRetry(redactErrorInPlace(toGatewayError(caught), secret), retries, policy);
        if ('error' in next) throw redactErrorInPlace(next.error, secret);
        retries++;
        await unlessAborted(policy.sleep(next.delayMs, signal), signal);
      } finally {
        attempt.dispose();
      }
    }
  }

  /** Opens a request to the base URL; a non-2xx status becomes a GatewayError. */
  async function open(
    attempt: Attempt,
    path: string,
    init: { method: 'GET' | 'POST'; body?: string; accept: string },
    key: string,
    context: ErrorContext,
  ): Promise<Response> {
    const response = await attempt.guard(
      () =>
        fetchImpl(`${baseUrl}${path}`, {
          method: init.method,
          headers: headers(key, init.accept, init.body !== undefined),
          body: init.body,
          signal: attempt.signal,
          // Never follow a redirect: it would re-send the key to wherever it points.
          redirect: 'manual',
        }),
      'connect',
    );
    if (response.status >= 300 && response.status < 400) {
      response.body?.cancel().catch(() => undefined);
      throw redirectError(response);
    }
    if (!response.ok) throw await httpFailure(response, attempt, context);
    return response;
  }

  async function readJsonText(response: Response, attempt: Attempt): Promise<string> {
    const { text, truncated } = await readBodyText(response, attempt, MAX_JSON_BODY_BYTES);
    if (truncated) throw protocolError('the answer is larger than 128 MB');
    return text;
  }

  /**
   * Chat events of one 2xx response, whatever form the server chose: SSE (asked for or not),
   * a JSON answer, or an HTML page that a proxy put there instead. A missing or odd
   * content type is decided by the first bytes. Events come in batches, one per network
   * chunk: one async hop per chunk instead of per event keeps 100k small deltas cheap.
   */
  async function* chatEventBatches(response: Response, attempt: Attempt, context: ErrorContext): AsyncGenerator<ChatStreamEvent[]> {
    const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
    let mode: 'sse' | 'json' | 'html' | undefined = contentType.includes('text/event-stream')
      ? 'sse'
      : contentType.includes('json')
        ? 'json'
        : contentType.includes('html')
          ? 'html'
          : undefined;
    const sse = createSseDecoder();
    const assembler = new ChatStreamAssembler(context);
    /** Events of `messages`; if one of them is bad, the events before it still go out first. */
    function* handleAll(messages: EventSourceMessage[]): Generator<ChatStreamEvent[], boolean> {
      const batch: ChatStreamEvent[] = [];
      try {
        for (const message of messages) {
          batch.push(...assembler.handle(message));
          if (assembler.isDone) {
            batch.push(...assembler.finish());
            break;
          }
        }
      } catch (error) {
        if (batch.length) yield batch;
        throw error;
      }
      if (batch.length) yield batch;
      return assembler.isDone;
    }
    const textDecoder = new TextDecoder();
    let text = '';
    let bytes = 0;
    for await (const chunk of bodyChunks(response, attempt)) {
      if (mode === undefined) {
        const start = new TextDecoder().decode(chunk.subarray(0, 32)).trimStart();
        mode = /^[{[]/.test(start) ? 'json' : start.startsWith('<') ? 'html' : 'sse';
      }
      if (mode === 'sse') {
        if (yield* handleAll(sse.push(chunk))) return; // [DONE]: leaving the loop cancels the rest of the body
        continue;
      }
      bytes += chunk.byteLength;
      if (mode === 'html' && bytes > MAX_ERROR_BODY_BYTES) break;
      if (bytes > MAX_JSON_BODY_BYTES) throw protocolError('the answer is larger than 128 MB');
      text += textDecoder.decode(chunk, { stream: true });
    }
    text += textDecoder.decode();
    if (mode === 'json') {
      yield eventsFromCompletion(completionFromJsonText(text, context));
      return;
    }
    if (mode === 'html') {
      throw new GatewayError(
        'protocol',
        `The gateway (or a proxy in front of it) returned an HTML page instead of an answer (${summarizeHtml(text) || 'no title'}). Check “modelgate.baseUrl”.`,
        { retryable: false },
      );
    }
    if (yield* handleAll(sse.end())) return;
    yield assembler.finish();
  }

  const gatewayPeer = {
    name: 'the gateway',
    where: baseUrl,
    hint: 'Check “modelgate.baseUrl” and your network connection.',
  };

  async function* streamChat(request: ChatRequest, requestOptions: RequestOptions = {}): AsyncGenerator<ChatStreamEvent> {
    const signal = requestOptions.signal;
    if (signal?.aborted) throw abortedError();
    const key = await resolveKey();
    const context: ErrorContext = { model: request.model, operation: 'chat' };
    let includeUsage = !streamOptionsRejectedBy.has(usageMemoryKey);
    for (let retries = 0; ; ) {
      const attempt = new Attempt(signal, timeoutMs, gatewayPeer);
      let delivered = false;
      try {
        const body = chatBody(request, { stream: true, includeUsage });
        const response = await open(attempt, '/chat/completions', { method: 'POST', body, accept: 'text/event-stream' }, key, context);
        for await (const batch of chatEventBatches(response, attempt, context)) {
          for (const event of batch) {
            delivered = true;
            yield event;
          }
        }
        return;
      } catch (caught) {
        const error = redactErrorInPlace(toGatewayError(caught), key);
        // Once text is on the user's screen a retry would repeat or contradict it.
        if (delivered) throw redactErrorInPlace(afterContent(error), key);
        const said = `${error.serverMessage ?? ''} ${error.param ?? ''} ${error.code ?? ''}`;
        if (includeUsage && rejectsStreamOptions(error.status, said)) {
          includeUsage = false;
          streamOptionsRejectedBy.add(usageMemoryKey);
          continue;
        }
        const next = nextRetry(error, retries, policy);
        if ('error' in next) throw redactErrorInPlace(next.error, key);
        retries++;
        attempt.dispose();
        await unlessAborted(policy.sleep(next.delayMs, signal), signal);
      } finally {
        attempt.dispose();
      }
    }
  }

  async function completeChat(request: ChatRequest, requestOptions: RequestOptions = {}): Promise<ChatCompletion> {
    const signal = requestOptions.signal;
    if (signal?.aborted) throw abortedError();
    const key = await resolveKey();
    const context: ErrorContext = { model: request.model, operation: 'chat' };
    return withRetries(signal, key, gatewayPeer, async (attempt) => {
      // The spec says streaming is on by default and does not show the non-streamed shape:
      // whatever comes back (JSON or SSE) is read the same way.
      const body = chatBody(request, { stream: false, includeUsage: false });
      const response = await open(attempt, '/chat/completions', { method: 'POST', body, accept: 'application/json, text/event-stream' }, key, context);
      const events: ChatStreamEvent[] = [];
      for await (const batch of chatEventBatches(response, attempt, context)) events.push(...batch);
      return completionFromEvents(events);
    });
  }

  function parseJsonAnswer(text: string, context: ErrorContext): unknown {
    const trimmed = text.trimStart();
    if (trimmed.startsWith('<')) {
      throw new GatewayError(
        'protocol',
        `The gateway (or a proxy in front of it) returned an HTML page instead of an answer (${summarizeHtml(trimmed) || 'no title'}). Check “modelgate.baseUrl”.`,
        { retryable: false },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw protocolError(`the answer is not JSON: ${text.slice(0, 60)}`);
    }
    const error = inBandError(json, context);
    if (error) throw error;
    return json;
  }

  async function generateImages(request: ImageRequest, requestOptions: RequestOptions = {}): Promise<ImageResponse> {
    const signal = requestOptions.signal;
    if (signal?.aborted) throw abortedError();
    const key = await resolveKey();
    const context: ErrorContext = { model: request.model, operation: 'image generation' };
    return withRetries(signal, key, gatewayPeer, async (attempt) => {
      const response = await open(attempt, '/images/generations', { method: 'POST', body: imageBody(request), accept: 'application/json' }, key, context);
      const json = parseJsonAnswer(await readJsonText(response, attempt), context);
      const parsed = imageResponseSchema.safeParse(json);
      if (!parsed.success) throw protocolError(`the image answer has the wrong shape, ${describeZodError(parsed.error)}`);
      return {
        created: parsed.data.created,
        data: parsed.data.data.map((image) => ({
          ...(image.url ? { url: image.url } : {}),
          ...(image.b64_json ? { b64_json: image.b64_json } : {}),
          ...(image.revised_prompt ? { revised_prompt: image.revised_prompt } : {}),
        })),
      };
    });
  }

  async function listModels(requestOptions: RequestOptions = {}): Promise<{ id: string }[]> {
    const signal = requestOptions.signal;
    if (signal?.aborted) throw abortedError();
    const key = await resolveKey();
    return withRetries(signal, key, gatewayPeer, async (attempt) => {
      const response = await open(attempt, '/models', { method: 'GET', accept: 'application/json' }, key, {});
      const json = parseJsonAnswer(await readJsonText(response, attempt), {});
      const parsed = modelListSchema.safeParse(json);
      if (!parsed.success) throw protocolError(`the model list has the wrong shape, ${describeZodError(parsed.error)}`);
      const entries = Array.isArray(parsed.data) ? parsed.data : parsed.data.data;
      return entries.map((entry) => ({ id: typeof entry === 'string' ? entry : entry.id }));
    });
  }

  async function imageBytes(image: { url?: string; b64_json?: string }, requestOptions: RequestOptions = {}): Promise<Uint8Array> {
    const signal = requestOptions.signal;
    if (signal?.aborted) throw abortedError();
    if (image.b64_json) return decodeBase64Image(image.b64_json, maxImageBytes);
    if (!image.url) throw protocolError('the image has neither url nor b64_json');
    const url = parseImageUrl(image.url);
    const imagePeer = { name: 'the image host', where: url.origin, hint: 'Check your network connection, or generate the image again.' };
    return withRetries(signal, undefined, imagePeer, async (attempt) => {
      // No Authorization header and no credentials: the key goes to the base URL only,
      // even when the image URL happens to be on the same origin.
      const response = await attempt.guard(
        () =>
          fetchImpl(url.href, {
            method: 'GET',
            headers: { Accept: 'image/png, image/jpeg, image/webp, image/*;q=0.8' },
            credentials: 'omit',
            referrerPolicy: 'no-referrer',
            redirect: 'follow',
            signal: attempt.signal,
          }),
        'connect',
      );
      if (!response.ok) {
        response.body?.cancel().catch(() => undefined);
        throw imageDownloadError(response.status, response.statusText, parseRetryAfter(response.headers));
      }
      return readImageBody(response, attempt, maxImageBytes);
    });
  }

  return { streamChat, completeChat, generateImages, imageBytes, listModels };
}
