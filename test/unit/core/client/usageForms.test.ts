// Usage and content in the other servers' forms (src/core/client/usageForms.ts, contentParts.ts):
// the cases the stream corpus found, one by one, plus the odd values that must not fail an answer.
import * as assert from 'node:assert/strict';
import { ChatStreamAssembler, completionFromJsonText } from '../../../../src/core/client/chatStream';
import { usageFromWire } from '../../../../src/core/client/usageForms';
import type { ChatStreamEvent } from '../../../../src/core';

function feed(payloads: object[]): ChatStreamEvent[] {
  const a = new ChatStreamAssembler({ model: 'm' });
  const out: ChatStreamEvent[] = [];
  for (const p of payloads) out.push(...a.handle({ data: JSON.stringify(p), event: undefined, id: undefined }));
  out.push(...a.finish());
  return out;
}
const usageOf = (events: ChatStreamEvent[]) => events.find((e) => e.type === 'usage');

describe('core/client: usage and content forms', () => {
  it('reads the cache of DeepSeek (prompt_cache_hit_tokens) and Moonshot (cached_tokens); OpenAI’s field wins', () => {
    assert.equal(
      usageFromWire({ prompt_tokens: 78, completion_tokens: 1, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 14 } as never).cachedTokens,
      64,
    );
    assert.equal(usageFromWire({ prompt_tokens: 19, completion_tokens: 1, cached_tokens: 16 } as never).cachedTokens, 16);
    assert.equal(
      usageFromWire({ prompt_tokens: 19, completion_tokens: 1, cached_tokens: 16, prompt_tokens_details: { cached_tokens: 8 } } as never).cachedTokens,
      8,
    );
    assert.equal(usageFromWire({ prompt_tokens: 10, completion_tokens: 1, prompt_cache_hit_tokens: 'x' } as never).cachedTokens, 0, 'a bad value is ignored');
  });

  it('reads usage inside choices[0] (Moonshot) and in x_groq (Groq); a malformed one is ignored, not an error', () => {
    const kimi = feed([
      { choices: [{ index: 0, delta: { content: 'a' } }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop', usage: { prompt_tokens: 5, completion_tokens: 2 } }] },
    ]);
    assert.deepEqual(usageOf(kimi), { type: 'usage', usage: { promptTokens: 5, completionTokens: 2, cachedTokens: 0 } });
    const groq = feed([
      {
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        x_groq: { id: 'req_1', usage: { prompt_tokens: 38, completion_tokens: 4, queue_time: 0.1 } },
      },
    ]);
    assert.deepEqual(usageOf(groq), { type: 'usage', usage: { promptTokens: 38, completionTokens: 4, cachedTokens: 0 } });
    const odd = feed([{ choices: [{ index: 0, delta: { content: 'a' }, finish_reason: 'stop', usage: { prompt_tokens: 'many' } }], x_groq: { usage: 'n/a' } }]);
    assert.equal(usageOf(odd), undefined);
    const top = feed([
      {
        choices: [{ index: 0, delta: {}, finish_reason: 'stop', usage: { prompt_tokens: 1, completion_tokens: 1 } }],
        usage: { prompt_tokens: 9, completion_tokens: 9 },
      },
    ]);
    assert.deepEqual(usageOf(top), { type: 'usage', usage: { promptTokens: 9, completionTokens: 9, cachedTokens: 0 } }, 'the top-level usage wins');
  });

  it('reads Mistral’s content chunks, streamed and not: thinking is reasoning, text is the answer', () => {
    const events = feed([
      { choices: [{ index: 0, delta: { content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Hmm.' }] }] } }] },
      {
        choices: [
          {
            index: 0,
            delta: {
              content: [
                { type: 'text', text: 'Yes' },
                { type: 'reference', reference_ids: [1] },
              ],
            },
          },
        ],
      },
      { choices: [{ index: 0, delta: { content: '!' }, finish_reason: 'stop' }] },
    ]);
    assert.deepEqual(
      events.filter((e) => e.type === 'text' || e.type === 'reasoning'),
      [
        { type: 'reasoning', text: 'Hmm.', field: 'think' },
        { type: 'text', text: 'Yes' },
        { type: 'text', text: '!' },
      ],
    );
    const completion = completionFromJsonText(
      JSON.stringify({
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: [
                { type: 'thinking', thinking: [{ type: 'text', text: 'Count.' }] },
                { type: 'text', text: 'Three.' },
              ],
            },
            finish_reason: 'stop',
          },
        ],
      }),
    );
    assert.equal(completion.text, 'Three.');
    assert.deepEqual(completion.reasoning, { text: 'Count.', field: 'think' });
  });
});
