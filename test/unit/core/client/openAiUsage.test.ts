// The usage data part Modelgate's vscode.lm answers end with: the OpenAI `usage` shape, which
// VS Code's chat reads for its context meter (it stayed at 0 without it). Cached tokens are part
// of prompt_tokens and named in prompt_tokens_details; reasoning tokens when reported.
import * as assert from 'node:assert/strict';
import { openAiUsage } from '../../../../src/core/client/openAiUsage';

describe('usage in the OpenAI shape', () => {
  it('prompt, completion and total tokens, with the cached part of the prompt', () => {
    assert.deepEqual(openAiUsage({ promptTokens: 1200, completionTokens: 80, cachedTokens: 1024 }), {
      prompt_tokens: 1200,
      completion_tokens: 80,
      total_tokens: 1280,
      prompt_tokens_details: { cached_tokens: 1024 },
    });
  });

  it('reasoning tokens (part of the completion) when the gateway reported them', () => {
    const u = openAiUsage({ promptTokens: 10, completionTokens: 50, cachedTokens: 0, reasoningTokens: 30 });
    assert.deepEqual(u.completion_tokens_details, { reasoning_tokens: 30 });
    assert.equal(u.total_tokens, 60);
    assert.deepEqual(JSON.parse(JSON.stringify(u)), u, 'plain JSON');
  });
});
