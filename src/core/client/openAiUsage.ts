// A request's usage in the OpenAI wire shape (`usage` of a chat completion): what VS Code's chat
// reads from a provider's `usage` data part for its context meter. Cached prompt tokens are part
// of prompt_tokens, as the gateway reports them. Pure.
import type { Usage } from './types';

export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

export function openAiUsage(u: Usage): OpenAiUsage {
  return {
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.promptTokens + u.completionTokens,
    prompt_tokens_details: { cached_tokens: u.cachedTokens },
    ...(u.reasoningTokens !== undefined ? { completion_tokens_details: { reasoning_tokens: u.reasoningTokens } } : {}),
  };
}
