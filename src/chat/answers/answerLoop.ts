// Produces one assistant answer: streams a request, and while the model asks for tools, runs
// them and streams the next request with their results, up to the round limit. It fills in the
// AssistantRecord (parts for the panel, wire messages for later requests, status, usage) and
// reports each change through `events` so the panel can follow live.
// Tools, errors and the client are injected, so this runs in plain Node
// tests against the gateway simulator.
import type { ChannelChoice, Price } from '../../core/catalogue/modelCatalogue';
import { costOf } from '../../core/spend/cost';
import type { ChatMessage, ChatRequest, GatewayClient, ReasoningField, ToolCall, ToolDefinition, Usage } from '../../core/client/types';
import type { ErrorView, ImagesPart, ToolCallView, UsageView } from '../protocol';
import { MAX_IMAGES_PER_PART } from '../../core/webviewResource';
import { addImages, appendText, appendThinking, endThinking, upsertToolCall, type AssistantRecord } from '../conversations/conversationTranscript';
import type { ToolResult } from '../../agentTools/chatTools';
import { canonicalMessage } from '../../core/prompt/promptLayout';

export interface AnswerEvents {
  text(text: string): void;
  toolCall(call: ToolCallView): void;
  /** the model's reasoning, streamed (shown in the Thinking block) */
  reasoning?(text: string): void;
  /** the reasoning of this round ended after `ms` (the answer or a tool call started) */
  thinkingDone?(ms: number): void;
  /** a tool saved images (the part is already in the record) */
  images?(part: ImagesPart): void;
}

export interface AnswerOptions {
  client: Pick<GatewayClient, 'streamChat'>;
  model: string;
  channel: ChannelChoice;
  /** messages of the first request (layoutPrompt) */
  messages: ChatMessage[];
  /** offered only when the model supports tools and the workspace is trusted */
  tools?: ToolDefinition[];
  maxToolRounds: number;
  signal: AbortSignal;
  runTools(calls: ToolCall[], signal: AbortSignal): Promise<ToolResult[]>;
  /**
   * Before each round of tool calls (its results go out in the next request): the answer's cost
   * so far and the messages so far. A text stops the answer there, like the round limit: the
   * calls are not run and the text is appended (a budget used up mid-answer).
   */
  beforeToolRound?(spent: { usage?: Usage; cost?: number }, messages: ChatMessage[]): Promise<string | undefined>;
  /**
   * Before each request (the first and the one after every round): `cost` is what the answer's
   * requests cost so far. `stop`: the request is not sent, the answer ends with that text; `channel`
   * (with its price): this request and the rest go there (a cheaper channel the user chose).
   */
  beforeRequest?(r: { index: number; channel: ChannelChoice; cost: number; messages: ChatMessage[] }): Promise<RequestGate | undefined>;
  /** A request ended with usage from the gateway: what was sent, when, where and what it was billed. */
  requestDone?(r: { channel: ChannelChoice; messages: ChatMessage[]; at: number; usage: Usage; calls: boolean }): void;
  describeError(err: unknown): ErrorView;
  /**
   * A request failed before anything streamed: when this returns messages (the conversation
   * compacted after the gateway said the prompt does not fit), the request is sent again with
   * them, once per answer.
   */
  onOverflow?(err: unknown): Promise<ChatMessage[] | undefined>;
  /**
   * After a round's results are in, before the request that sends them: messages to send instead
   * (the conversation compacted because this request would not fit the window), or undefined.
   */
  beforeRoundRequest?(messages: ChatMessage[]): Promise<ChatMessage[] | undefined>;
  /** the catalogue's price for model and channel; no price, no cost */
  price?: Price;
  record: AssistantRecord;
  events: AnswerEvents;
  /** injectable clock (thinking time) */
  now?: () => number;
}

export type RequestGate = { stop: string } | { channel: ChannelChoice; price: Price | undefined };

export interface AnswerOutcome {
  /** summed over the requests of the answer; undefined when the gateway reported none */
  usage?: Usage;
  cost?: number;
  requests: number;
}

/** The panel shows a tool result collapsed; the model gets it whole. */
export const TOOL_RESULT_VIEW_CHARS = 4_000;

export function roundLimitNote(limit: number): string {
  return `\n\n_Stopped after ${limit} round${limit === 1 ? '' : 's'} of tool calls (the limit set by \`modelgate.chat.maxToolRounds\`)._`;
}

/** The wire body: `provider` only when a channel was chosen (absent = the gateway decides). */
export function chatRequest(model: string, channel: ChannelChoice, messages: ChatMessage[], tools?: ToolDefinition[]): ChatRequest {
  const req: ChatRequest = { model, messages };
  if (tools?.length) req.tools = tools;
  if (channel !== 'default') req.provider = { channel };
  return req;
}

export function usageView(usage: Usage, cost: number | undefined): UsageView {
  const v: UsageView = { promptTokens: usage.promptTokens, cachedTokens: usage.cachedTokens, completionTokens: usage.completionTokens };
  // Part of completionTokens: shown beside it, already in the cost.
  if (usage.reasoningTokens) v.reasoningTokens = usage.reasoningTokens;
  if (cost !== undefined) v.cost = cost;
  return v;
}

function addUsage(a: Usage | undefined, b: Usage): Usage {
  if (!a) return { ...b };
  const sum: Usage = {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
  };
  if (a.reasoningTokens !== undefined || b.reasoningTokens !== undefined) sum.reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0);
  return sum;
}

/**
 * The assistant message of a tool round, with the round's reasoning in the field the model used
 * (a `<think>` block has no field: it is not sent back, as Qwen's docs advise).
 */
export function toolRoundMessage(text: string, calls: ToolCall[], reasoning: string, field: ReasoningField | undefined): ChatMessage {
  const message: ChatMessage = {
    role: 'assistant',
    content: text || null,
    tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
  };
  if (reasoning && field === 'reasoning_content') message.reasoning_content = reasoning;
  else if (reasoning && field === 'reasoning') message.reasoning = reasoning;
  return message;
}

function truncateForView(text: string): string {
  return text.length <= TOOL_RESULT_VIEW_CHARS ? text : `${text.slice(0, TOOL_RESULT_VIEW_CHARS)}\n… (${text.length - TOOL_RESULT_VIEW_CHARS} more characters)`;
}

export async function runAnswer(o: AnswerOptions): Promise<AnswerOutcome> {
  const rec = o.record;
  let messages = o.messages;
  let channel = o.channel;
  let price = o.price;
  let usage: Usage | undefined;
  /** what the requests so far cost, each at its channel's price (undefined once one had usage and no price) */
  let cost: number | undefined = 0;
  let requests = 0;
  let rounds = 0;
  let roundText = '';
  let overflowRetried = false;
  const now = o.now ?? Date.now;
  let thinkingSince: number | undefined;
  const stopThinking = () => {
    if (thinkingSince === undefined) return;
    const ms = Math.max(0, now() - thinkingSince);
    thinkingSince = undefined;
    endThinking(rec, ms);
    o.events.thinkingDone?.(ms);
  };
  const setUsage = () => {
    if (!usage) return;
    rec.usage = usageView(usage, cost);
  };
  try {
    for (;;) {
      roundText = '';
      let roundReasoning = '';
      let reasoningField: ReasoningField | undefined;
      const calls: ToolCall[] = [];
      const gate: RequestGate | undefined = await o.beforeRequest?.({ index: requests, channel, cost: cost ?? 0, messages });
      if (o.signal.aborted) throw o.signal.reason ?? new Error('aborted');
      if (gate && 'stop' in gate) {
        appendText(rec, gate.stop);
        o.events.text(gate.stop);
        break;
      }
      if (gate) {
        channel = gate.channel;
        price = gate.price;
        rec.channel = channel;
      }
      requests++;
      const sentAt = Date.now();
      let requestUsage: Usage | undefined;
      const costBefore: number | undefined = cost;
      try {
        for await (const ev of o.client.streamChat(chatRequest(o.model, channel, messages, o.tools), { signal: o.signal })) {
          if (ev.type === 'reasoning') {
            if (!ev.text) continue;
            thinkingSince ??= now();
            roundReasoning += ev.text;
            reasoningField ??= ev.field;
            appendThinking(rec, ev.text);
            o.events.reasoning?.(ev.text);
          } else if (ev.type === 'text') {
            if (!ev.text) continue;
            stopThinking();
            roundText += ev.text;
            appendText(rec, ev.text);
            o.events.text(ev.text);
          } else if (ev.type === 'tool_calls') {
            stopThinking();
            calls.push(...ev.calls);
          } else if (ev.type === 'usage') {
            usage = addUsage(usage, ev.usage);
            requestUsage = addUsage(requestUsage, ev.usage);
            cost = costBefore !== undefined && price ? costBefore + costOf(requestUsage, price) : undefined;
            setUsage();
          }
        }
      } catch (err) {
        // nothing of this request arrived: the overflow is compacted and the request sent again, once
        const untouched = !roundText && !roundReasoning && calls.length === 0 && !requestUsage && !o.signal.aborted;
        const retry = untouched && !overflowRetried && o.onOverflow ? await o.onOverflow(err) : undefined;
        if (!retry || o.signal.aborted) throw err;
        overflowRetried = true;
        messages = retry;
        continue;
      }
      stopThinking();
      if (requestUsage) o.requestDone?.({ channel, messages, at: sentAt, usage: requestUsage, calls: calls.length > 0 });
      if (o.signal.aborted) throw o.signal.reason ?? new Error('aborted');
      if (calls.length === 0) break;

      if (rounds >= o.maxToolRounds) {
        // Not run: the answer ends here, and the calls stay out of the wire history (a call
        // without a result would make the next request of the conversation invalid).
        for (const c of calls) {
          const view: ToolCallView = { id: c.id, name: c.name, arguments: c.arguments, status: 'denied', result: 'Not run: tool-round limit reached.' };
          upsertToolCall(rec, view);
          o.events.toolCall(view);
        }
        const note = roundLimitNote(o.maxToolRounds);
        appendText(rec, note);
        o.events.text(note);
        break;
      }
      const stop = await o.beforeToolRound?.({ usage, cost: usage ? cost : undefined }, messages);
      if (o.signal.aborted) throw o.signal.reason ?? new Error('aborted');
      if (stop !== undefined) {
        for (const c of calls) {
          const view: ToolCallView = {
            id: c.id,
            name: c.name,
            arguments: c.arguments,
            status: 'denied',
            result: 'Not run: the answer was stopped before this round.',
          };
          upsertToolCall(rec, view);
          o.events.toolCall(view);
        }
        appendText(rec, stop);
        o.events.text(stop);
        break;
      }
      rounds++;
      const views = calls.map((c): ToolCallView => ({ id: c.id, name: c.name, arguments: c.arguments, status: 'running' }));
      for (const v of views) {
        upsertToolCall(rec, v);
        o.events.toolCall(v);
      }
      const results = await o.runTools(calls, o.signal);
      if (o.signal.aborted) throw o.signal.reason ?? new Error('aborted');
      // Its reasoning goes back on every later request, of this loop and of later turns (DeepSeek,
      // Kimi refuse without). Keys in the canonical order: the next turn's layout resends these
      // messages with the same bytes, so the prefix cache keeps matching.
      const assistant = canonicalMessage(toolRoundMessage(roundText, calls, roundReasoning, reasoningField));
      const toolMessages: ChatMessage[] = calls.map((c, i) => {
        const r = results[i] ?? { content: 'The tool produced no result.', isError: true };
        const done: ToolCallView = { ...views[i], status: r.denied ? 'denied' : r.isError ? 'error' : 'done', result: truncateForView(r.content) };
        upsertToolCall(rec, done);
        o.events.toolCall(done);
        if (!r.isError && r.images?.length) {
          const part: ImagesPart = { kind: 'images', id: `${c.id}-images`, paths: r.images.slice(0, MAX_IMAGES_PER_PART) };
          addImages(rec, part);
          o.events.images?.(part);
        }
        return canonicalMessage({ role: 'tool', tool_call_id: c.id, content: r.content });
      });
      // A tool message carries text only: images a tool returned follow as one user message.
      const images = calls.flatMap((c, i) => (results[i]?.modelImages ?? []).map((url) => ({ call: c, url })));
      if (images.length)
        toolMessages.push(
          canonicalMessage({
            role: 'user',
            content: [
              { type: 'text', text: `Images returned by the tool calls above (${[...new Set(images.map((m) => m.call.name))].join(', ')}):` },
              ...images.map((m) => ({ type: 'image_url' as const, image_url: { url: m.url } })),
            ],
          }),
        );
      rec.wire.push(assistant, ...toolMessages);
      messages = [...messages, assistant, ...toolMessages];
      roundText = '';
      // the next request would not fit the window: the conversation is compacted between rounds
      const fitted = await o.beforeRoundRequest?.(messages);
      if (o.signal.aborted) throw o.signal.reason ?? new Error('aborted');
      if (fitted) messages = fitted;
    }
    if (roundText) rec.wire.push({ role: 'assistant', content: roundText });
    rec.status = 'done';
  } catch (err) {
    stopThinking();
    if (roundText) rec.wire.push({ role: 'assistant', content: roundText });
    for (const p of rec.parts) {
      if (p.kind === 'tool' && p.call.status === 'running') {
        p.call.status = 'error';
        p.call.result = o.signal.aborted ? 'Stopped.' : 'Not finished.';
        o.events.toolCall(p.call);
      }
    }
    if (o.signal.aborted) rec.status = 'stopped';
    else {
      rec.status = 'error';
      rec.error = o.describeError(err);
    }
  }
  setUsage();
  return { usage, cost: usage ? cost : undefined, requests };
}
