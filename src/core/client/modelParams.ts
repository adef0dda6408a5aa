// Per-model request parameters: what `modelgate.models.<id>` adds to every
// chat request for that model, in the panel and through vscode.lm. The caller's own values (a
// vscode.lm caller's modelOptions) win where they name the same thing.

export const REASONING_EFFORTS = ['low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];
export const MAX_TOKENS_FIELDS = ['max_tokens', 'max_completion_tokens'] as const;
export type MaxTokensField = (typeof MAX_TOKENS_FIELDS)[number];

/** Body fields extraBody may not set: they are the request itself, or decided elsewhere (the channel). */
export const RESERVED_BODY_FIELDS = ['model', 'messages', 'stream', 'tools', 'provider', 'stream_options'] as const;

export interface ModelRequestParams {
  maxOutputTokens?: number;
  maxTokensField?: MaxTokensField;
  temperature?: number;
  topP?: number;
  reasoningEffort?: ReasoningEffort;
  extraBody?: Record<string, unknown>;
}

/** The wire fields the parameters name (as sent). */
export function paramFields(p: ModelRequestParams | undefined): Record<string, unknown> {
  if (!p) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p.extraBody ?? {})) {
    if (!(RESERVED_BODY_FIELDS as readonly string[]).includes(k)) out[k] = v;
  }
  if (p.maxOutputTokens !== undefined) out[p.maxTokensField ?? 'max_tokens'] = p.maxOutputTokens;
  if (p.temperature !== undefined) out.temperature = p.temperature;
  if (p.topP !== undefined) out.top_p = p.topP;
  if (p.reasoningEffort !== undefined) out.reasoning_effort = p.reasoningEffort;
  return out;
}

/**
 * Merges the model's parameters into a chat body: the body's own fields win (the request was
 * built by the caller), and a caller's `max_tokens` goes to the field the entry names.
 */
export function withModelParams(body: Record<string, unknown>, p: ModelRequestParams | undefined): Record<string, unknown> {
  if (!p) return body;
  const merged: Record<string, unknown> = { ...paramFields(p) };
  for (const [k, v] of Object.entries(body)) if (v !== undefined) merged[k] = v;
  if (p.maxTokensField === 'max_completion_tokens' && merged.max_tokens !== undefined) {
    merged.max_completion_tokens = merged.max_tokens;
    delete merged.max_tokens;
  }
  return merged;
}

const num = (v: unknown, min: number, max: number) => (typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : undefined);

/**
 * The parts of a vscode.lm caller's `modelOptions` that name the same things as the per-model
 * parameters (OpenAI spelling or ours); anything else, or a bad value, is ignored.
 */
export function paramsFromModelOptions(options: Readonly<Record<string, unknown>> | undefined): ModelRequestParams {
  if (!options) return {};
  const o = options;
  const maxTokens = num(o.max_tokens ?? o.maxTokens ?? o.max_completion_tokens ?? o.maxOutputTokens, 1, 100_000_000);
  const temperature = num(o.temperature, 0, 2);
  const topP = num(o.top_p ?? o.topP, 0, 1);
  const effort = o.reasoning_effort ?? o.reasoningEffort;
  return {
    ...(maxTokens !== undefined && Number.isInteger(maxTokens) ? { maxOutputTokens: maxTokens } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(typeof effort === 'string' && (REASONING_EFFORTS as readonly string[]).includes(effort) ? { reasoningEffort: effort as ReasoningEffort } : {}),
  };
}

/** The settings' parameters with a caller's on top (the caller wins where both name a thing). */
export function mergeParams(settings: ModelRequestParams | undefined, caller: ModelRequestParams | undefined): ModelRequestParams | undefined {
  if (!caller || Object.keys(caller).length === 0) return settings;
  return { ...settings, ...caller };
}
