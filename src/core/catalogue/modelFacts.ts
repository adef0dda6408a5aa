// Model facts read from the gateway's GET /models, in the forms real servers
// use. Unknown fields are ignored; a bad value (negative, not a number, absurdly large) is
// skipped and reported, and never drops the entry or the list.
//
// Forms read:
// - OpenRouter (https://openrouter.ai/docs/api-reference/list-available-models): `context_length`,
//   `top_provider.context_length`, `top_provider.max_completion_tokens`, `pricing.prompt`,
//   `pricing.completion`, `pricing.input_cache_read` (USD per token, as strings),
//   `architecture.input_modalities`, `supported_parameters` (`tools`, `reasoning`); for image
//   models `pricing.image_output`: USD per generated image by quality and size, as strings or
//   numbers (`{"standard": {"1024x1024": "0.04"}, "hd": {...}}`; OpenRouter's own `pricing.image`
//   is the price of an image *input*, so it is not read as one);
// - vLLM (https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html, ModelCard):
//   `max_model_len`;
// - others seen in the field (LiteLLM's model info, https://docs.litellm.ai/docs/proxy/model_management):
//   `context_window`, `max_input_tokens`, `max_output_tokens`, `input_cost_per_token`,
//   `output_cost_per_token`, `cache_read_input_token_cost`, `supports_vision`,
//   `supports_function_calling`, `supports_reasoning`.

/** USD per 1M tokens, the shape of the catalogue's Price (kept here: the catalogue imports this module). */
export interface Price {
  input: number;
  output: number;
  cacheRead?: number;
}

export interface GatewayModelFacts {
  id: string;
  contextWindow?: number;
  maxOutput?: number;
  imageInput?: boolean;
  tools?: boolean;
  /** the model takes a reasoning effort (`reasoning_effort`) */
  reasoning?: boolean;
  /** USD per 1M tokens (the catalogue's unit) */
  price?: Price;
  /** image models: USD per generated image, by quality and size */
  imagePrices?: Partial<Record<ImageQuality, Partial<Record<string, number>>>>;
}

export type ImageQuality = 'standard' | 'hd';
/** USD per image; more is not a price anybody charges */
export const MAX_IMAGE_PRICE = 100;
const IMAGE_SIZE = /^\d{2,5}x\d{2,5}$/;

export interface FactsProblem {
  modelId: string;
  field: string;
  value: string;
}

/** More than this is not a context window anybody serves (largest today: 10M). */
export const MAX_TOKENS_FACT = 100_000_000;
/** USD per 1M tokens; more is a unit mistake (per 1M sent as per token), not a price. */
export const MAX_PRICE_PER_M = 10_000;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function show(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' ? String(v) : typeof v;
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/** Reads facts from the raw entries of a /models answer (strings or objects with an id). */
export function parseModelFacts(entries: readonly unknown[]): { models: GatewayModelFacts[]; problems: FactsProblem[] } {
  const models: GatewayModelFacts[] = [];
  const problems: FactsProblem[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') {
      if (entry) models.push({ id: entry });
      continue;
    }
    if (!isRec(entry) || typeof entry.id !== 'string' || !entry.id) continue;
    models.push(factsOf(entry, (field, value) => problems.push({ modelId: entry.id as string, field, value: show(value) })));
  }
  return { models, problems };
}

function factsOf(e: Rec, bad: (field: string, value: unknown) => void): GatewayModelFacts {
  const id = e.id as string;
  const top = isRec(e.top_provider) ? e.top_provider : {};
  const tokens = (field: string, v: unknown): number | undefined => {
    if (v === undefined || v === null) return undefined;
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= MAX_TOKENS_FACT) return n;
    bad(field, v);
    return undefined;
  };
  const first = (...pairs: Array<[string, unknown]>): number | undefined => {
    for (const [field, v] of pairs) {
      const n = tokens(field, v);
      if (n !== undefined) return n;
    }
    return undefined;
  };
  const contextWindow = first(
    ['context_length', e.context_length],
    ['max_model_len', e.max_model_len],
    ['context_window', e.context_window],
    ['max_input_tokens', e.max_input_tokens],
    ['top_provider.context_length', top.context_length],
  );
  const maxOutput = first(['top_provider.max_completion_tokens', top.max_completion_tokens], ['max_output_tokens', e.max_output_tokens]);

  const perToken = (field: string, v: unknown): number | undefined => {
    if (v === undefined || v === null || v === '') return undefined;
    const n = typeof v === 'string' ? Number(v) : v;
    // per 1M, without the float noise of 0.000002 * 1e6
    const perM = typeof n === 'number' && Number.isFinite(n) ? Math.round(n * 1e12) / 1e6 : NaN;
    if (perM >= 0 && perM <= MAX_PRICE_PER_M) return perM;
    bad(field, v);
    return undefined;
  };
  const pricing = isRec(e.pricing) ? e.pricing : {};
  const input = perToken('pricing.prompt', pricing.prompt) ?? perToken('input_cost_per_token', e.input_cost_per_token);
  const output = perToken('pricing.completion', pricing.completion) ?? perToken('output_cost_per_token', e.output_cost_per_token);
  const cacheRead = perToken('pricing.input_cache_read', pricing.input_cache_read) ?? perToken('cache_read_input_token_cost', e.cache_read_input_token_cost);
  const price: Price | undefined =
    input !== undefined && output !== undefined ? { input, output, ...(cacheRead !== undefined ? { cacheRead } : {}) } : undefined;

  const imagePrices = imagePricesOf(pricing.image_output, bad);

  const arch = isRec(e.architecture) ? e.architecture : {};
  const modalities = Array.isArray(arch.input_modalities) ? arch.input_modalities : undefined;
  const params = Array.isArray(e.supported_parameters) ? e.supported_parameters.filter((p): p is string => typeof p === 'string') : undefined;
  const flag = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
  const imageInput = modalities ? modalities.includes('image') : flag(e.supports_vision);
  const tools = params ? params.includes('tools') : flag(e.supports_function_calling);
  const reasoning = params ? params.includes('reasoning') || params.includes('reasoning_effort') : flag(e.supports_reasoning);

  return {
    id,
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    ...(maxOutput !== undefined ? { maxOutput } : {}),
    ...(imageInput !== undefined ? { imageInput } : {}),
    ...(tools !== undefined ? { tools } : {}),
    ...(reasoning !== undefined ? { reasoning } : {}),
    ...(price ? { price } : {}),
    ...(imagePrices ? { imagePrices } : {}),
  };
}

/** `pricing.image_output`: {quality: {size: USD per image}}; bad values skipped and reported. */
function imagePricesOf(raw: unknown, bad: (field: string, value: unknown) => void): GatewayModelFacts['imagePrices'] {
  if (raw === undefined || raw === null) return undefined;
  if (!isRec(raw)) {
    bad('pricing.image_output', raw);
    return undefined;
  }
  const out: NonNullable<GatewayModelFacts['imagePrices']> = {};
  for (const quality of ['standard', 'hd'] as const) {
    const sizes = raw[quality];
    if (sizes === undefined) continue;
    if (!isRec(sizes)) {
      bad(`pricing.image_output.${quality}`, sizes);
      continue;
    }
    for (const [size, v] of Object.entries(sizes)) {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
      if (!IMAGE_SIZE.test(size) || typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > MAX_IMAGE_PRICE) {
        bad(`pricing.image_output.${quality}.${size.slice(0, 20)}`, v);
        continue;
      }
      (out[quality] ??= {})[size] = n;
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/** One log line for all the values a listing had to skip (at most a few named, then a count). */
export function describeFactsProblems(problems: readonly FactsProblem[]): string | undefined {
  if (problems.length === 0) return undefined;
  const named = problems.slice(0, 5).map((p) => `${p.modelId} ${p.field}=${p.value}`);
  const more = problems.length > named.length ? ` and ${problems.length - named.length} more` : '';
  return `GET /models: ignored ${problems.length} bad value(s) (negative, not a number or too large): ${named.join(', ')}${more}.`;
}
