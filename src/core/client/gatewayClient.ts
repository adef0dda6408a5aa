// The gateway client: one small object per configuration, shared by chat, images and the
// model pickers. Plain Node; everything it talks to goes through the
// injected fetch, and every failure comes out as a GatewayError with the key redacted.
import { chatEventBatches, imageAnswerBytes, MAX_ERROR_BODY_BYTES, MAX_MODEL_LIST_BYTES, MAX_MODEL_LIST_CONTAINERS, readJsonAnswer } from './chatResponse';
import { completionFromEvents } from './chatStream';
import {
  abortedError,
  GatewayError,
  keyNotSendableError,
  keyUnreadableError,
  markAfterContent,
  missingKeyError,
  protocolError,
  toGatewayError,
} from './gatewayError';
import { errorFromHttp, type ErrorContext } from './errorMessages';
import { l10n } from '../l10n';
import { gatewayIdentity, invalidBaseUrlError, normalizeBaseUrl, redirectError } from './gatewayUrl';
import { DEFAULT_MAX_IMAGE_BYTES, decodeBase64Image, imageDownloadError, parseImageUrl, readImageBody } from './imageBytes';
import { redactErrorSecretsInPlace, redactSecrets } from './redact';
import { firstTokenBoundMs } from './firstTokenBound';
import type { ModelRequestParams } from './modelParams';
import { chatBody, imageBody, rejectsStreamOptions } from './requestBody';
import {
  abortableSleep,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  nextRetry,
  parseRetryAfter,
  unlessAborted,
  type RetryPolicy,
} from './retry';
import { Attempt, readBodyText, type Peer } from './transport';
import type { ChatCompletion, ChatRequest, ChatStreamEvent, GatewayClient, GatewayClientOptions, ImageRequest, ImageResponse, RequestOptions } from './types';
import { describeZodError, wire } from './wire';

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
  /** Largest single SSE line or event (default 64 MB); a bigger one fails the stream. */
  maxSseEventBytes?: number;
  /** A stream with keep-alives but no content for this long is stopped (default 5 x timeoutMs). */
  contentTimeoutMs?: number;
}
/** What the extension adds per request: headers, per-model parameters, the first-token bound. */
export interface GatewayClientExtras {
  /**
   * Extra headers for every request to the gateway (chat, models, images), never to an image
   * download host; `secrets` are the values redacted like the key. Read per request.
   */
  requestHeaders?: () => RequestHeaders | Promise<RequestHeaders>;
  /** `modelgate.models.<id>` request parameters of a model */
  modelParams?: (model: string) => ModelRequestParams | undefined;
  /**
   * The p90 of the channel's measured first-token times; given (even returning undefined), chat
   * requests get two bounds: a first-token bound that grows with the prompt, and the idle bound.
   */
  firstTokenP90Ms?: (model: string, channel: string | undefined) => number | undefined;
}
export interface RequestHeaders {
  headers: Record<string, string>;
  secrets: readonly string[];
}
export type GatewayClientOptionsWithTuning = GatewayClientOptions & GatewayClientTuning & GatewayClientExtras;

export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Base URLs known to reject `stream_options`, shared by every client in the process so a
 * rebuilt client (after a settings change) does not pay the failed request again.
 */
const streamOptionsRejectedBy = new Set<string>();

export function createGatewayClient(options: GatewayClientOptionsWithTuning): GatewayClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const baseUrlProblem = invalidBaseUrlError(baseUrl);
  const gateway = gatewayIdentity(baseUrl);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const contentTimeoutMs = options.contentTimeoutMs ?? timeoutMs * 5;
  const maxImageBytes = options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  const sseOptions = { maxEventBytes: options.maxSseEventBytes };
  const policy: RetryPolicy = {
    maxRetries: Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES),
    baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
    maxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_MAX_DELAY_MS,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
  };

  interface Credentials {
    key: string;
    extra: Record<string, string>;
    /** the key and the secret header values: redacted from every text that leaves */
    secrets: readonly string[];
  }

  /** The key and the extra headers, read per request (both can change at any time). */
  async function resolveKey(): Promise<Credentials> {
    const key = await readKey();
    let extra: RequestHeaders = { headers: {}, secrets: [] };
    if (options.requestHeaders) {
      try {
        extra = await options.requestHeaders();
      } catch {
        throw keyUnreadableError();
      }
    }
    return { key, extra: extra.headers, secrets: [key, ...extra.secrets] };
  }

  async function readKey(): Promise<string> {
    if (baseUrlProblem) throw baseUrlProblem;
    let raw: string | undefined;
    try {
      raw = typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey;
    } catch {
      throw keyUnreadableError();
    }
    const key = typeof raw === 'string' ? raw.trim() : '';
    if (!key) throw missingKeyError();
    // A key with spaces or control characters cannot go into a header, and fetch's own
    // error for that would quote the whole header value, key included.
    if (!/^[\x21-\x7e]+$/.test(key)) {
      throw keyNotSendableError();
    }
    return key;
  }

  function headers(cred: Credentials, accept: string, json: boolean): Record<string, string> {
    // The extra headers first: the ones the client sets always win (reserved names are refused in settings too).
    const h: Record<string, string> = { ...cred.extra, Authorization: `Bearer ${cred.key}`, Accept: accept };
    if (json) h['Content-Type'] = 'application/json';
    return h;
  }

  async function httpFailure(response: Response, attempt: Attempt, context: ErrorContext, secrets: readonly string[]): Promise<GatewayError> {
    const { text: raw } = await readBodyText(response, attempt, MAX_ERROR_BODY_BYTES, true);
    // Redacted before the body is parsed and cut to a length: a cut-off echo of the key must not pass.
    const text = redactSecrets(raw, secrets);
    return errorFromHttp(
      {
        status: response.status,
        statusText: redactSecrets(response.statusText, secrets),
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
    secrets: readonly string[],
    peer: Peer,
    run: (attempt: Attempt) => Promise<T>,
    firstTokenMs?: number,
  ): Promise<T> {
    for (let retries = 0; ;) {
      const attempt = new Attempt(signal, timeoutMs, peer, contentTimeoutMs, firstTokenMs);
      try {
        return await run(attempt);
      } catch (caught) {
        const next = nextRetry(redactErrorSecretsInPlace(toGatewayError(caught), secrets), retries, policy);
        if ('error' in next) throw redactErrorSecretsInPlace(next.error, secrets);
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
    cred: Credentials,
    context: ErrorContext,
  ): Promise<Response> {
    const response = await attempt.guard(
      () =>
        fetchImpl(`${baseUrl}${path}`, {
          method: init.method,
          headers: headers(cred, init.accept, init.body !== undefined),
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
    if (!response.ok) throw await httpFailure(response, attempt, context, cred.secrets);
    return response;
  }

  /** Two bounds for a chat request when the extension asks for them (firstTokenP90Ms given). */
  function firstTokenBound(request: ChatRequest, body: string): number | undefined {
    if (!options.firstTokenP90Ms) return undefined;
    return firstTokenBoundMs({
      promptChars: body.length,
      idleMs: timeoutMs,
      p90FirstTokenMs: options.firstTokenP90Ms(request.model, request.provider?.channel),
    });
  }

  /** A timeout after retries says how long the whole request took, not only the last attempt. */
  function withTotalTime(error: GatewayError, retries: number, started: number): GatewayError {
    if (error.kind !== 'timeout' || retries === 0) return error;
    error.message += ` ${l10n.t('({0} s since the request was sent, {1} retries included)', Math.round((performance.now() - started) / 1000), retries)}`;
    return error;
  }

  const gatewayPeer = {
    name: 'the gateway',
    where: baseUrl,
    hint: `${l10n.t('Check “modelgate.baseUrl” and your network connection.')}${options.connectHint ? ` ${options.connectHint}` : ''}`,
  };

  async function* streamChat(request: ChatRequest, requestOptions: RequestOptions = {}): AsyncGenerator<ChatStreamEvent> {
    const signal = requestOptions.signal;
    if (signal?.aborted) throw abortedError();
    const cred = await resolveKey();
    const key = cred.secrets;
    const context: ErrorContext = { model: request.model, operation: 'chat' };
    let includeUsage = !streamOptionsRejectedBy.has(gateway);
    const params = options.modelParams?.(request.model);
    const started = performance.now();
    const retryPolicy = requestOptions.maxRetries === undefined ? policy : { ...policy, maxRetries: Math.max(0, requestOptions.maxRetries) };
    for (let retries = 0; ;) {
      const body = chatBody(request, { stream: true, includeUsage, params });
      const attempt = new Attempt(signal, timeoutMs, gatewayPeer, contentTimeoutMs, firstTokenBound(request, body));
      let delivered = false;
      try {
        requestOptions.onSend?.();
        const response = await open(attempt, '/chat/completions', { method: 'POST', body, accept: 'text/event-stream' }, cred, context);
        for await (const batch of chatEventBatches(response, attempt, context, sseOptions)) {
          for (const event of batch) {
            if (!delivered) attempt.firstContent();
            delivered = true;
            yield event;
          }
        }
        return;
      } catch (caught) {
        // Stopped by the caller: no text from the network is in it, so there is nothing to redact
        // (completions stop requests at every keystroke; redacting a stack costs about a millisecond).
        if (signal?.aborted) {
          const stopped = abortedError();
          if (delivered) stopped.afterContent = true;
          throw stopped;
        }
        const error = redactErrorSecretsInPlace(toGatewayError(caught), key);
        // Once text is on the user's screen a retry would repeat or contradict it.
        if (delivered) throw redactErrorSecretsInPlace(markAfterContent(error), key);
        const said = `${error.serverMessage ?? ''} ${error.param ?? ''} ${error.code ?? ''}`;
        if (includeUsage && rejectsStreamOptions(error.status, said)) {
          includeUsage = false;
          streamOptionsRejectedBy.add(gateway);
          continue;
        }
        const next = nextRetry(error, retries, retryPolicy);
        if ('error' in next) throw redactErrorSecretsInPlace(withTotalTime(next.error, retries, started), key);
        retries++;
        requestOptions.onRetry?.(error, next.delayMs);
        attempt.dispose(); // close the failed attempt now, not after the wait
        await unlessAborted(policy.sleep(next.delayMs, signal), signal);
      } finally {
        attempt.dispose();
      }
    }
  }

  async function completeChat(request: ChatRequest, requestOptions: RequestOptions = {}): Promise<ChatCompletion> {
    const signal = requestOptions.signal;
    if (signal?.aborted) throw abortedError();
    const cred = await resolveKey();
    const context: ErrorContext = { model: request.model, operation: 'chat' };
    // The gateway's interface says streaming is on by default and does not show the non-streamed shape:
    // whatever comes back (JSON or SSE) is read the same way.
    const body = chatBody(request, { stream: false, includeUsage: false, params: options.modelParams?.(request.model) });
    const bound = firstTokenBound(request, body);
    return withRetries(
      signal,
      cred.secrets,
      gatewayPeer,
      async (attempt) => {
        const response = await open(attempt, '/chat/completions', { method: 'POST', body, accept: 'application/json, text/event-stream' }, cred, context);
        const events: ChatStreamEvent[] = [];
        for await (const batch of chatEventBatches(response, attempt, context, sseOptions)) {
          attempt.firstContent();
          events.push(...batch);
        }
        return completionFromEvents(events);
      },
      bound,
    );
  }

  async function generateImages(request: ImageRequest, requestOptions: RequestOptions = {}): Promise<ImageResponse> {
    const signal = requestOptions.signal;
    if (signal?.aborted) throw abortedError();
    const cred = await resolveKey();
    const context: ErrorContext = { model: request.model, operation: 'image generation' };
    return withRetries(signal, cred.secrets, gatewayPeer, async (attempt) => {
      const response = await open(attempt, '/images/generations', { method: 'POST', body: imageBody(request), accept: 'application/json' }, cred, context);
      const json = await readJsonAnswer(response, attempt, context, imageAnswerBytes(request.n, maxImageBytes));
      const parsed = wire().imageResponseSchema.safeParse(json);
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
    const cred = await resolveKey();
    return withRetries(signal, cred.secrets, gatewayPeer, async (attempt) => {
      const response = await open(attempt, '/models', { method: 'GET', accept: 'application/json' }, cred, {});
      const json = await readJsonAnswer(response, attempt, {}, MAX_MODEL_LIST_BYTES, MAX_MODEL_LIST_CONTAINERS);
      const parsed = wire().modelListSchema.safeParse(json);
      if (!parsed.success) throw protocolError(`the model list has the wrong shape, ${describeZodError(parsed.error)}`);
      const entries = Array.isArray(parsed.data) ? parsed.data : parsed.data.data;
      // Objects keep their other fields: the catalogue reads model facts from them.
      return entries.map((entry) => (typeof entry === 'string' ? { id: entry } : entry));
    });
  }

  async function imageBytes(image: { url?: string; b64_json?: string }, requestOptions: RequestOptions = {}): Promise<Uint8Array> {
    const signal = requestOptions.signal;
    if (signal?.aborted) throw abortedError();
    if (image.b64_json) return decodeBase64Image(image.b64_json, maxImageBytes);
    if (!image.url) throw protocolError('the image has neither url nor b64_json');
    const url = parseImageUrl(image.url);
    const imagePeer = {
      name: 'the image host',
      where: url.origin,
      hint: `${l10n.t('Check your network connection, or generate the image again.')}${options.connectHint ? ` ${options.connectHint}` : ''}`,
    };
    return withRetries(signal, [], imagePeer, async (attempt) => {
      // No Authorization header, no custom headers and no credentials: the key and the
      // gateway's headers go to the base URL only, even when the image URL is on the same origin.
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
