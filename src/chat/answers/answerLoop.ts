// Produces one assistant answer: streams a request, and while the model asks for tools, runs
// them and streams the next request with their results, up to the round limit. It fills in the
// AssistantRecord (parts for the panel, wire messages for later requests, status, usage) and
// reports each change through `events` so the panel can follow live.
// Tools, errors and the client are injected, so this runs in plain Node
// tests against the gateway simulator.
import type { ChannelChoice, Price } from '../../core/catalogue/modelCatalogue';
import { costOf } from '../../core/spend/cost';
import type { ChatMessage, ChatRequest, GatewayClient, ToolCall, ToolDefinition, Usage } from '../../core/client/types';
import type { ErrorView, ToolCallView, UsageView } from '../protocol';
import { appendText, upsertToolCall, type AssistantRecord } from '../conversations/conversationTranscript';

export interface ToolResult {
  content: string;
  isError: boolean;
}

export interface AnswerEvents {
  text(text: string): void;
  toolCall(call: ToolCallView): void;
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
  describeError(err: unknown): ErrorView;
  /** the catalogue's price for model and channel; no price, no cost */
  price?: Price;
  record: AssistantRecord;
  events: AnswerEvents;
}

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
  if (cost !== undefined) v.cost = cost;
  return v;
}

function addUsage(a: Usage | undefined, b: Usage): Usage {
  if (!a) return { ...b };
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
  };
}

function truncateForView(text: string): string {
  return text.length <= TOOL_RESULT_VIEW_CHARS ? text : `${text.slice(0, TOOL_RESULT_VIEW_CHARS)}\n… (${text.length - TOOL_RESULT_VIEW_CHARS} more characters)`;
}

export async function runAnswer(o: AnswerOptions): Promise<AnswerOutcome> {
  const rec = o.record;
  let messages = o.messages;
  let usage: Usage | undefined;
  let requests = 0;
  let rounds = 0;
  let roundText = '';
  const setUsage = () => {
    if (!usage) return;
    rec.usage = usageView(usage, o.price ? costOf(usage, o.price) : undefined);
  };
  try {
    for (;;) {
      roundText = '';
      const calls: ToolCall[] = [];
      requests++;
      for await (const ev of o.client.streamChat(chatRequest(o.model, o.channel, messages, o.tools), { signal: o.signal })) {
        if (ev.type === 'text') {
          if (!ev.text) continue;
          roundText += ev.text;
          appendText(rec, ev.text);
          o.events.text(ev.text);
        } else if (ev.type === 'tool_calls') {
          calls.push(...ev.calls);
        } else if (ev.type === 'usage') {
          usage = addUsage(usage, ev.usage);
          setUsage();
        }
      }
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
      rounds++;
      const views = calls.map((c): ToolCallView => ({ id: c.id, name: c.name, arguments: c.arguments, status: 'running' }));
      for (const v of views) {
        upsertToolCall(rec, v);
        o.events.toolCall(v);
      }
      const results = await o.runTools(calls, o.signal);
      if (o.signal.aborted) throw o.signal.reason ?? new Error('aborted');
      const assistant: ChatMessage = {
        role: 'assistant',
        content: roundText || null,
        tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      };
      const toolMessages: ChatMessage[] = calls.map((c, i) => {
        const r = results[i] ?? { content: 'The tool produced no result.', isError: true };
        const done: ToolCallView = { ...views[i], status: r.isError ? 'error' : 'done', result: truncateForView(r.content) };
        upsertToolCall(rec, done);
        o.events.toolCall(done);
        return { role: 'tool', tool_call_id: c.id, content: r.content };
      });
      rec.wire.push(assistant, ...toolMessages);
      messages = [...messages, assistant, ...toolMessages];
      roundText = '';
    }
    if (roundText) rec.wire.push({ role: 'assistant', content: roundText });
    rec.status = 'done';
  } catch (err) {
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
  return { usage, cost: usage && o.price ? costOf(usage, o.price) : undefined, requests };
}
