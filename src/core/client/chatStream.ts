// Streamed chat chunks -> ChatStreamEvents. Pure (no I/O), so every odd stream the field notes
// list can be fed to it directly: role-only first chunks, chunks without content, tool-call
// fragments, a usage-only last chunk with empty `choices`, `[DONE]`, errors inside the stream.
import { detailsFromJson } from './errorBody';
import { errorFromInBand, type ErrorContext } from './errorMessages';
import { GatewayError, protocolError } from './gatewayError';
import { FastChunks } from './fastChunk';
import { l10n } from '../l10n';
import { ToolCallAssembler } from './toolCalls';
import type { ChatCompletion, ChatStreamEvent, ToolCall, Usage } from './types';
import type { SseMessage } from './sse';
import { describeZodError, wire, type ChatChunk, type WireUsage } from './wire';

export function usageFromWire(usage: WireUsage): Usage {
  return {
    promptTokens: usage.prompt_tokens ?? 0,
    completionTokens: usage.completion_tokens ?? 0,
    cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
  };
}

function preview(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw protocolError(`${what} is not JSON: ${preview(text)}`);
  }
}

/** An `{error: ...}` payload (or a bare `{message}` with no chat fields) sent instead of an answer. */
export function inBandError(json: unknown, context: ErrorContext, force = false): GatewayError | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const record = json as Record<string, unknown>;
  const looksLikeError =
    record.error != null || (!('choices' in record) && !('usage' in record) && (typeof record.message === 'string' || record.detail != null));
  if (!looksLikeError && !force) return undefined;
  const details = detailsFromJson(json) ?? { message: preview(JSON.stringify(json)) };
  return errorFromInBand(details, context);
}

export function streamCutError(): GatewayError {
  return new GatewayError('network', l10n.t('The gateway closed the stream before the answer was complete (no finish signal).'));
}

// The hot-path shape check. It accepts only what chatChunkSchema surely accepts (plain
// objects and the exact primitive types zod wants); anything it does not recognise goes to
// zod, so an odd but valid chunk still passes and a bad one gets zod's precise message.
type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown): boolean => v == null || typeof v === 'string';
const optIndex = (v: unknown): boolean => v == null || (Number.isSafeInteger(v) && (v as number) >= 0);
const optCount = (v: unknown): boolean => v == null || (typeof v === 'number' && Number.isFinite(v) && v >= 0);

function isCommonToolCall(v: unknown): boolean {
  if (!isRecord(v) || !optIndex(v.index) || !optString(v.id) || !optString(v.type)) return false;
  const fn = v.function;
  return fn == null || (isRecord(fn) && optString(fn.name) && optString(fn.arguments));
}

function isCommonUsage(v: unknown): boolean {
  if (v == null) return true;
  if (!isRecord(v) || !optCount(v.prompt_tokens) || !optCount(v.completion_tokens)) return false;
  const details = v.prompt_tokens_details;
  return details == null || (isRecord(details) && optCount(details.cached_tokens));
}

export function isCommonChunk(json: unknown): json is ChatChunk {
  if (!isRecord(json)) return false;
  const choices = json.choices;
  if (choices != null) {
    if (!Array.isArray(choices)) return false;
    for (let i = 0; i < choices.length; i++) {
      const c: unknown = choices[i];
      if (!isRecord(c) || !optIndex(c.index) || !optString(c.finish_reason)) return false;
      const delta = c.delta;
      if (delta != null) {
        if (!isRecord(delta) || !optString(delta.role) || !optString(delta.content)) return false;
        const calls = delta.tool_calls;
        if (calls != null) {
          if (!Array.isArray(calls)) return false;
          for (let j = 0; j < calls.length; j++) if (!isCommonToolCall(calls[j])) return false;
        }
      }
    }
  }
  return isCommonUsage(json.usage);
}

export class ChatStreamAssembler {
  private readonly toolCalls = new ToolCallAssembler();
  private finishReason: string | null = null;
  private sawFinish = false;
  private sawDone = false;
  private usage: Usage | undefined;

  /** `fast: false` parses and validates every chunk with JSON.parse + zod (the reference path the tests compare with). */
  private readonly fast: boolean;
  /** The content-template fast path (fastChunk.ts), created on the first chunk. */
  private fastChunks: FastChunks | undefined;
  /** The last validated chunk passed the hand-written shape check (only those teach a template). */
  private commonShape = false;

  constructor(
    private readonly context: ErrorContext = {},
    options: { fast?: boolean } = {},
  ) {
    this.fast = options.fast ?? true;
  }

  /** True once `data: [DONE]` arrived: nothing after it matters. */
  get isDone(): boolean {
    return this.sawDone;
  }

  handle(message: SseMessage, events: ChatStreamEvent[] = []): ChatStreamEvent[] {
    const data = message.data;
    if (data.length < 64 && data.trim() === '[DONE]') {
      this.sawDone = true;
      return events;
    }
    let json: unknown;
    const fast = this.fast && message.event !== 'error' ? (this.fastChunks ??= new FastChunks()) : undefined;
    if (fast) {
      const plain = message.plain === true;
      const text = fast.content(data, plain);
      if (text !== undefined) {
        if (text) events.push({ type: 'text', text });
        return events;
      }
      json = fast.large(data, plain);
    }
    if (json === undefined) json = parseJson(data, 'a stream chunk');
    const error = inBandError(json, this.context, message.event === 'error');
    if (error) throw error;
    const chunk = this.validate(json);
    if (fast && this.commonShape) fast.learn(data, json);
    // n is always 1 here: the answer is choice 0 (or the only one there is).
    const choices = chunk.choices;
    const choice = choices ? (choices.length === 1 ? choices[0] : (choices.find((c) => (c.index ?? 0) === 0) ?? choices[0])) : undefined;
    if (choice) {
      const delta = choice.delta;
      if (delta?.content) events.push({ type: 'text', text: delta.content });
      if (delta?.tool_calls?.length) this.toolCalls.add(delta.tool_calls);
      if (choice.finish_reason) {
        this.finishReason = choice.finish_reason;
        this.sawFinish = true;
        if (!this.toolCalls.isEmpty) events.push({ type: 'tool_calls', calls: this.toolCalls.take() });
      }
    }
    // Some servers repeat a running total on every chunk: the last one counts, reported once.
    if (chunk.usage) this.usage = usageFromWire(chunk.usage);
    return events;
  }

  /** The fast shape check when it recognises the chunk, else zod (the same errors as before). */
  private validate(json: unknown): ChatChunk {
    this.commonShape = this.fast && isCommonChunk(json);
    if (this.commonShape) return json as ChatChunk;
    const parsed = wire().chatChunkSchema.safeParse(json);
    if (!parsed.success) throw protocolError(`a stream chunk has the wrong shape, ${describeZodError(parsed.error)}`);
    return parsed.data;
  }

  /** End of the stream ([DONE] or end of body): the remaining events, or the error of a cut stream. */
  finish(): ChatStreamEvent[] {
    if (!this.sawDone && !this.sawFinish) throw streamCutError();
    const events = this.takeToolCalls();
    if (this.usage) events.push({ type: 'usage', usage: this.usage });
    events.push({ type: 'done', finishReason: this.finishReason });
    return events;
  }

  private takeToolCalls(): ChatStreamEvent[] {
    if (this.toolCalls.isEmpty) return [];
    return [{ type: 'tool_calls', calls: this.toolCalls.take() }];
  }
}

/** A non-streamed (JSON) chat answer. */
export function completionFromJsonText(text: string, context: ErrorContext = {}): ChatCompletion {
  const json = parseJson(text, 'the answer');
  const error = inBandError(json, context);
  if (error) throw error;
  const parsed = wire().chatCompletionSchema.safeParse(json);
  if (!parsed.success) throw protocolError(`the answer has the wrong shape, ${describeZodError(parsed.error)}`);
  const choice = parsed.data.choices[0]!;
  const content = choice.message?.content;
  const textOut = typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('');
  const toolCalls: ToolCall[] = (choice.message?.tool_calls ?? []).map((call, index) => ({
    id: call.id || `call_local_${index}`,
    name: call.function.name,
    arguments: typeof call.function.arguments === 'string' ? call.function.arguments : JSON.stringify(call.function.arguments ?? {}),
  }));
  return {
    text: textOut,
    toolCalls,
    usage: parsed.data.usage ? usageFromWire(parsed.data.usage) : undefined,
    finishReason: choice.finish_reason ?? null,
  };
}

export function eventsFromCompletion(completion: ChatCompletion): ChatStreamEvent[] {
  const events: ChatStreamEvent[] = [];
  if (completion.text) events.push({ type: 'text', text: completion.text });
  if (completion.toolCalls.length) events.push({ type: 'tool_calls', calls: completion.toolCalls });
  if (completion.usage) events.push({ type: 'usage', usage: completion.usage });
  events.push({ type: 'done', finishReason: completion.finishReason });
  return events;
}

export function completionFromEvents(events: Iterable<ChatStreamEvent>): ChatCompletion {
  let text = '';
  const toolCalls: ToolCall[] = [];
  let usage: Usage | undefined;
  let finishReason: string | null = null;
  for (const event of events) {
    if (event.type === 'text') text += event.text;
    else if (event.type === 'tool_calls') toolCalls.push(...event.calls);
    else if (event.type === 'usage') usage = event.usage;
    else finishReason = event.finishReason;
  }
  return { text, toolCalls, usage, finishReason };
}
