// vscode.lm's countTokens with a real tokenizer: which models get which OpenAI encoding, and the
// counts of fixed strings. The expected counts are not gpt-tokenizer's own output: they are the
// figures OpenAI published for tiktoken in "How to count tokens with tiktoken" (OpenAI Cookbook,
// examples/How_to_count_tokens_with_tiktoken.ipynb: "tiktoken is great!" is 6 tokens,
// "antidisestablishmentarianism" 6 in cl100k_base and o200k_base, "2 + 2 = 4" 7, and
// "お誕生日おめでとう" 9 in cl100k_base but 8 in o200k_base), plus two hand-checked ones.
import * as assert from 'node:assert/strict';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { counterOf, encodingFor, TOKENIZED_MESSAGE_OVERHEAD } from '../../../src/lm/tokenizerChoice';
import { estimateLmMessageTokens } from '../../../src/lm/lmTokens';
import { estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from '../../../src/core/prompt/tokens';

describe('lm: tokenizer choice and counts', () => {
  it('gives o200k_base to gpt-4o, gpt-4.1, gpt-4.5, gpt-5, the o-series and gpt-oss, whatever the gateway prefix or date', () => {
    for (const id of [
      'gpt-4o',
      'openai/gpt-4o-2024-08-06',
      'gpt-4o-mini',
      'chatgpt-4o-latest',
      'gpt-4.1-nano',
      'openai/gpt-4.5-preview',
      'gpt-5',
      'gpt-5.2-codex',
      'openai/gpt-5-mini:floor',
      'o1',
      'o1-mini',
      'o3-pro',
      'openai/o4-mini-2025-04-16',
      'gpt-oss-120b',
    ])
      assert.equal(encodingFor(id), 'o200k_base', id);
  });

  it('gives cl100k_base to gpt-4 (not 4o), gpt-4-turbo and gpt-3.5-turbo', () => {
    for (const id of ['gpt-4', 'gpt-4-0613', 'openai/gpt-4-turbo', 'gpt-3.5-turbo', 'azure/gpt-35-turbo']) assert.equal(encodingFor(id), 'cl100k_base', id);
  });

  it('gives no tokenizer (the estimate) to other makers and unknown ids', () => {
    for (const id of [
      'flagship-text',
      'long-context-tools',
      'anthropic/claude-sonnet-4-5',
      'gemini-2.5-pro',
      'deepseek-chat',
      'o5x',
      'gpt-40',
      'my-gpt-4o',
      'o3mini',
    ])
      assert.equal(encodingFor(id), undefined, id);
  });

  it('counts fixed strings as OpenAI published for tiktoken', () => {
    const o = counterOf(o200k);
    const c = counterOf(cl100k);
    const cases: [string, number, number][] = [
      // text, cl100k_base, o200k_base
      ['tiktoken is great!', 6, 6],
      ['antidisestablishmentarianism', 6, 6],
      ['2 + 2 = 4', 7, 7],
      ['お誕生日おめでとう', 9, 8],
      ['hello world', 2, 2],
      ['', 0, 0],
    ];
    for (const [text, inCl100k, inO200k] of cases) {
      assert.equal(c(text), inCl100k, `cl100k_base: ${JSON.stringify(text)}`);
      assert.equal(o(text), inO200k, `o200k_base: ${JSON.stringify(text)}`);
    }
  });

  it("counts a special token's spelling as ordinary text instead of throwing", () => {
    const o = counterOf(o200k);
    // <|endoftext|> spelled out is 7 ordinary tokens in o200k_base (the special token would be 1)
    assert.equal(o('<|endoftext|>'), 7);
    assert.throws(() => o200k.countTokens('<|endoftext|>'), /special token/i); // the library's default, which counterOf avoids
  });

  it("counts a message with the tokenizer and OpenAI's 3 framing tokens; the estimate keeps 4", () => {
    const o = counterOf(o200k);
    const message = {
      role: 'user' as const,
      parts: [
        { kind: 'text' as const, text: 'tiktoken is great!' },
        { kind: 'data' as const, mimeType: 'image/png', data: new Uint8Array([1, 2, 3]) },
      ],
    };
    assert.equal(estimateLmMessageTokens(message, o, TOKENIZED_MESSAGE_OVERHEAD), 3 + 6 + IMAGE_TOKENS);
    assert.equal(estimateLmMessageTokens(message), MESSAGE_OVERHEAD_TOKENS + estimateTokens('tiktoken is great!') + IMAGE_TOKENS);
  });
});
