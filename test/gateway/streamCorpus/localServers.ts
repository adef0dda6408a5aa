// Transcripts of local servers' OpenAI endpoints: Ollama, LM Studio and llama.cpp's server.
// See types.ts.
import { chunker, pieces, sse, type Transcript } from './types';

// ---- Ollama ----
// "OpenAI compatibility", https://docs.ollama.com/api/openai-compatibility: `/v1/chat/completions`
// streams `chat.completion.chunk`s with `system_fingerprint: "fp_ollama"`, usage with
// `stream_options.include_usage`. "Thinking", https://docs.ollama.com/capabilities/thinking: the
// OpenAI endpoint puts the thinking in `delta.reasoning`. "Tool calling",
// https://docs.ollama.com/capabilities/tool-calling: whole calls (parallel ones together) in one
// chunk, each with its `index` and an id `call_…`.
const ollama = chunker({ id: 'chatcmpl-412', object: 'chat.completion.chunk', created: 1763000500, model: 'qwen3:8b', system_fingerprint: 'fp_ollama' });
const ollamaUsage = (p: number, c: number) => ({
  id: 'chatcmpl-412',
  object: 'chat.completion.chunk',
  created: 1763000500,
  model: 'qwen3:8b',
  system_fingerprint: 'fp_ollama',
  choices: [],
  usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c },
});

const ollamaThinking: Transcript = {
  name: 'ollama-thinking-text',
  source: 'Ollama docs: OpenAI compatibility; Thinking (docs.ollama.com)',
  body: sse([
    ...pieces('Okay, the user wants a haiku about rain.').map((p) => ollama({ role: 'assistant', content: '', reasoning: p })),
    ...pieces('Soft rain on the roof —\nthe kettle hums, the cat sleeps,\nafternoon dissolves.').map((p) => ollama({ role: 'assistant', content: p })),
    ollama({ role: 'assistant', content: '' }, 'stop'),
    ollamaUsage(24, 61),
    'data: [DONE]',
  ]),
  expect: {
    text: 'Soft rain on the roof —\nthe kettle hums, the cat sleeps,\nafternoon dissolves.',
    reasoning: 'Okay, the user wants a haiku about rain.',
    reasoningField: 'reasoning',
    finishReason: 'stop',
    usage: { promptTokens: 24, completionTokens: 61, cachedTokens: 0 },
  },
};

const ollamaTools: Transcript = {
  name: 'ollama-parallel-tools',
  source: 'Ollama docs: Tool calling (parallel tool calling, streaming); OpenAI compatibility (docs.ollama.com)',
  body: sse([
    ollama({
      role: 'assistant',
      content: '',
      tool_calls: [
        { id: 'call_9k2x8d1q', index: 0, type: 'function', function: { name: 'get_temperature', arguments: '{"city":"New York"}' } },
        { id: 'call_7m4p1z0w', index: 1, type: 'function', function: { name: 'get_conditions', arguments: '{"city":"New York"}' } },
      ],
    }),
    ollama({ role: 'assistant', content: '' }, 'tool_calls'),
    ollamaUsage(140, 38),
    'data: [DONE]',
  ]),
  expect: {
    text: '',
    toolCalls: [
      { id: 'call_9k2x8d1q', name: 'get_temperature', arguments: '{"city":"New York"}' },
      { id: 'call_7m4p1z0w', name: 'get_conditions', arguments: '{"city":"New York"}' },
    ],
    finishReason: 'tool_calls',
    usage: { promptTokens: 140, completionTokens: 38, cachedTokens: 0 },
  },
};

// Ollama's streaming error (openai/openai.go: an error while streaming is written as
// `data: {"error":{"message", "type": "api_error"}}`).
const ollamaError: Transcript = {
  name: 'ollama-stream-error',
  source: 'Ollama docs: OpenAI compatibility; ollama openai middleware error shape {"error":{"message","type"}} (docs.ollama.com)',
  body: sse([
    ollama({ role: 'assistant', content: 'Hel' }),
    { error: { message: 'model runner has unexpectedly stopped', type: 'api_error', param: null, code: null } },
  ]),
  expect: { text: 'Hel', error: { kind: 'server', includes: 'model runner has unexpectedly stopped' } },
};

// ---- LM Studio ----
// "OpenAI Compatibility Endpoints", https://lmstudio.ai/docs/app/api/endpoints/openai, and
// "Reasoning" (Developer settings, "reasoning_content" separated from content): reasoning in
// `delta.reasoning_content`; tools in "Tool Use", https://lmstudio.ai/docs/app/api/tools (streamed
// calls: id and name first, then argument fragments); the usage in the last chunk with the finish.
const lmstudio = chunker(
  {
    id: 'chatcmpl-ptk8v2w0c1s7xq4n3b6z',
    object: 'chat.completion.chunk',
    created: 1763000600,
    model: 'openai/gpt-oss-20b',
    system_fingerprint: 'openai/gpt-oss-20b',
  },
  { logprobs: null },
);

const lmstudioReasoningTools: Transcript = {
  name: 'lmstudio-reasoning-tools',
  source: 'LM Studio docs: OpenAI Compatibility Endpoints; Tool Use; reasoning_content setting (lmstudio.ai/docs)',
  body: sse([
    lmstudio({ role: 'assistant', content: '' }),
    ...pieces('Need to look at the source tree.').map((p) => lmstudio({ role: 'assistant', reasoning_content: p })),
    lmstudio({ role: 'assistant', tool_calls: [{ index: 0, id: '365174485', type: 'function', function: { name: 'list_files', arguments: '' } }] }),
    ...pieces('{"path":"src"}').map((p) => lmstudio({ role: 'assistant', tool_calls: [{ index: 0, type: 'function', function: { arguments: p } }] })),
    lmstudio({}, 'tool_calls', { usage: { prompt_tokens: 512, completion_tokens: 33, total_tokens: 545 } }),
    'data: [DONE]',
  ]),
  expect: {
    text: '',
    reasoning: 'Need to look at the source tree.',
    reasoningField: 'reasoning_content',
    toolCalls: [{ id: '365174485', name: 'list_files', arguments: '{"path":"src"}' }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 512, completionTokens: 33, cachedTokens: 0 },
  },
};

// ---- llama.cpp server ----
// tools/server/README.md, https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md
// ("POST /v1/chat/completions", `--reasoning-format deepseek`): `delta.reasoning_content`, the
// last chunk with `finish_reason`, `usage` and `timings` together; errors as `{"error": {code,
// message, type}}`, in a stream as one `error:`-less data event.
const llama = chunker({
  created: 1763000700,
  id: 'chatcmpl-Xq9e3M2nL4pR7tV1',
  model: 'gpt-3.5-turbo',
  system_fingerprint: 'b6100-2c3d4e5f',
  object: 'chat.completion.chunk',
});

const llamaReasoning: Transcript = {
  name: 'llamacpp-reasoning-text',
  source: 'llama.cpp tools/server README: POST /v1/chat/completions, --reasoning-format, timings (github.com/ggml-org/llama.cpp)',
  body: sse([
    llama({ role: 'assistant', content: null }),
    ...pieces('2 + 2 is basic arithmetic.').map((p) => llama({ reasoning_content: p })),
    ...pieces('2 + 2 = **4**').map((p) => llama({ content: p })),
    llama({}, 'stop', {
      usage: { completion_tokens: 22, prompt_tokens: 15, total_tokens: 37 },
      timings: { prompt_n: 15, prompt_ms: 48.2, predicted_n: 22, predicted_ms: 310.7, predicted_per_second: 70.8 },
    }),
    'data: [DONE]',
  ]),
  expect: {
    text: '2 + 2 = **4**',
    reasoning: '2 + 2 is basic arithmetic.',
    reasoningField: 'reasoning_content',
    finishReason: 'stop',
    usage: { promptTokens: 15, completionTokens: 22, cachedTokens: 0 },
  },
};

const llamaError: Transcript = {
  name: 'llamacpp-stream-error',
  source: 'llama.cpp tools/server README: error format {"error":{"code","message","type"}} (github.com/ggml-org/llama.cpp)',
  body: sse([
    llama({ role: 'assistant', content: null }),
    llama({ content: 'Sure, ' }),
    {
      error: {
        code: 400,
        message: 'the request exceeds the available context size, try increasing it',
        type: 'exceed_context_size_error',
        n_prompt_tokens: 5000,
        n_ctx: 4096,
      },
    },
  ]),
  expect: { text: 'Sure, ', error: { kind: 'bad_request', includes: 'exceeds the available context size' } },
};

export const localServers: Transcript[] = [ollamaThinking, ollamaTools, ollamaError, lmstudioReasoningTools, llamaReasoning, llamaError];
