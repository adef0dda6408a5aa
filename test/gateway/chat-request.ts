// Validation of a chat request: structure with zod, then the rules a real service enforces
// (supported model and channel, image input only where the model takes it, tool messages that
// answer earlier tool calls, output limits). Each failure is a 400 naming the parameter.
import { z } from 'zod';
import type { Channel } from '../../src/core/client/types';
import { invalidRequest } from './api-error';
import { chatModel, DEFAULT_CHANNEL, SIM_CHANNELS, type SimChatModel } from './models';
import { deepseekTokens, promptTokens, renderPrompt, serializePrompt, type SerializedPrompt } from './tokens';
import { zodToApiError } from './zod-issue';

const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const imagePart = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }),
});
const contentPart = z.discriminatedUnion('type', [textPart, imagePart]);
const toolCallSchema = z.looseObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});
const textContent = z.union([z.string(), z.array(textPart)]);

const messageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: textContent, name: z.string().optional() }),
  z.looseObject({ role: z.literal('user'), content: z.union([z.string(), z.array(contentPart)]), name: z.string().optional() }),
  z.looseObject({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.array(textPart), z.null()]).optional(),
    tool_calls: z.array(toolCallSchema).min(1).optional(),
    name: z.string().optional(),
  }),
  z.looseObject({ role: z.literal('tool'), content: textContent, tool_call_id: z.string().min(1) }),
]);

const toolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 characters of a-z, A-Z, 0-9, underscore or dash'),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

const positiveInt = z.number().int().positive().nullish();

const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  tools: z.array(toolSchema).min(1).optional(),
  tool_choice: z
    .union([z.enum(['none', 'auto', 'required']), z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) })])
    .optional(),
  parallel_tool_calls: z.boolean().optional(),
  provider: z.looseObject({ channel: z.string().optional() }).nullish(),
  max_tokens: positiveInt,
  max_completion_tokens: positiveInt,
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
  user: z.string().optional(),
});

export type WireMessage = z.infer<typeof messageSchema>;
export type WireTool = z.infer<typeof toolSchema>;

export interface ValidChatRequest {
  model: SimChatModel;
  channel: Channel;
  /** the gateway's interface: streaming is on by default, so only an explicit `false` turns it off */
  stream: boolean;
  includeUsage: boolean;
  messages: WireMessage[];
  tools: WireTool[];
  toolChoice: 'none' | 'auto' | 'required' | { name: string };
  maxTokens: number | undefined;
  /** stop sequences: the answer ends before the first of them (not included) */
  stop: string[];
  /** the end-user id the client sent, if any */
  user: string | undefined;
  prompt: SerializedPrompt;
  /** the conversation as a `deepseek`-counted model reads it (tokens.ts renderPrompt); '' for the others */
  rendered: string;
  promptTokens: number;
}

export interface ChatValidationOptions {
  rejectStreamOptions: boolean;
  /** share of the model's context window a channel offers (only `direct` gives all of it) */
  contextShare?: (channel: Channel) => number;
  /** whether this gateway serves the model (startGateway's `servedModels`); default: every simulator model */
  serves?: (id: string) => boolean;
}

const DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/;

/** Throws an ApiError (400) for anything the service would reject. */
export function validateChatRequest(raw: unknown, options: ChatValidationOptions): ValidChatRequest {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidRequest('The request body must be a JSON object.');
  const body = raw as Record<string, unknown>;
  if (options.rejectStreamOptions && 'stream_options' in body) {
    // What some OpenAI-compatible endpoints answer (cline/cline#582).
    throw invalidRequest('Unrecognized request argument supplied: stream_options', 'stream_options', null);
  }
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) throw zodToApiError(parsed.error, body);
  const req = parsed.data;

  const model = options.serves?.(req.model) === false ? undefined : chatModel(req.model);
  if (!model) {
    throw invalidRequest(`The model \`${req.model}\` does not exist or is not a chat model.`, 'model', 'model_not_found');
  }
  const channel = resolveChannel(req.provider?.channel);

  checkContent(req.messages, model);
  checkToolMessages(req.messages);

  const tools = req.tools ?? [];
  let toolChoice: ValidChatRequest['toolChoice'] = 'auto';
  if (req.tool_choice !== undefined) {
    if (tools.length === 0) throw invalidRequest("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice');
    if (typeof req.tool_choice === 'string') toolChoice = req.tool_choice;
    else {
      const name = req.tool_choice.function.name;
      if (!tools.some((t) => t.function.name === name)) {
        throw invalidRequest(`Invalid value for 'tool_choice': no tool named '${name}' was offered.`, 'tool_choice');
      }
      toolChoice = { name };
    }
  }

  const maxTokens = req.max_completion_tokens ?? req.max_tokens ?? undefined;
  const maxParam = req.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens';
  if (maxTokens !== undefined && maxTokens > model.maxOutput) {
    throw invalidRequest(
      `${maxParam} is too large: ${maxTokens}. This model supports at most ${model.maxOutput} completion tokens.`,
      maxParam,
      'invalid_value',
    );
  }

  const prompt = serializePrompt(body.tools, body.messages);
  const rendered = model.tokens === 'deepseek' ? renderPrompt(body.tools, req.messages) : '';
  const tokens = model.tokens === 'deepseek' ? deepseekTokens(rendered) : promptTokens(prompt);
  const window = Math.floor(model.contextWindow * Math.min(1, options.contextShare?.(channel) ?? 1));
  if (tokens + (maxTokens ?? 0) > window) {
    const where = window < model.contextWindow ? ` on the '${channel}' channel (the full ${model.contextWindow} tokens only on 'direct')` : '';
    throw invalidRequest(
      `This model's maximum context length is ${window} tokens${where}. However, you requested ${tokens + (maxTokens ?? 0)} tokens ` +
        `(${tokens} in the messages, ${maxTokens ?? 0} in the completion). Please reduce the length of the messages or completion.`,
      'messages',
      'context_length_exceeded',
    );
  }

  return {
    model,
    channel,
    stream: req.stream !== false,
    includeUsage: req.stream_options?.include_usage === true,
    messages: req.messages,
    tools,
    toolChoice,
    maxTokens,
    stop: typeof req.stop === 'string' ? [req.stop] : (req.stop ?? []).filter((s) => s !== ''),
    user: req.user,
    prompt,
    rendered,
    promptTokens: tokens,
  };
}

export function resolveChannel(channel: string | undefined): Channel {
  if (channel === undefined) return DEFAULT_CHANNEL;
  if (!(SIM_CHANNELS as readonly string[]).includes(channel)) {
    throw invalidRequest(`Unsupported channel '${channel}'. Supported channels: ${SIM_CHANNELS.join(', ')}.`, 'provider.channel', 'unsupported_channel');
  }
  return channel as Channel;
}

function checkContent(messages: WireMessage[], model: SimChatModel): void {
  messages.forEach((m, i) => {
    if (m.role === 'assistant' && (m.content === undefined || m.content === null) && !m.tool_calls) {
      throw invalidRequest(`Invalid value for 'messages[${i}].content': an assistant message needs content or tool_calls.`, `messages[${i}].content`);
    }
    if (m.role !== 'user' || typeof m.content === 'string') return;
    m.content.forEach((part, j) => {
      if (part.type !== 'image_url') return;
      const param = `messages[${i}].content[${j}]`;
      if (!model.imageInput) {
        throw invalidRequest(`The model \`${model.id}\` is a text-only model and does not accept image input.`, param, 'unsupported_content');
      }
      const url = part.image_url.url;
      if (!DATA_URL.test(url) && !/^https?:\/\//.test(url)) {
        throw invalidRequest(
          `Invalid image URL in '${param}.image_url.url': expected a data:image/(png|jpeg|gif|webp);base64 URL or an http(s) URL.`,
          `${param}.image_url.url`,
          'invalid_image_url',
        );
      }
    });
  });
}

/**
 * The two rules OpenAI-compatible services enforce on tool conversations: a `tool` message must
 * answer a call of an earlier assistant message, and every call must be answered before the
 * conversation goes on. Clients that cancel a tool round half-way break the second one.
 */
function checkToolMessages(messages: WireMessage[]): void {
  let pending = new Set<string>();
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      if (!pending.has(m.tool_call_id)) {
        throw invalidRequest(
          `Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (no pending call '${m.tool_call_id}').`,
          `messages[${i}].tool_call_id`,
        );
      }
      pending.delete(m.tool_call_id);
      return;
    }
    if (pending.size > 0) {
      throw invalidRequest(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. ` +
          `The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`,
        `messages[${i}].role`,
      );
    }
    if (m.role === 'assistant' && m.tool_calls) pending = new Set(m.tool_calls.map((c) => c.id));
  });
  // Unanswered calls on the last assistant message are also an error.
  if (pending.size > 0) {
    throw invalidRequest(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. ` +
        `The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`,
      'messages',
    );
  }
}

/** Text of a message's content; image parts are left out. */
export function textOf(content: WireMessage['content']): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((p): p is z.infer<typeof textPart> => p.type === 'text')
    .map((p) => p.text)
    .join('\n');
}

export function imagePartsOf(content: WireMessage['content']): { url: string }[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((p) => (p.type === 'image_url' ? [{ url: (p as z.infer<typeof imagePart>).image_url.url }] : []));
}
