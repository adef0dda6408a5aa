// Reading a 2xx answer of the chat endpoint, whatever form the server chose: SSE (asked for
// or not: the gateway's interface says streaming is on by default), a JSON answer, or an HTML page that a
// proxy put there instead. A missing or odd content type is decided by the first bytes.
import { ChatStreamAssembler, completionFromJsonText, eventsFromCompletion, inBandError } from './chatStream';
import { summarizeHtml } from './errorBody';
import { htmlInsteadOfAnswerError, protocolError } from './gatewayError';
import { type ErrorContext } from './errorMessages';
import { createSseDecoder, DEFAULT_MAX_EVENT_BYTES, formatBytes, SseLimitError, type SseMessage } from './sse';
import { readBodyText, type Attempt } from './transport';
import type { ChatStreamEvent } from './types';

/** Error bodies are read only this far: enough for any message, not for a runaway page. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** A JSON answer (b64 images included) larger than this is refused. */
export const MAX_JSON_BODY_BYTES = 128 * 1024 * 1024;
/**
 * Objects and arrays a JSON answer may hold before it is parsed: parsing cost
 * grows with them, not with long strings (base64 images), and 16 MB of `[{},{},…]` is seconds
 * of the extension host's thread. An image answer needs a few per image.
 */
export const MAX_JSON_CONTAINERS = 10_000;

/**
 * The chat events of one response, in batches of one network chunk each: one async hop per
 * chunk instead of per event keeps 100k small deltas cheap, and text still goes out as it
 * arrives. Reads the body itself (no generator in between). For SSE, keep-alive comments keep
 * the idle timeout from firing but are not content: the attempt's no-content bound ends a
 * stream of keep-alives only.
 * Leaving the loop early cancels the body.
 */
export async function* chatEventBatches(
  response: Response,
  attempt: Attempt,
  context: ErrorContext,
  options: { maxEventBytes?: number; fast?: boolean } = {},
): AsyncGenerator<ChatStreamEvent[]> {
  const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
  let mode: 'sse' | 'json' | 'html' | undefined = contentType.includes('text/event-stream')
    ? 'sse'
    : contentType.includes('json')
      ? 'json'
      : contentType.includes('html')
        ? 'html'
        : undefined;
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const sse = createSseDecoder(undefined, maxEventBytes);
  const assembler = new ChatStreamAssembler(context, { fast: options.fast });
  let batch: ChatStreamEvent[] = [];

  /** Adds the events of `messages` to `batch`; true once [DONE] arrived. */
  function handleAll(messages: SseMessage[]): boolean {
    for (let i = 0; i < messages.length; i++) {
      assembler.handle(messages[i]!, batch);
      if (assembler.isDone) {
        for (const event of assembler.finish()) batch.push(event);
        return true;
      }
    }
    return false;
  }

  function decode(push: () => SseMessage[]): SseMessage[] {
    try {
      return push();
    } catch (error) {
      if (error instanceof SseLimitError) throw protocolError(`${error.message}; the stream was stopped`);
      throw error;
    }
  }

  const reader = attempt.reader(response);
  let finished = false;
  const textDecoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    if (reader) {
      for (;;) {
        const { done, value: chunk } = await attempt.read(reader);
        if (done) {
          finished = true;
          break;
        }
        if (!chunk || chunk.byteLength === 0) continue;
        if (mode === undefined) {
          const start = new TextDecoder().decode(chunk.subarray(0, 32)).trimStart();
          mode = /^[{[]/.test(start) ? 'json' : start.startsWith('<') ? 'html' : 'sse';
        }
        if (mode === 'sse') {
          let over = false;
          try {
            over = handleAll(decode(() => sse.push(chunk)));
          } catch (error) {
            // The events before a bad one still go out first.
            if (batch.length) yield batch;
            throw error;
          }
          if (sse.progressed) attempt.progress();
          else attempt.alive();
          if (batch.length) {
            const out = batch;
            batch = [];
            yield out;
            // The consumer's time is not the server's silence.
            attempt.progress();
          }
          if (over) return; // [DONE]: nothing after it matters
          continue;
        }
        attempt.progress();
        bytes += chunk.byteLength;
        if (mode === 'html' && bytes > MAX_ERROR_BODY_BYTES) break;
        if (bytes > MAX_JSON_BODY_BYTES) throw protocolError('the answer is larger than 128 MB');
        text += textDecoder.decode(chunk, { stream: true });
      }
    }
  } finally {
    if (reader && !finished) reader.cancel().catch(() => undefined);
  }
  text += textDecoder.decode();
  if (mode === 'json') {
    yield eventsFromCompletion(completionFromJsonText(text, context));
    return;
  }
  if (mode === 'html') throw htmlInsteadOfAnswerError(summarizeHtml(text));
  try {
    if (!handleAll(decode(() => sse.end()))) for (const event of assembler.finish()) batch.push(event);
  } catch (error) {
    if (batch.length) yield batch;
    throw error;
  }
  if (batch.length) yield batch;
}

/** A model list larger than this is refused: a few hundred bytes to a few KB per model. */
export const MAX_MODEL_LIST_BYTES = 8 * 1024 * 1024;
/** Objects and arrays in a model list: a few dozen per model, for lists of thousands. */
export const MAX_MODEL_LIST_CONTAINERS = 200_000;

/**
 * The most an image answer for `n` images may take: each image base64-encoded at the size limit,
 * plus 1 MB for the rest (revised prompts, URLs).
 */
export function imageAnswerBytes(n: number | null | undefined, maxImageBytes: number): number {
  const images = Math.max(1, Math.floor(n ?? 1));
  return Math.min(MAX_JSON_BODY_BYTES, images * Math.ceil((maxImageBytes * 4) / 3) + 1024 * 1024);
}

/** How many `{` and `[` the text holds, stopping past `limit` (strings included: an upper bound). */
export function countContainers(text: string, limit: number): number {
  let count = 0;
  for (let i = 0; i < text.length && count <= limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) count++;
  }
  return count;
}

/**
 * A JSON body (images, model list), read up to `maxBytes` (an HTML page only up to
 * MAX_ERROR_BODY_BYTES, which its summary needs); an HTML page or an `{error}` body is an error.
 */
export async function readJsonAnswer(
  response: Response,
  attempt: Attempt,
  context: ErrorContext,
  maxBytes = MAX_JSON_BODY_BYTES,
  maxContainers = MAX_JSON_CONTAINERS,
): Promise<unknown> {
  const { text, truncated } = await readBodyText(response, attempt, maxBytes, false, MAX_ERROR_BODY_BYTES);
  const trimmed = text.trimStart();
  if (trimmed.startsWith('<')) throw htmlInsteadOfAnswerError(summarizeHtml(trimmed));
  if (truncated) throw protocolError(`the answer is larger than ${formatBytes(maxBytes)}`);
  if (countContainers(text, maxContainers) > maxContainers) {
    throw protocolError(`the answer holds more than ${maxContainers.toLocaleString('en-US')} JSON objects and arrays, more than it can need`);
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
