// Streamed chat chunks -> ChatStreamEvents. Pure (no I/O), so every odd stream real servers
// send can be fed to it directly: role-only first chunks, chunks without content, tool-call
// fragments, a usage-only last chunk with empty `choices`, `[DONE]`, errors inside the stream.
import { detailsFromJson } from './errorBody';
import { errorFromInBand, type ErrorContext } from './errorMessages';
import { GatewayError, protocolError } from './gatewayError';
import { FastChunks } from './fastChunk';
import { l10n } from '../l10n';
import { ToolCallAssembler } from './toolCalls';
import { splitThink, ThinkSplitter, type ThinkSink } from './thinkTags';
import type { ChatCompletion, ChatStreamEvent, ReasoningField, ToolCall, Usage } from './types';
import type { SseMessage } from './sse';
import { contentParts } from './contentParts';
import { otherUsage, usageFromWire } from './usageForms';
import { describeZodError, wire, type ChatChunk } from './wire';

export { usageFromWire } from './usageForms';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The reasoning of a delta (streamed) or a message (not streamed), in the three field forms:
 * `reasoning_content` (DeepSeek's API docs, "Reasoning Model"), `reasoning` (vLLM's
 * "Reasoning Outputs", OpenRouter's "Reasoning Tokens") and the text items of
 * `reasoning_details` (OpenRouter, which sends them beside `reasoning`: read only without it).
 * A field of the wrong type is ignored, not an error: reasoning is never worth failing an answer.
 */
export function reasoningOf(part: Record<string, unknown>): { text: string; field: ReasoningField } | undefined {
  const content = part.reasoning_content;
  if (typeof content === 'string' && content) return { text: content, field: 'reasoning_content' };
  const reasoning = part.reasoning;
  if (typeof reasoning === 'string' && reasoning) return { text: reasoning, field: 'reasoning' };
  const details = part.reasoning_details;
  if (!Array.isArray(details)) return undefined;
  let text = '';
  for (const item of details as unknown[]) {
    if (isRecord(item) && item.type === 'reasoning.text' && typeof item.text === 'string') text += item.text;
  }
  return text ? { text, field: 'reasoning' } : undefined;
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
  /** A `<think>` block at the start of content; once past it, text goes straight out. */
  private readonly think = new ThinkSplitter();
  private thinkEvents: ChatStreamEvent[] = [];
  private readonly thinkSink: ThinkSink = {
    reasoning: (text) => this.thinkEvents.push({ type: 'reasoning', text, field: 'think' }),
    text: (text) => this.thinkEvents.push({ type: 'text', text }),
  };

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
        if (text) this.text(text, events);
        return events;
      }
      const reasoning = fast.reasoning(data, plain);
      if (reasoning !== undefined) {
        if (reasoning.text) events.push({ type: 'reasoning', text: reasoning.text, field: reasoning.field });
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
      if (delta) {
        const reasoning = reasoningOf(delta);
        if (reasoning) events.push({ type: 'reasoning', ...reasoning });
      }
      const content = delta?.content;
      if (typeof content === 'string') {
        if (content) this.text(content, events);
      } else if (content) {
        const parts = contentParts(content);
        if (parts.reasoning) events.push({ type: 'reasoning', text: parts.reasoning, field: 'think' });
        if (parts.text) this.text(parts.text, events);
      }
      if (delta?.tool_calls?.length) this.toolCalls.add(delta.tool_calls);
      if (choice.finish_reason) {
        this.finishReason = choice.finish_reason;
        this.sawFinish = true;
        if (!this.toolCalls.isEmpty) events.push({ type: 'tool_calls', calls: this.toolCalls.take() });
      }
    }
    // Some servers repeat a running total on every chunk: the last one counts, reported once.
    if (chunk.usage) this.usage = usageFromWire(chunk.usage);
    else {
      const other = otherUsage(chunk, choice);
      if (other) this.usage = usageFromWire(other);
    }
    return events;
  }

  /** Content text, through the `<think>` splitter until the start of the content is decided. */
  private text(text: string, events: ChatStreamEvent[]): void {
    if (this.think.plain) {
      events.push({ type: 'text', text });
      return;
    }
    this.thinkEvents = events;
    this.think.push(text, this.thinkSink);
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
    const events: ChatStreamEvent[] = [];
    this.thinkEvents = events;
    this.think.end(this.thinkSink);
    events.push(...this.takeToolCalls());
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
  const parts = typeof content === 'string' ? undefined : contentParts(content ?? []);
  let textOut = typeof content === 'string' ? content : parts!.text;
  let reasoning = choice.message ? reasoningOf(choice.message) : undefined;
  if (!reasoning && parts?.reasoning) reasoning = { text: parts.reasoning, field: 'think' };
  const think = splitThink(textOut);
  if (think.reasoning) {
    textOut = think.text;
    reasoning ??= { text: think.reasoning, field: 'think' };
  }
  const toolCalls: ToolCall[] = (choice.message?.tool_calls ?? []).map((call, index) => ({
    id: call.id || `call_local_${index}`,
    name: call.function.name,
    arguments: typeof call.function.arguments === 'string' ? call.function.arguments : JSON.stringify(call.function.arguments ?? {}),
  }));
  const completion: ChatCompletion = {
    text: textOut,
    toolCalls,
    usage: parsed.data.usage ? usageFromWire(parsed.data.usage) : undefined,
    finishReason: choice.finish_reason ?? null,
  };
  if (reasoning) completion.reasoning = reasoning;
  return completion;
}

export function eventsFromCompletion(completion: ChatCompletion): ChatStreamEvent[] {
  const events: ChatStreamEvent[] = [];
  if (completion.reasoning) events.push({ type: 'reasoning', ...completion.reasoning });
  if (completion.text) events.push({ type: 'text', text: completion.text });
  if (completion.toolCalls.length) events.push({ type: 'tool_calls', calls: completion.toolCalls });
  if (completion.usage) events.push({ type: 'usage', usage: completion.usage });
  events.push({ type: 'done', finishReason: completion.finishReason });
  return events;
}

export function completionFromEvents(events: Iterable<ChatStreamEvent>): ChatCompletion {
  let text = '';
  let reasoning: ChatCompletion['reasoning'];
  const toolCalls: ToolCall[] = [];
  let usage: Usage | undefined;
  let finishReason: string | null = null;
  for (const event of events) {
    if (event.type === 'text') text += event.text;
    else if (event.type === 'reasoning') reasoning = { text: (reasoning?.text ?? '') + event.text, field: reasoning?.field ?? event.field };
    else if (event.type === 'tool_calls') toolCalls.push(...event.calls);
    else if (event.type === 'usage') usage = event.usage;
    else finishReason = event.finishReason;
  }
  const completion: ChatCompletion = { text, toolCalls, usage, finishReason };
  if (reasoning) completion.reasoning = reasoning;
  return completion;
}
