// Streamed chat chunks -> ChatStreamEvents. Pure (no I/O), so every odd stream the field notes
// list can be fed to it directly: role-only first chunks, chunks without content, tool-call
// fragments, a usage-only last chunk with empty `choices`, `[DONE]`, errors inside the stream.
import type { EventSourceMessage } from 'eventsource-parser';
import { detailsFromJson } from './errorBody';
import { errorFromInBand, GatewayError, protocolError, type ErrorContext } from './errors';
import { ToolCallAssembler } from './toolCalls';
import type { ChatCompletion, ChatStreamEvent, ToolCall, Usage } from './types';
import { chatChunkSchema, chatCompletionSchema, describeZodError, type WireUsage } from './wire';

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
  const looksLikeError = record.error != null || (!('choices' in record) && !('usage' in record) && (typeof record.message === 'string' || record.detail != null));
  if (!looksLikeError && !force) return undefined;
  const details = detailsFromJson(json) ?? { message: preview(JSON.stringify(json)) };
  return errorFromInBand(details, context);
}

export function streamCutError(): GatewayError {
  return new GatewayError('network', 'The gateway closed the stream before the answer was complete (no finish signal).');
}

export class ChatStreamAssembler {
  private readonly toolCalls = new ToolCallAssembler();
  private finishReason: string | null = null;
  private sawFinish = false;
  private sawDone = false;
  private usage: Usage | undefined;

  constructor(private readonly context: ErrorContext = {}) {}

  /** True once `data: [DONE]` arrived: nothing after it matters. */
  get isDone(): boolean {
    return this.sawDone;
  }

  handle(message: EventSourceMessage): ChatStreamEvent[] {
    const data = message.data;
    if (data.trim() === '[DONE]') {
      this.sawDone = true;
      return [];
    }
    const json = parseJson(data, 'a stream chunk');
    const error = inBandError(json, this.context, message.event === 'error');
    if (error) throw error;
    const parsed = chatChunkSchema.safeParse(json);
    if (!parsed.success) throw protocolError(`a stream chunk has the wrong shape, ${describeZodError(parsed.error)}`);
    const chunk = parsed.data;
    const events: ChatStreamEvent[] = [];
    // n is always 1 here: the answer is choice 0 (or the only one there is).
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0) ?? chunk.choices?.[0];
    if (choice) {
      const delta = choice.delta;
      if (delta?.content) events.push({ type: 'text', text: delta.content });
      if (delta?.tool_calls?.length) this.toolCalls.add(delta.tool_calls);
      if (choice.finish_reason) {
        this.finishReason = choice.finish_reason;
        this.sawFinish = true;
        events.push(...this.takeToolCalls());
      }
    }
    // Some servers repeat a running total on every chunk: the last one counts, reported once.
    if (chunk.usage) this.usage = usageFromWire(chunk.usage);
    return events;
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
  const parsed = chatCompletionSchema.safeParse(json);
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
