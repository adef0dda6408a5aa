// Overflow errors in the words of each provider's documentation are recognised, with the window
// they name; other 400s are not.
import * as assert from 'node:assert/strict';
import { contextOverflow } from '../../../../src/core/compaction/contextOverflow';

describe('context overflow errors', () => {
  const cases: [string, string, { window?: number; requested?: number }][] = [
    [
      'OpenAI',
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 8200 tokens. Please reduce the length of the messages.",
      { window: 8192, requested: 8200 },
    ],
    [
      'vLLM',
      "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
      { window: 4096, requested: 5000 },
    ],
    [
      'vLLM max_tokens',
      "'max_tokens' or 'max_completion_tokens' is too large: 8000. This model's maximum context length is 4096 tokens and your request has 2778 input tokens (8000 > 4096 - 2778).",
      { window: 4096, requested: 2778 },
    ],
    [
      'DeepSeek',
      "This model's maximum context length is 131072 tokens. However, you requested 140000 tokens (132000 in the messages, 8000 in the completion). Please reduce the length of the messages or completion.",
      { window: 131072, requested: 140000 },
    ],
    [
      'OpenRouter',
      "This endpoint's maximum context length is 1048576 tokens. However, you requested about 1293741 tokens",
      { window: 1048576, requested: 1293741 },
    ],
    ['Anthropic', 'prompt is too long: 208310 tokens > 200000 maximum', { window: 200000, requested: 208310 }],
    ['Anthropic short', 'Prompt is too long', {}],
    ['Gemini', 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).', { window: 1048576, requested: 1200293 }],
    [
      'vLLM engine',
      'The decoder prompt (length 5000) is longer than the maximum model length of 4096. Make sure that `max_model_len` is no smaller than the number of text tokens.',
      { window: 4096, requested: 5000 },
    ],
    ['Mistral', 'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length', { window: 32768, requested: 40000 }],
    ['Bedrock', 'Input is too long for requested model.', {}],
    ['llama.cpp', 'the request exceeds the available context size, try increasing it', {}],
    ['OpenAI Responses', 'Your input exceeds the context window of this model. Please adjust your input and try again.', {}],
  ];
  for (const [who, message, expected] of cases) {
    it(`recognises ${who}'s wording`, () => {
      assert.deepEqual(contextOverflow({ status: 400, message }), expected);
    });
  }

  it('recognises the code alone, and a 413', () => {
    assert.deepEqual(contextOverflow({ status: 400, code: 'context_length_exceeded', message: 'too big' }), {});
    assert.deepEqual(contextOverflow({ status: 413, message: 'Request Entity Too Large' }), {});
  });

  it('does not take other errors for an overflow', () => {
    assert.equal(
      contextOverflow({ status: 400, message: 'max_tokens is too large: 200000. This model supports at most 128000 completion tokens.' }),
      undefined,
    );
    assert.equal(contextOverflow({ status: 400, message: 'Invalid value for tool_choice' }), undefined);
    assert.equal(contextOverflow({ status: 500, message: 'maximum context length is 10 tokens' }), undefined);
    assert.equal(contextOverflow({ status: 401, message: 'prompt is too long' }), undefined);
  });
});
