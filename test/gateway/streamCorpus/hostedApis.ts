// Transcripts of hosted OpenAI-compatible APIs: Azure OpenAI, Groq, Together, Mistral and
// Gemini's OpenAI endpoint. See types.ts.
import { chunker, pieces, sse, type Transcript } from './types';

// ---- Azure OpenAI ----
// "Content filtering", https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter
// and "Content streaming", .../concepts/content-streaming: the first chunk has empty `choices`
// and `prompt_filter_results`; content chunks carry `content_filter_results`; annotation chunks
// with `content_filter_offsets` and no delta; a filtered completion ends with `finish_reason:
// "content_filter"`.
const safe = {
  hate: { filtered: false, severity: 'safe' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
};
const azurePrompt = { choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: safe }] };
const azure = chunker(
  { id: 'chatcmpl-AzR3f9Kq1LmN0pQ', object: 'chat.completion.chunk', created: 1763000800, model: 'gpt-4o-2024-11-20', system_fingerprint: 'fp_ee1d74bde0' },
  { content_filter_results: {}, logprobs: null },
);
const azureAnnotation = (start: number, end: number) => ({
  id: 'chatcmpl-AzR3f9Kq1LmN0pQ',
  object: 'chat.completion.chunk',
  created: 1763000800,
  model: 'gpt-4o-2024-11-20',
  choices: [{ index: 0, finish_reason: null, content_filter_results: safe, content_filter_offsets: { check_offset: 0, start_offset: start, end_offset: end } }],
});
const azureAnswer = 'A private endpoint gives the resource an IP address inside your VNet.';

const azureText: Transcript = {
  name: 'azure-filtered-text',
  source:
    'Microsoft Learn, Azure OpenAI: Content filtering; Content streaming (learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter, content-streaming)',
  body: sse([
    azurePrompt,
    azure({ role: 'assistant', content: '', refusal: null }),
    ...pieces(azureAnswer, [6, 9, 4, 11]).map((p) => azure({ content: p })),
    azureAnnotation(0, 71),
    azure({}, 'stop'),
    {
      choices: [],
      created: 1763000800,
      id: 'chatcmpl-AzR3f9Kq1LmN0pQ',
      model: 'gpt-4o-2024-11-20',
      object: 'chat.completion.chunk',
      usage: {
        completion_tokens: 16,
        prompt_tokens: 25,
        total_tokens: 41,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      },
    },
    'data: [DONE]',
  ]),
  expect: { text: azureAnswer, finishReason: 'stop', usage: { promptTokens: 25, completionTokens: 16, cachedTokens: 0 } },
};

const azureFiltered: Transcript = {
  name: 'azure-content-filter-finish',
  source:
    'Microsoft Learn, Azure OpenAI: Content filtering, "finish_reason: content_filter" in streaming (learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter)',
  body: sse([
    azurePrompt,
    azure({ role: 'assistant', content: '' }),
    ...pieces('Here is the first part', [7, 8, 7]).map((p) => azure({ content: p })),
    {
      id: 'chatcmpl-AzR3f9Kq1LmN0pQ',
      object: 'chat.completion.chunk',
      created: 1763000800,
      model: 'gpt-4o-2024-11-20',
      choices: [
        { index: 0, delta: {}, finish_reason: 'content_filter', content_filter_results: { ...safe, violence: { filtered: true, severity: 'medium' } } },
      ],
    },
    'data: [DONE]',
  ]),
  expect: { text: 'Here is the first part', finishReason: 'content_filter' },
};

// ---- Groq ----
// GroqCloud "API Reference", https://console.groq.com/docs/api-reference#chat-create (streamed
// chunks carry `x_groq: {id}`, the last one `x_groq.usage` with the timings beside the tokens);
// "Reasoning", https://console.groq.com/docs/reasoning: `reasoning_format: "parsed"` puts the
// thinking in `delta.reasoning`. "Errors", https://console.groq.com/docs/errors: `tool_use_failed`
// with `failed_generation`.
const groq = chunker(
  {
    id: 'chatcmpl-bc4c2b5f-ad1c-4152-831f-a0885de968a3',
    object: 'chat.completion.chunk',
    created: 1763000900,
    model: 'qwen/qwen3-32b',
    system_fingerprint: 'fp_c06d5113ec',
  },
  { logprobs: null },
);
const groqUsage = {
  queue_time: 0.09032,
  prompt_tokens: 38,
  prompt_time: 0.00421,
  completion_tokens: 27,
  completion_time: 0.0266,
  total_tokens: 65,
  total_time: 0.03076,
};

const groqReasoning: Transcript = {
  name: 'groq-parsed-reasoning-x-groq-usage',
  source: 'GroqCloud docs: API Reference (x_groq usage); Reasoning (reasoning_format parsed) (console.groq.com/docs)',
  body: sse([
    groq({ role: 'assistant', content: '' }, null, { x_groq: { id: 'req_01k88s37gyfaqa5ckqj4t7mrg8' } }),
    ...pieces('Short greeting expected.').map((p) => groq({ reasoning: p })),
    ...pieces('Hello World!').map((p) => groq({ content: p })),
    groq({}, 'stop', { x_groq: { id: 'req_01k88s37gyfaqa5ckqj4t7mrg8', usage: groqUsage } }),
    'data: [DONE]',
  ]),
  expect: {
    text: 'Hello World!',
    reasoning: 'Short greeting expected.',
    reasoningField: 'reasoning',
    finishReason: 'stop',
    usage: { promptTokens: 38, completionTokens: 27, cachedTokens: 0 },
  },
};

const groqToolError: Transcript = {
  name: 'groq-tool-use-failed',
  source: 'GroqCloud docs: Errors (tool_use_failed, failed_generation) (console.groq.com/docs/errors)',
  body: sse([
    groq({ role: 'assistant', content: '' }, null, { x_groq: { id: 'req_01k88s37gyfaqa5ckqj4t7mrg9' } }),
    {
      error: {
        message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
        type: 'invalid_request_error',
        code: 'tool_use_failed',
        failed_generation: '<function=list_files{"path": "."}</function>',
      },
    },
  ]),
  expect: { text: '', error: { kind: 'bad_request', includes: 'Failed to call a function' } },
};

// ---- Together AI ----
// "Create chat completion" (streaming), https://docs.together.ai/reference/chat-completions-1:
// each choice carries `text` and a delta with `token_id` and `tool_calls: null`, `usage: null`
// until the last chunk, whose `usage` comes with the finish (`eos` among the documented reasons).
const together = (content: string, tokenId: number, finish: string | null = null, usage: object | null = null) => ({
  id: '8f2a1c3d4e5b6a70-SJC',
  object: 'chat.completion.chunk',
  created: 1763001000,
  model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
  choices: [
    {
      index: 0,
      text: content,
      logprobs: null,
      finish_reason: finish,
      seed: finish ? 4120349214503620000 : null,
      delta: { token_id: tokenId, role: 'assistant', content, tool_calls: null },
    },
  ],
  usage,
});
const togetherText: Transcript = {
  name: 'together-eos-usage',
  source: 'Together AI docs: Create chat completion, streaming chunk fields (docs.together.ai/reference/chat-completions-1)',
  body: sse([
    ...pieces('Paris is the capital of France.').map((p, i) => together(p, 1000 + i)),
    together('', 128009, 'eos', { prompt_tokens: 44, completion_tokens: 8, total_tokens: 52, cached_tokens: 0 }),
    'data: [DONE]',
  ]),
  expect: { text: 'Paris is the capital of France.', finishReason: 'eos', usage: { promptTokens: 44, completionTokens: 8, cachedTokens: 0 } },
};

// Together's DeepSeek-R1 ("Reasoning models guide", https://docs.together.ai/docs/reasoning-models-guide):
// the thinking in a `<think>` block at the start of the content.
const togetherThink: Transcript = {
  name: 'together-r1-think-tags',
  source: 'Together AI docs: Reasoning models guide, DeepSeek-R1 <think> output (docs.together.ai/docs/reasoning-models-guide)',
  body: sse([
    ...['<think>', '\n', 'Simple sum.', '\n', '</think>', '\n\n', 'The answer is 4.'].map((p, i) => together(p, 2000 + i)),
    together('', 1, 'stop', { prompt_tokens: 12, completion_tokens: 14, total_tokens: 26 }),
    'data: [DONE]',
  ]),
  expect: {
    text: 'The answer is 4.',
    reasoning: '\nSimple sum.\n',
    reasoningField: 'think',
    finishReason: 'stop',
    usage: { promptTokens: 12, completionTokens: 14, cachedTokens: 0 },
  },
};

// ---- Mistral ----
// "Chat Completion" API (stream), https://docs.mistral.ai/api/#tag/chat and "Function calling",
// https://docs.mistral.ai/capabilities/function_calling/: whole calls in one chunk, 9-character
// ids, no `type`; usage in the last chunk with the finish. "Reasoning" (Magistral),
// https://docs.mistral.ai/capabilities/reasoning/: `content` as a list of chunks, `{type:
// "thinking", thinking: [{type: "text", text}]}` then `{type: "text", text}`.
const mistral = chunker({ id: 'cf79f7daaee244b1a0ae5c7b1444424a', object: 'chat.completion.chunk', created: 1763001100, model: 'mistral-large-latest' });

const mistralTools: Transcript = {
  name: 'mistral-tools',
  source: 'Mistral AI docs: Chat Completion API (stream); Function calling (docs.mistral.ai)',
  body: sse([
    mistral({ role: 'assistant', content: '' }),
    mistral({ tool_calls: [{ id: 'D681PevKs', function: { name: 'retrieve_payment_status', arguments: '{"transaction_id": "T1001"}' }, index: 0 }] }),
    mistral({ content: '' }, 'tool_calls', { usage: { prompt_tokens: 167, total_tokens: 197, completion_tokens: 30 } }),
    'data: [DONE]',
  ]),
  expect: {
    text: '',
    toolCalls: [{ id: 'D681PevKs', name: 'retrieve_payment_status', arguments: '{"transaction_id": "T1001"}' }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 167, completionTokens: 30, cachedTokens: 0 },
  },
};

const magistral = chunker({ id: '0a4c1e1fd7b94ae6a05b7b7e0c5f5a11', object: 'chat.completion.chunk', created: 1763001150, model: 'magistral-medium-latest' });
const magistralThinking = 'Let me count the letters: s-t-r-a-w-b-e-r-r-y.';
const mistralThinking: Transcript = {
  name: 'mistral-magistral-thinking-chunks',
  source: 'Mistral AI docs: Reasoning (Magistral), thinking chunks in content (docs.mistral.ai/capabilities/reasoning)',
  body: sse([
    magistral({ role: 'assistant', content: '' }),
    ...pieces(magistralThinking, [8, 13, 6]).map((p) => magistral({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: p }] }] })),
    magistral({ content: [{ type: 'text', text: 'There are ' }] }),
    magistral({ content: '3 r’s.' }),
    magistral({ content: '' }, 'stop', { usage: { prompt_tokens: 30, total_tokens: 90, completion_tokens: 60 } }),
    'data: [DONE]',
  ]),
  expect: {
    text: 'There are 3 r’s.',
    reasoning: magistralThinking,
    reasoningField: 'think',
    finishReason: 'stop',
    usage: { promptTokens: 30, completionTokens: 60, cachedTokens: 0 },
  },
};

// ---- Gemini's OpenAI endpoint ----
// "OpenAI compatibility", https://ai.google.dev/gemini-api/docs/openai (streaming, function
// calling, `reasoning_effort`): chunks without `id` in the first ones' choices order (`delta`
// first), no `finish_reason` until the last chunk, which carries the usage too; function calls
// stream whole, one chunk each.
const gemini = (delta: object, finish?: string, usage?: object) => ({
  choices: [{ delta, ...(finish ? { finish_reason: finish } : {}), index: 0 }],
  created: 1763001200,
  id: 'YbUbaZ2qC8GOmtkP4Mu6qAk',
  model: 'gemini-2.5-flash',
  object: 'chat.completion.chunk',
  ...(usage ? { usage } : {}),
});
const geminiText: Transcript = {
  name: 'gemini-openai-text',
  source: 'Gemini API docs: OpenAI compatibility, streaming (ai.google.dev/gemini-api/docs/openai)',
  body: sse([
    gemini({ content: 'AI works by learning', role: 'assistant' }),
    gemini({ content: ' patterns from data → then ', role: 'assistant' }),
    gemini({ content: 'predicting. ✓', role: 'assistant' }, 'stop', { completion_tokens: 14, prompt_tokens: 9, total_tokens: 61 }),
    'data: [DONE]',
  ]),
  expect: {
    text: 'AI works by learning patterns from data → then predicting. ✓',
    finishReason: 'stop',
    usage: { promptTokens: 9, completionTokens: 14, cachedTokens: 0 },
  },
};

const geminiTools: Transcript = {
  name: 'gemini-openai-parallel-tools',
  source: 'Gemini API docs: OpenAI compatibility, function calling (ai.google.dev/gemini-api/docs/openai)',
  body: sse([
    gemini({
      role: 'assistant',
      tool_calls: [{ function: { arguments: '{"location":"Chicago, IL"}', name: 'get_weather' }, id: 'function-call-1160286718153419838', type: 'function' }],
    }),
    gemini({
      role: 'assistant',
      tool_calls: [{ function: { arguments: '{"location":"Boston, MA"}', name: 'get_weather' }, id: 'function-call-1160286718153419839', type: 'function' }],
    }),
    gemini({ role: 'assistant' }, 'tool_calls', { completion_tokens: 20, prompt_tokens: 70, total_tokens: 90 }),
    'data: [DONE]',
  ]),
  expect: {
    text: '',
    toolCalls: [
      { id: 'function-call-1160286718153419838', name: 'get_weather', arguments: '{"location":"Chicago, IL"}' },
      { id: 'function-call-1160286718153419839', name: 'get_weather', arguments: '{"location":"Boston, MA"}' },
    ],
    finishReason: 'tool_calls',
    usage: { promptTokens: 70, completionTokens: 20, cachedTokens: 0 },
  },
};

export const hostedApis: Transcript[] = [
  azureText,
  azureFiltered,
  groqReasoning,
  groqToolError,
  togetherText,
  togetherThink,
  mistralTools,
  mistralThinking,
  geminiText,
  geminiTools,
];
