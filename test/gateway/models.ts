// What the simulated gateway serves: the models of the hosted gateway's
// service interface, under the ids the extension's built-in catalogue expects (src/core/catalogue/modelCatalogue.ts).
// The simulator deliberately does not import the catalogue: it stands for the real service,
// which knows nothing about the client.
import type { Channel } from '../../src/core/client/types';

export interface SimChatModel {
  kind: 'chat';
  id: string;
  imageInput: boolean;
  contextWindow: number;
  maxOutput: number;
  /** explicit prompt caching: a prefix repeated from an earlier request is billed at the cache price */
  caching: boolean;
  /**
   * How its prompt cache bills, each after a provider's document (prompt-cache.ts, prompt-units.ts):
   * `openai` = OpenAI "Prompt caching" (automatic; the longest shared prefix from 1,024 tokens in
   * 128-token increments; minutes of inactivity), `deepseek` = DeepSeek "Context Caching" (cache
   * prefix units at the end of each request's input and output, at common prefixes and at fixed
   * token intervals; hit only by a whole unit; kept for hours).
   */
  cacheScheme: 'openai' | 'deepseek';
  /**
   * How its tokens are counted (tokens.ts): `json` = a quarter token per character of the request's
   * JSON (the simulator's own rule); `deepseek` = DeepSeek "Token & Token Usage" (about 0.3 token per
   * English character, 0.6 per Chinese character) over the rendered conversation.
   */
  tokens: 'json' | 'deepseek';
  /** a reasoning model: every answer starts with reasoning in `reasoning_content` (DeepSeek's form) */
  thinks?: boolean;
}

export type SimImageSize = '256x256' | '512x512' | '1024x1024' | '1792x1024' | '1024x1792';

export interface SimImageModel {
  kind: 'image';
  id: string;
  sizes: readonly SimImageSize[];
  maxN: number;
  /** quality and style "apply to <image_model_restricted> only", says the interface */
  qualityAndStyle: boolean;
  /** only the third-generation model refines prompts */
  revisesPrompt: boolean;
}

export const SIM_CHAT_MODELS: readonly SimChatModel[] = [
  { kind: 'chat', id: 'flagship-text', imageInput: false, contextWindow: 1_000_000, maxOutput: 128_000, caching: true, cacheScheme: 'openai', tokens: 'json' },
  {
    kind: 'chat',
    id: 'long-context-tools',
    imageInput: true,
    contextWindow: 2_000_000,
    maxOutput: 2_000_000,
    caching: true,
    cacheScheme: 'openai',
    tokens: 'json',
  },
  // Beyond the service interface: a reasoning model that bills as DeepSeek documents its API
  // (context caching, token counts, usage fields), so quotes meet a second caching scheme.
  {
    kind: 'chat',
    id: 'reasoner',
    imageInput: false,
    contextWindow: 128_000,
    maxOutput: 64_000,
    caching: true,
    cacheScheme: 'deepseek',
    tokens: 'deepseek',
    thinks: true,
  },
  // Beyond the service interface: a model with a small window (16K, as many local and older models
  // have), so a long conversation outgrows it within a few turns and has to be compacted. It
  // refuses an overflow as OpenAI's chat completions API does (400 `context_length_exceeded`,
  // "This model's maximum context length is N tokens. However, you requested M tokens …").
  { kind: 'chat', id: 'small-window', imageInput: false, contextWindow: 16_000, maxOutput: 4_000, caching: true, cacheScheme: 'openai', tokens: 'json' },
];

export const SIM_IMAGE_MODELS: readonly SimImageModel[] = [
  { kind: 'image', id: 'image-restricted', sizes: ['1024x1024', '1792x1024', '1024x1792'], maxN: 1, qualityAndStyle: true, revisesPrompt: true },
  { kind: 'image', id: 'image-small', sizes: ['256x256', '512x512', '1024x1024'], maxN: 10, qualityAndStyle: false, revisesPrompt: false },
  // Listed by GET /models only: the extension's built-in catalogue does not know its rules
  // (such a model must work on the first call, with the options the caller asked for).
  { kind: 'image', id: 'image-gateway-only', sizes: ['256x256', '512x512', '1024x1024'], maxN: 4, qualityAndStyle: false, revisesPrompt: false },
];

/** The interface: "When `provider` is omitted, the service picks the default channel." The sim picks this one. */
export const DEFAULT_CHANNEL: Channel = 'stable';
export const SIM_CHANNELS: readonly Channel[] = ['direct', 'stable', 'economical'];

export function chatModel(id: string): SimChatModel | undefined {
  return SIM_CHAT_MODELS.find((m) => m.id === id);
}

export function imageModel(id: string): SimImageModel | undefined {
  return SIM_IMAGE_MODELS.find((m) => m.id === id);
}

/**
 * The metadata forms of GET /models real servers use; `minimal` is the
 * interface document's `{id, object, owned_by}`. Each form follows a public document:
 * - openrouter: https://openrouter.ai/docs/api-reference/list-available-models (`context_length`,
 *   `top_provider.max_completion_tokens`, `pricing.*` as USD-per-token strings,
 *   `architecture.input_modalities`, `supported_parameters`);
 * - vllm: https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html (ModelCard's
 *   `max_model_len`, `root`, `parent`);
 * - litellm: https://docs.litellm.ai/docs/proxy/model_management (model info's `max_input_tokens`,
 *   `max_output_tokens`, `input_cost_per_token`, `output_cost_per_token`, `supports_*`).
 */
export type ModelsForm = 'minimal' | 'openrouter' | 'vllm' | 'litellm';

/** Per-token USD as OpenRouter writes it: a decimal string (1.25 per 1M -> "0.00000125"). */
const perToken = (perMillion: number) => (perMillion / 1e6).toFixed(12).replace(/0+$/, '').replace(/\.$/, '');

export function chatModelEntry(m: SimChatModel, form: ModelsForm, price?: { input: number; output: number; cacheRead?: number }): Record<string, unknown> {
  const base = { id: m.id, object: 'model', owned_by: 'modelgate-sim' };
  switch (form) {
    case 'openrouter':
      return {
        id: m.id,
        name: m.id,
        created: 1_700_000_000,
        context_length: m.contextWindow,
        architecture: {
          modality: m.imageInput ? 'text+image->text' : 'text->text',
          input_modalities: m.imageInput ? ['text', 'image'] : ['text'],
          output_modalities: ['text'],
        },
        ...(price
          ? {
              pricing: {
                prompt: perToken(price.input),
                completion: perToken(price.output),
                ...(price.cacheRead !== undefined ? { input_cache_read: perToken(price.cacheRead) } : {}),
                request: '0',
                image: '0',
              },
            }
          : {}),
        top_provider: { context_length: m.contextWindow, max_completion_tokens: m.maxOutput, is_moderated: false },
        supported_parameters: ['max_tokens', 'temperature', 'top_p', 'tools', 'tool_choice', 'stop', ...(m.thinks ? ['reasoning'] : [])],
      };
    case 'vllm':
      return { ...base, owned_by: 'vllm', root: m.id, parent: null, max_model_len: m.contextWindow, permission: [] };
    case 'litellm':
      return {
        ...base,
        max_input_tokens: m.contextWindow,
        max_output_tokens: m.maxOutput,
        ...(price ? { input_cost_per_token: price.input / 1e6, output_cost_per_token: price.output / 1e6 } : {}),
        supports_vision: m.imageInput,
        supports_function_calling: true,
        ...(m.thinks ? { supports_reasoning: true } : {}),
      };
    default:
      return base;
  }
}

/**
 * An image model's /models entry. In the OpenRouter form it lists its per-image prices as
 * `pricing.image_output`: {quality: {size: USD per image as a decimal string}}, the shape
 * Modelgate reads (src/core/catalogue/modelFacts.ts); the other forms list the id only.
 */
export function imageModelEntry(
  m: SimImageModel,
  form: ModelsForm,
  prices?: Partial<Record<'standard' | 'hd', Partial<Record<string, number>>>>,
): Record<string, unknown> {
  const base = { id: m.id, object: 'model', owned_by: 'modelgate-sim' };
  if (form !== 'openrouter' || !prices) return base;
  const image_output = Object.fromEntries(
    Object.entries(prices).map(([quality, sizes]) => [quality, Object.fromEntries(Object.entries(sizes ?? {}).map(([size, usd]) => [size, String(usd)]))]),
  );
  return {
    ...base,
    name: m.id,
    architecture: { input_modalities: ['text'], output_modalities: ['image'] },
    pricing: { image_output },
  };
}
