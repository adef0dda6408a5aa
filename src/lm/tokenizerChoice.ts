// Which public tokenizer counts a model's tokens, for vscode.lm's countTokens. Pure.
//
// OpenAI publishes its encodings (tiktoken; the same ranks in the npm package gpt-tokenizer):
// o200k_base for gpt-4o, gpt-4.1, gpt-4.5, gpt-5, the o-series and gpt-oss (o200k_harmony: the
// same ranks plus chat tokens), cl100k_base for gpt-4 and gpt-3.5-turbo (tiktoken's model.py
// MODEL_PREFIX_TO_ENCODING). Other makers publish theirs as Hugging Face tokenizer.json files
// (Llama, Mistral, Qwen, DeepSeek): each is megabytes of vocabulary per model generation, and no
// gateway id says which generation or fine-tune it serves, so a count could be exact for the
// wrong vocabulary. Their models (and every id of no known family) keep the estimate of
// src/core/prompt/tokens.ts, which VS Code's chat uses only to budget its prompt.
import { baseModelId } from './modelFamily';

export type Encoding = 'o200k_base' | 'cl100k_base';

const O200K = /^(?:gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|codex-mini|o[134](?:-|$))/;
const CL100K = /^(?:gpt-4|gpt-3\.5|gpt-35)(?:-|$)/;

/** The encoding of a gateway model id (`openai/gpt-4o-2024-08-06`, `gpt-5-mini`, ...), or undefined: estimate. */
export function encodingFor(modelId: string): Encoding | undefined {
  const base = baseModelId(modelId);
  if (O200K.test(base)) return 'o200k_base';
  if (CL100K.test(base)) return 'cl100k_base';
  return undefined;
}

export type TokenCounter = (text: string) => number;

/** The part of gpt-tokenizer's encoding module used here. */
export interface EncodingApi {
  countTokens(text: string, options?: { allowedSpecial?: Set<string>; disallowedSpecial?: Set<string> }): number;
}

/**
 * Counts text as the model reads a user's text: a special token's spelling (`<|endoftext|>`) is
 * ordinary text there, so it is counted as such instead of throwing (gpt-tokenizer throws on it by
 * default, like tiktoken).
 */
export function counterOf(api: EncodingApi): TokenCounter {
  const options = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };
  return (text) => api.countTokens(text, options);
}

/**
 * Framing tokens per chat message with a real tokenizer: OpenAI's count for its chat models
 * (`tokens_per_message = 3`, "How to count tokens with tiktoken" in the OpenAI Cookbook). The
 * estimate keeps its own 4 (MESSAGE_OVERHEAD_TOKENS), which leans high on purpose.
 */
export const TOKENIZED_MESSAGE_OVERHEAD = 3;
