// Public types of the shared gateway client. This file is a contract: tests outside the
// project and every feature of the extension use these shapes.

import type { GatewayError } from './gatewayError';

export const CHANNELS = ['direct', 'stable', 'economical'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface ProviderSelection {
  channel?: Channel;
}

export interface TextPart {
  type: 'text';
  text: string;
}
export interface ImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}
export type ContentPart = TextPart | ImagePart;

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | ContentPart[] | null;
  /** assistant messages that called tools */
  tool_calls?: WireToolCall[];
  /** tool result messages */
  tool_call_id?: string;
  name?: string;
  /**
   * The model's reasoning, sent back on an assistant message with `tool_calls` during the tool
   * loop in the field the model used (DeepSeek and Kimi refuse the loop's next request without
   * it). Never sent for earlier, finished turns (promptLayout's replay rule).
   */
  reasoning_content?: string;
  reasoning?: string;
}

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** The chat wire body of the gateway's interface, without `stream` (the client sets it). */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
  provider?: ProviderSelection;
  max_tokens?: number;
  /** newer OpenAI-style reasoning models take only this one (modelgate.models.<id>.maxTokensField) */
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string | string[];
  user?: string;
  reasoning_effort?: 'low' | 'medium' | 'high';
}

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text exactly as the model produced it (complete, but not guaranteed to be valid JSON). */
  arguments: string;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Part of promptTokens that was read from the prompt cache. */
  cachedTokens: number;
  /** Part of completionTokens spent on reasoning (`completion_tokens_details.reasoning_tokens`), when reported. */
  reasoningTokens?: number;
}

/**
 * Where the model put its reasoning: `delta.reasoning_content` (DeepSeek, Kimi, Qwen, many
 * gateways), `delta.reasoning` or `reasoning_details` (vLLM, OpenRouter), or a `<think>` block
 * at the start of `content` (local servers). The first two are the field it goes back in.
 */
export type ReasoningField = 'reasoning_content' | 'reasoning' | 'think';

export type ChatStreamEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; field: ReasoningField }
  | { type: 'tool_calls'; calls: ToolCall[] } // complete calls only
  | { type: 'usage'; usage: Usage }
  | { type: 'done'; finishReason: string | null };

export interface ChatCompletion {
  text: string;
  /** the model's reasoning, when it sent any */
  reasoning?: { text: string; field: ReasoningField };
  toolCalls: ToolCall[];
  usage?: Usage;
  finishReason: string | null;
}

export const IMAGE_SIZES = ['256x256', '512x512', '1024x1024', '1792x1024', '1024x1792'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

/** The image wire body of the gateway's interface. */
export interface ImageRequest {
  model: string;
  prompt: string;
  n?: number | null;
  size?: ImageSize | null;
  quality?: 'standard' | 'hd';
  style?: 'vivid' | 'natural' | null;
  user?: string;
  response_format?: 'url' | 'b64_json';
  provider?: ProviderSelection;
}

export interface GeneratedImage {
  url?: string;
  b64_json?: string;
  revised_prompt?: string;
}

export interface ImageResponse {
  created: number;
  data: GeneratedImage[];
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** streamChat: an attempt failed before content and is retried after `delayMs` (channel health counts it) */
  onRetry?: (error: GatewayError, delayMs: number) => void;
  /** streamChat: retries for this request instead of the client's (completions: 0, a retried completion is stale) */
  maxRetries?: number;
  /** streamChat: the request is handed to fetch (once per attempt): from here on the gateway may bill it */
  onSend?: () => void;
}

export interface GatewayClientOptions {
  /** e.g. http://127.0.0.1:8787/v1 (ends in the version segment) */
  baseUrl: string;
  apiKey: string | (() => string | undefined | Promise<string | undefined>);
  /** injectable; default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
  /** default 2 */
  maxRetries?: number;
  /** idle timeout: no byte for this long -> GatewayError 'timeout' */
  timeoutMs?: number;
  /** appended to "Could not reach ..." (the web build explains CORS there: src/platform/net.web.ts) */
  connectHint?: string;
}

export interface GatewayClient {
  streamChat(request: ChatRequest, options?: RequestOptions): AsyncIterable<ChatStreamEvent>;
  completeChat(request: ChatRequest, options?: RequestOptions): Promise<ChatCompletion>;
  generateImages(request: ImageRequest, options?: RequestOptions): Promise<ImageResponse>;
  imageBytes(image: { url?: string; b64_json?: string }, options?: RequestOptions): Promise<Uint8Array>;
  listModels(options?: RequestOptions): Promise<{ id: string }[]>;
}

export type { GatewayErrorKind } from './gatewayError';
