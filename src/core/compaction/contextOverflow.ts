// Whether a gateway error says the prompt does not fit the model's context window, in the words
// of the providers behind OpenAI-compatible gateways, and the window it names when it names one.
// Each wording below is quoted from the document named beside it. A 413 counts too (a gateway that
// refuses the body's size), and so does any error whose `code` is `context_length_exceeded`.
// Pure.

export interface ContextOverflow {
  /** the window the message names (tokens), when it names one */
  window?: number;
  /** the tokens the message says the request had, when it says */
  requested?: number;
}

interface Wording {
  /** who uses it, and the document it is quoted from */
  source: string;
  pattern: RegExp;
  /** capture group numbers of the window and the requested tokens, when the wording names them */
  window?: number;
  requested?: number;
}

const N = '([\\d,._ ]+)';

export const OVERFLOW_WORDINGS: readonly Wording[] = [
  {
    // OpenAI API reference, "Error codes" / chat completions 400 `context_length_exceeded`:
    // "This model's maximum context length is 8192 tokens. However, your messages resulted in 8200 tokens."
    // vLLM's OpenAI-compatible server ("OpenAI-Compatible Server" docs) and DeepSeek's API
    // ("Error Codes": 400 Invalid Format) use the same sentence with "you requested N tokens".
    source: 'OpenAI, vLLM, DeepSeek, Groq, Together',
    pattern: new RegExp(`maximum context length is ${N} tokens.*?(?:resulted in|you requested|request has)(?: about)? ${N}`, 'is'),
    window: 1,
    requested: 2,
  },
  {
    // OpenRouter docs, "Errors": "This endpoint's maximum context length is N tokens. However, you requested about M tokens"
    source: 'OpenRouter',
    pattern: new RegExp(`endpoint's maximum context length is ${N} tokens`, 'i'),
    window: 1,
  },
  {
    // The same sentence without the request's size (vLLM when the completion alone is too long)
    source: 'OpenAI-style without the request size',
    pattern: new RegExp(`maximum context length is ${N} tokens`, 'i'),
    window: 1,
  },
  {
    // OpenAI Responses API ("Conversation state" guide, context window): "Your input exceeds the context window of this model."
    source: 'OpenAI Responses',
    pattern: /input exceeds the context window/i,
  },
  {
    // Anthropic API docs, "Errors" (invalid_request_error) and "Context windows":
    // "prompt is too long: 208310 tokens > 200000 maximum"
    source: 'Anthropic-style gateways',
    pattern: new RegExp(`prompt is too long(?::\\s*${N} tokens?\\s*>\\s*${N})?`, 'i'),
    requested: 1,
    window: 2,
  },
  {
    // Anthropic API docs, "Context windows": "input length and `max_tokens` exceed context limit"
    source: 'Anthropic (input plus max_tokens)',
    pattern: /input length and `?max_tokens`? exceed context limit/i,
  },
  {
    // Gemini API docs, "Troubleshooting guide" (400 INVALID_ARGUMENT):
    // "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576)."
    source: 'Gemini',
    pattern: new RegExp(`input token count \\(?${N}\\)? exceeds the maximum number of tokens allowed \\(?${N}`, 'i'),
    requested: 1,
    window: 2,
  },
  {
    // vLLM engine ("Engine arguments", max_model_len): "The decoder prompt (length 5000) is longer than the maximum model length of 4096."
    source: 'vLLM engine',
    pattern: new RegExp(`prompt \\(length ${N}\\) is longer than the maximum model length of ${N}`, 'i'),
    requested: 1,
    window: 2,
  },
  {
    // Mistral API docs, "Errors": "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length"
    source: 'Mistral',
    pattern: new RegExp(`prompt contains ${N} tokens.*too large for model with ${N} maximum context length`, 'is'),
    requested: 1,
    window: 2,
  },
  {
    // Amazon Bedrock API reference, InvokeModel / Converse ValidationException: "Input is too long for requested model."
    source: 'Amazon Bedrock',
    pattern: /input is too long for (?:the )?requested model/i,
  },
  {
    // llama.cpp server README (error type exceed_context_size_error): "the request exceeds the available context size"
    source: 'llama.cpp server',
    pattern: /exceeds the available context size/i,
  },
  {
    // Cohere API docs, "Errors": "too many tokens: total number of tokens in the prompt cannot exceed N"
    source: 'Cohere',
    pattern: new RegExp(`number of tokens in the prompt cannot exceed ${N}`, 'i'),
    window: 1,
  },
  {
    // Generic wordings of other gateways (LiteLLM's ContextWindowExceededError, Azure OpenAI's code name in prose)
    source: 'generic',
    pattern: /context[ _]length[ _]exceeded|context window (?:is )?(?:full|exceeded)|exceeds? (?:the )?(?:model'?s? )?context (?:window|length|limit)/i,
  },
];

const num = (s: string | undefined): number | undefined => {
  if (s === undefined) return undefined;
  const n = Number(s.replace(/[,._ ]/g, ''));
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

export interface ErrorFacts {
  status?: number;
  code?: string;
  /** the server's own words */
  message?: string;
}

/** The overflow an error reports, or undefined when it is another error. */
export function contextOverflow(e: ErrorFacts): ContextOverflow | undefined {
  const text = e.message ?? '';
  const byCode = e.code === 'context_length_exceeded';
  if (e.status !== undefined && e.status !== 400 && e.status !== 413 && e.status !== 422 && !byCode) return undefined;
  for (const w of OVERFLOW_WORDINGS) {
    const m = w.pattern.exec(text);
    if (!m) continue;
    const out: ContextOverflow = {};
    const window = w.window ? num(m[w.window]) : undefined;
    const requested = w.requested ? num(m[w.requested]) : undefined;
    if (window !== undefined) out.window = window;
    if (requested !== undefined) out.requested = requested;
    return out;
  }
  if (byCode || e.status === 413) return {};
  return undefined;
}
