// Token usage in the forms servers send it. OpenAI's is `usage` at the top of a chunk with
// `prompt_tokens_details.cached_tokens`; others put it elsewhere or name the cache otherwise:
// - Moonshot/Kimi ("Chat Completion" API, streaming): `usage` inside `choices[0]` of the last
//   chunk, and `usage.cached_tokens` for context caching;
// - Groq ("API Reference", chat create): `x_groq.usage` in the last chunk;
// - DeepSeek ("Context Caching"): `prompt_cache_hit_tokens` (part of `prompt_tokens`).
// A usage found in one of these other places is read only when it has the right shape: usage
// is never worth failing an answer (the top-level `usage` is validated with the chunk, as before).
import type { Usage } from './types';
import { wire, type WireUsage } from './wire';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

export function usageFromWire(usage: WireUsage): Usage {
  const u = usage as Rec;
  const promptTokens = usage.prompt_tokens ?? 0;
  // cached: OpenAI's field, else DeepSeek's, else Moonshot's; never more than the prompt
  const cached = usage.prompt_tokens_details?.cached_tokens ?? count(u.prompt_cache_hit_tokens) ?? count(u.cached_tokens) ?? 0;
  const out: Usage = {
    promptTokens,
    completionTokens: usage.completion_tokens ?? 0,
    cachedTokens: promptTokens > 0 ? Math.min(cached, promptTokens) : cached,
  };
  // Part of completion_tokens (never added to it): shown, not charged again. 0 = none to show.
  const details: unknown = usage.completion_tokens_details;
  const reasoning = isRecord(details) ? details.reasoning_tokens : undefined;
  if (typeof reasoning === 'number' && Number.isFinite(reasoning) && reasoning > 0) out.reasoningTokens = reasoning;
  return out;
}

function validUsage(v: unknown): WireUsage | undefined {
  if (!isRecord(v)) return undefined;
  const parsed = wire().wireUsageSchema.safeParse(v);
  return parsed.success && (parsed.data.prompt_tokens != null || parsed.data.completion_tokens != null) ? parsed.data : undefined;
}

/** The usage a chunk carries somewhere other than its top-level `usage` (Moonshot's choice, Groq's x_groq), or undefined. */
export function otherUsage(chunk: Rec, choice: Rec | undefined): WireUsage | undefined {
  const inChoice = choice ? validUsage(choice.usage) : undefined;
  if (inChoice) return inChoice;
  const groq = chunk.x_groq;
  return isRecord(groq) ? validUsage(groq.usage) : undefined;
}
