// Reading a 2xx answer of the chat endpoint, whatever form the server chose: SSE (asked for
// or not: the spec says streaming is on by default), a JSON answer, or an HTML page that a
// proxy put there instead. A missing or odd content type is decided by the first bytes.
import type { EventSourceMessage } from 'eventsource-parser';
import { ChatStreamAssembler, completionFromJsonText, eventsFromCompletion, inBandError } from './chatStream';
import { summarizeHtml } from './errorBody';
import { htmlInsteadOfAnswerError, protocolError, type ErrorContext } from './errors';
import { createSseDecoder } from './sse';
import { bodyChunks, readBodyText, type Attempt } from './transport';
import type { ChatStreamEvent } from './types';

/** Error bodies are read only this far: enough for any message, not for a runaway page. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** A JSON answer (b64 images included) larger than this is refused. */
export const MAX_JSON_BODY_BYTES = 128 * 1024 * 1024;

/**
 * The chat events of one response, in batches of one network chunk each: one async hop per
 * chunk instead of per event keeps 100k small deltas cheap, and text still goes out as it
 * arrives. Leaving the loop early cancels the body.
 */
export async function* chatEventBatches(response: Response, attempt: Attempt, context: ErrorContext): AsyncGenerator<ChatStreamEvent[]> {
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
      if (yield* handleAll(sse.push(chunk))) return; // [DONE]: nothing after it matters
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
  if (mode === 'html') throw htmlInsteadOfAnswerError(summarizeHtml(text));
  if (yield* handleAll(sse.end())) return;
  yield assembler.finish();
}

/** A JSON body (images, model list), size-capped; an HTML page or an `{error}` body is an error. */
export async function readJsonAnswer(response: Response, attempt: Attempt, context: ErrorContext): Promise<unknown> {
  const { text, truncated } = await readBodyText(response, attempt, MAX_JSON_BODY_BYTES);
  if (truncated) throw protocolError('the answer is larger than 128 MB');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('<')) throw htmlInsteadOfAnswerError(summarizeHtml(trimmed));
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
