// Transcripts of the hosted reasoning APIs: DeepSeek, Moonshot/Kimi, Qwen (Model Studio's
// compatible mode), OpenRouter and vLLM. See types.ts.
import { chunker, pieces, sse, type Transcript } from './types';

// ---- DeepSeek ----
// "Reasoning Model (deepseek-reasoner)", https://api-docs.deepseek.com/guides/reasoning_model:
// `delta.reasoning_content` before `delta.content`, the other one null. "Create Chat Completion",
// https://api-docs.deepseek.com/api/create-chat-completion: `: keep-alive` comments while the
// request waits; the usage object with `prompt_cache_hit_tokens` / `prompt_cache_miss_tokens`
// ("Context Caching", https://api-docs.deepseek.com/guides/kv_cache) and
// `completion_tokens_details.reasoning_tokens`, in the last chunk with the finish.
const deepseek = chunker(
  {
    id: '5f9c4b7e-0d3a-4c1e-9a52-8e6d2f1b7c30',
    object: 'chat.completion.chunk',
    created: 1763000000,
    model: 'deepseek-reasoner',
    system_fingerprint: 'fp_ffc7281d48_prod0820_fp8_kvcache',
  },
  { logprobs: null },
);
const deepseekThinking = 'The user greets in French: « bonjour ». Answer briefly → in French.';
const deepseekAnswer = 'Bonjour ! Comment puis-je vous aider aujourd’hui ? 🙂';

const deepseekText: Transcript = {
  name: 'deepseek-reasoner-text',
  source: 'DeepSeek API Docs: Reasoning Model; Create Chat Completion; Context Caching (api-docs.deepseek.com)',
  body: sse([
    ': keep-alive',
    deepseek({ role: 'assistant', content: null, reasoning_content: '' }),
    ...pieces(deepseekThinking).map((p) => deepseek({ content: null, reasoning_content: p })),
    ...pieces(deepseekAnswer).map((p) => deepseek({ content: p, reasoning_content: null })),
    deepseek({ content: '', reasoning_content: null }, 'stop', {
      usage: {
        completion_tokens: 48,
        prompt_tokens: 78,
        prompt_cache_hit_tokens: 64,
        prompt_cache_miss_tokens: 14,
        total_tokens: 126,
        completion_tokens_details: { reasoning_tokens: 30 },
      },
    }),
    'data: [DONE]',
  ]),
  expect: {
    text: deepseekAnswer,
    reasoning: deepseekThinking,
    reasoningField: 'reasoning_content',
    finishReason: 'stop',
    usage: { promptTokens: 78, completionTokens: 48, cachedTokens: 64, reasoningTokens: 30 },
  },
};

// "Thinking Mode" tool calls, https://api-docs.deepseek.com/guides/thinking_mode: reasoning, then
// `tool_calls` fragments (id, type and name first, the arguments in pieces), finish `tool_calls`.
const deepseekTools: Transcript = {
  name: 'deepseek-thinking-tools',
  source: 'DeepSeek API Docs: Thinking Mode (tool calls); Function Calling (api-docs.deepseek.com)',
  body: sse([
    deepseek({ role: 'assistant', content: null, reasoning_content: '' }),
    ...pieces('I need the file list first.').map((p) => deepseek({ content: null, reasoning_content: p })),
    deepseek({
      content: null,
      reasoning_content: null,
      tool_calls: [{ index: 0, id: 'call_00_Jk3vN8qLr2', type: 'function', function: { name: 'list_files', arguments: '' } }],
    }),
    ...pieces('{"path": "."}').map((p) => deepseek({ content: null, reasoning_content: null, tool_calls: [{ index: 0, function: { arguments: p } }] })),
    deepseek({ content: null, reasoning_content: null }, 'tool_calls', {
      usage: {
        completion_tokens: 31,
        prompt_tokens: 402,
        prompt_cache_hit_tokens: 0,
        prompt_cache_miss_tokens: 402,
        total_tokens: 433,
        completion_tokens_details: { reasoning_tokens: 9 },
      },
    }),
    'data: [DONE]',
  ]),
  expect: {
    text: '',
    reasoning: 'I need the file list first.',
    reasoningField: 'reasoning_content',
    toolCalls: [{ id: 'call_00_Jk3vN8qLr2', name: 'list_files', arguments: '{"path": "."}' }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 402, completionTokens: 31, cachedTokens: 0, reasoningTokens: 9 },
  },
};

// ---- Moonshot / Kimi ----
// "Chat Completion" API, https://platform.moonshot.ai/docs/api/chat (streaming): the last chunk
// carries `usage` inside `choices[0]`, not at the top; context caching reports `cached_tokens`
// in that usage. "Use the kimi-k2-thinking model",
// https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model: `delta.reasoning_content`;
// tool-call ids of the form `name:index`, parallel calls one after the other.
const kimi = chunker({ id: 'chatcmpl-6915f1a2b3c4d5e6f7a8b9c0', object: 'chat.completion.chunk', created: 1763000100, model: 'kimi-k2-thinking' });
const kimiThinking = '用户想知道两个城市的天气，我应该并行调用两次。';

const kimiText: Transcript = {
  name: 'kimi-thinking-text',
  source: 'Moonshot AI Kimi API: Chat Completion (streaming usage in choices[0]); Use the kimi-k2-thinking model (platform.moonshot.ai/docs)',
  body: sse([
    kimi({ role: 'assistant', content: '' }),
    ...pieces('先想一想：用户问好。').map((p) => kimi({ reasoning_content: p })),
    ...pieces('你好！有什么可以帮你？').map((p) => kimi({ content: p })),
    {
      id: 'chatcmpl-6915f1a2b3c4d5e6f7a8b9c0',
      object: 'chat.completion.chunk',
      created: 1763000100,
      model: 'kimi-k2-thinking',
      choices: [{ index: 0, delta: {}, finish_reason: 'stop', usage: { prompt_tokens: 19, completion_tokens: 21, total_tokens: 40, cached_tokens: 16 } }],
    },
    'data: [DONE]',
  ]),
  expect: {
    text: '你好！有什么可以帮你？',
    reasoning: '先想一想：用户问好。',
    reasoningField: 'reasoning_content',
    finishReason: 'stop',
    usage: { promptTokens: 19, completionTokens: 21, cachedTokens: 16 },
  },
};

const kimiTools: Transcript = {
  name: 'kimi-thinking-parallel-tools',
  source: 'Moonshot AI Kimi API: Use the kimi-k2-thinking model; Tool calls (platform.moonshot.ai/docs)',
  body: sse([
    kimi({ role: 'assistant', content: '' }),
    ...pieces(kimiThinking).map((p) => kimi({ reasoning_content: p })),
    kimi({ tool_calls: [{ index: 0, id: 'get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
    ...pieces('{"city": "北京"}').map((p) => kimi({ tool_calls: [{ index: 0, function: { arguments: p } }] })),
    kimi({ tool_calls: [{ index: 1, id: 'get_weather:1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
    ...pieces('{"city": "上海"}').map((p) => kimi({ tool_calls: [{ index: 1, function: { arguments: p } }] })),
    {
      id: 'chatcmpl-6915f1a2b3c4d5e6f7a8b9c0',
      object: 'chat.completion.chunk',
      created: 1763000100,
      model: 'kimi-k2-thinking',
      choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls', usage: { prompt_tokens: 120, completion_tokens: 60, total_tokens: 180 } }],
    },
    'data: [DONE]',
  ]),
  expect: {
    text: '',
    reasoning: kimiThinking,
    reasoningField: 'reasoning_content',
    toolCalls: [
      { id: 'get_weather:0', name: 'get_weather', arguments: '{"city": "北京"}' },
      { id: 'get_weather:1', name: 'get_weather', arguments: '{"city": "上海"}' },
    ],
    finishReason: 'tool_calls',
    usage: { promptTokens: 120, completionTokens: 60, cachedTokens: 0 },
  },
};

// ---- Qwen, Alibaba Cloud Model Studio, OpenAI compatible mode ----
// "Deep thinking", https://www.alibabacloud.com/help/en/model-studio/deep-thinking: the first
// chunk `{content: null, role, reasoning_content: ""}`, reasoning then content, and with
// `stream_options.include_usage` a last chunk with `choices: []` and the usage (cached_tokens,
// reasoning_tokens). "Function calling", https://www.alibabacloud.com/help/en/model-studio/qwen-function-calling:
// continuation fragments repeat `type: "function"` with an empty `id`.
const qwen = chunker(
  { id: 'chatcmpl-3f1c6a2e-8b47-9d10-a5e2-4c7b1f0d9e83', object: 'chat.completion.chunk', created: 1763000200, model: 'qwen-plus', system_fingerprint: null },
  { logprobs: null },
);
const qwenUsage = (usage: object) => ({
  choices: [],
  object: 'chat.completion.chunk',
  usage,
  created: 1763000200,
  system_fingerprint: null,
  model: 'qwen-plus',
  id: 'chatcmpl-3f1c6a2e-8b47-9d10-a5e2-4c7b1f0d9e83',
});

const qwenThinking: Transcript = {
  name: 'qwen-thinking-text',
  source: 'Alibaba Cloud Model Studio: Deep thinking (OpenAI compatible, streaming) (alibabacloud.com/help/en/model-studio/deep-thinking)',
  body: sse([
    qwen({ content: null, role: 'assistant', reasoning_content: '' }),
    ...pieces('嗯，用户问“你是谁”，我应该介绍自己。').map((p) => qwen({ content: null, reasoning_content: p })),
    ...pieces('我是通义千问，由阿里云开发的AI助手。').map((p) => qwen({ content: p, reasoning_content: null })),
    qwen({ content: '', reasoning_content: null }, 'stop'),
    qwenUsage({
      prompt_tokens: 10,
      completion_tokens: 360,
      total_tokens: 370,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 343 },
    }),
    'data: [DONE]',
  ]),
  expect: {
    text: '我是通义千问，由阿里云开发的AI助手。',
    reasoning: '嗯，用户问“你是谁”，我应该介绍自己。',
    reasoningField: 'reasoning_content',
    finishReason: 'stop',
    usage: { promptTokens: 10, completionTokens: 360, cachedTokens: 0, reasoningTokens: 343 },
  },
};

const qwenTools: Transcript = {
  name: 'qwen-tools',
  source: 'Alibaba Cloud Model Studio: Function calling, streaming output (alibabacloud.com/help/en/model-studio/qwen-function-calling)',
  body: sse([
    qwen({
      content: null,
      role: 'assistant',
      tool_calls: [{ index: 0, id: 'call_8f08d2b0fc0c4d8fab7123', type: 'function', function: { name: 'get_current_weather', arguments: '{"location":' } }],
    }),
    qwen({ content: null, tool_calls: [{ index: 0, id: '', type: 'function', function: { arguments: ' "杭州"}' } }] }),
    qwen({ content: null, tool_calls: [{ index: 0, id: '', type: 'function', function: {} }] }, 'tool_calls'),
    qwenUsage({ prompt_tokens: 244, completion_tokens: 18, total_tokens: 262, prompt_tokens_details: { cached_tokens: 128 } }),
    'data: [DONE]',
  ]),
  expect: {
    text: '',
    toolCalls: [{ id: 'call_8f08d2b0fc0c4d8fab7123', name: 'get_current_weather', arguments: '{"location": "杭州"}' }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 244, completionTokens: 18, cachedTokens: 128 },
  },
};

// Qwen3 served without a reasoning parser: the Qwen3 model card (huggingface.co/Qwen/Qwen3-8B,
// "Switching Between Thinking and Non-Thinking Mode") shows the `<think>...</think>` block at the
// start of the content; here its tags arrive split across chunks.
const qwenThink = chunker({ id: 'chatcmpl-qwen3-raw', object: 'chat.completion.chunk', created: 1763000250, model: 'Qwen/Qwen3-8B' });
const qwenTags: Transcript = {
  name: 'qwen3-think-tags',
  source: 'Qwen3 model card, Switching Between Thinking and Non-Thinking Mode (huggingface.co/Qwen/Qwen3-8B)',
  body: sse([
    qwenThink({ role: 'assistant', content: '' }),
    ...['<thi', 'nk>\nOkay, a ', 'greeting. </th', 'ink', '>\n\n', 'Hello', '! Use `<think>` ', 'literally.'].map((p) => qwenThink({ content: p })),
    qwenThink({}, 'stop'),
    'data: [DONE]',
  ]),
  expect: {
    text: 'Hello! Use `<think>` literally.',
    reasoning: '\nOkay, a greeting. ',
    reasoningField: 'think',
    finishReason: 'stop',
  },
};

// ---- OpenRouter ----
// "Streaming", https://openrouter.ai/docs/api-reference/streaming: `: OPENROUTER PROCESSING`
// comments, and an error during the stream as a chunk with a top-level `error` and
// `finish_reason: "error"` ("Errors", https://openrouter.ai/docs/api-reference/errors). "Reasoning
// Tokens", https://openrouter.ai/docs/use-cases/reasoning-tokens: `delta.reasoning` beside
// `delta.reasoning_details`. "Usage Accounting": usage with `cost` in the last chunk.
const openrouter = chunker(
  { id: 'gen-1763000300-AbCdEfGhIjKlMnOp', provider: 'DeepInfra', model: 'deepseek/deepseek-r1', object: 'chat.completion.chunk', created: 1763000300 },
  { native_finish_reason: null, logprobs: null },
);
const openrouterThinking = 'Compare 9.11 and 9.9: 9.9 = 9.90 > 9.11.';
const openrouterReasoning: Transcript = {
  name: 'openrouter-reasoning',
  source: 'OpenRouter docs: Streaming; Reasoning Tokens; Usage Accounting (openrouter.ai/docs)',
  body: sse([
    ': OPENROUTER PROCESSING',
    openrouter({ role: 'assistant', content: '', reasoning: null }),
    ...pieces(openrouterThinking).map((p) =>
      openrouter({ role: 'assistant', content: '', reasoning: p, reasoning_details: [{ type: 'reasoning.text', text: p, format: 'unknown', index: 0 }] }),
    ),
    ': OPENROUTER PROCESSING',
    ...pieces('9.9 is larger.').map((p) => openrouter({ role: 'assistant', content: p, reasoning: null })),
    openrouter({ role: 'assistant', content: '', reasoning: null }, 'stop'),
    {
      id: 'gen-1763000300-AbCdEfGhIjKlMnOp',
      provider: 'DeepInfra',
      model: 'deepseek/deepseek-r1',
      object: 'chat.completion.chunk',
      created: 1763000300,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, native_finish_reason: null, logprobs: null }],
      usage: {
        prompt_tokens: 14,
        completion_tokens: 40,
        total_tokens: 54,
        cost: 0.0000962,
        is_byok: false,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 28 },
      },
    },
    'data: [DONE]',
  ]),
  expect: {
    text: '9.9 is larger.',
    reasoning: openrouterThinking,
    reasoningField: 'reasoning',
    finishReason: 'stop',
    usage: { promptTokens: 14, completionTokens: 40, cachedTokens: 0, reasoningTokens: 28 },
  },
};

const openrouterError: Transcript = {
  name: 'openrouter-midstream-error',
  source: 'OpenRouter docs: Errors, "Errors during streaming" (openrouter.ai/docs/api-reference/errors)',
  body: sse([
    ': OPENROUTER PROCESSING',
    ...pieces('The first part of the ').map((p) => openrouter({ role: 'assistant', content: p })),
    {
      id: 'gen-1763000300-AbCdEfGhIjKlMnOp',
      object: 'chat.completion.chunk',
      created: 1763000300,
      model: 'deepseek/deepseek-r1',
      provider: 'DeepInfra',
      error: { code: 'server_error', message: 'Provider disconnected unexpectedly' },
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
    },
  ]),
  expect: { text: 'The first part of the ', error: { kind: 'server', includes: 'Provider disconnected unexpectedly' } },
};

// ---- vLLM ----
// "Reasoning Outputs", https://docs.vllm.ai/en/latest/features/reasoning_outputs.html:
// `delta.reasoning` (renamed from `reasoning_content`). "Tool Calling",
// https://docs.vllm.ai/en/latest/features/tool_calling.html: ids `chatcmpl-tool-…`, the name in
// the first fragment, arguments after. "OpenAI-Compatible Server": `stream_options:
// {include_usage, continuous_usage_stats}` puts a running usage on every chunk.
const vllmBase = { id: 'chatcmpl-b7d0e2f4a6c8', object: 'chat.completion.chunk', created: 1763000400, model: 'Qwen/Qwen3-32B' };
const vllm = (delta: Record<string, unknown>, finish: string | null, completion: number) => ({
  ...vllmBase,
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  usage: { prompt_tokens: 310, total_tokens: 310 + completion, completion_tokens: completion },
});
const vllmThinking = 'Two lookups; call both.';
const vllmTools: Transcript = {
  name: 'vllm-reasoning-parallel-tools',
  source: 'vLLM docs: Reasoning Outputs; Tool Calling; OpenAI-Compatible Server (stream_options) (docs.vllm.ai)',
  body: sse([
    vllm({ role: 'assistant', content: '' }, null, 0),
    ...pieces(vllmThinking).map((p, i) => vllm({ reasoning: p }, null, i + 1)),
    vllm({ tool_calls: [{ id: 'chatcmpl-tool-1a2b3c', type: 'function', index: 0, function: { name: 'read_file' } }] }, null, 8),
    ...pieces('{"path": "README.md"}').map((p, i) => vllm({ tool_calls: [{ index: 0, function: { arguments: p } }] }, null, 9 + i)),
    vllm({ tool_calls: [{ id: 'chatcmpl-tool-4d5e6f', type: 'function', index: 1, function: { name: 'read_file' } }] }, null, 16),
    ...pieces('{"path": "package.json"}').map((p, i) => vllm({ tool_calls: [{ index: 1, function: { arguments: p } }] }, null, 17 + i)),
    vllm({ content: '' }, 'tool_calls', 24),
    { ...vllmBase, choices: [], usage: { prompt_tokens: 310, total_tokens: 334, completion_tokens: 24 } },
    'data: [DONE]',
  ]),
  expect: {
    text: '',
    reasoning: vllmThinking,
    reasoningField: 'reasoning',
    toolCalls: [
      { id: 'chatcmpl-tool-1a2b3c', name: 'read_file', arguments: '{"path": "README.md"}' },
      { id: 'chatcmpl-tool-4d5e6f', name: 'read_file', arguments: '{"path": "package.json"}' },
    ],
    finishReason: 'tool_calls',
    usage: { promptTokens: 310, completionTokens: 24, cachedTokens: 0 },
  },
};

// vLLM's streaming error (serving_chat: an exception while streaming is sent as one `data:` event
// holding its ErrorResponse, then `[DONE]`).
const vllmError: Transcript = {
  name: 'vllm-stream-error',
  source: 'vLLM docs: OpenAI-Compatible Server; vllm/entrypoints/openai serving_chat streaming error event (docs.vllm.ai)',
  body: sse([
    vllm({ role: 'assistant', content: '' }, null, 0),
    vllm({ content: 'Partial' }, null, 1),
    { error: { message: 'The decoder prompt is longer than the maximum model length', type: 'BadRequestError', param: null, code: 400 } },
    'data: [DONE]',
  ]),
  expect: { text: 'Partial', error: { kind: 'bad_request', includes: 'maximum model length' } },
};

export const reasoningApis: Transcript[] = [
  deepseekText,
  deepseekTools,
  kimiText,
  kimiTools,
  qwenThinking,
  qwenTools,
  qwenTags,
  openrouterReasoning,
  openrouterError,
  vllmTools,
  vllmError,
];
