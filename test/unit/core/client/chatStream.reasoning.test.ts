// Reasoning in the three forms real servers use, streamed and not streamed. The chunk shapes
// follow the providers' public docs:
// - DeepSeek, "Reasoning Model (deepseek-reasoner)" and "Thinking Mode" (api-docs.deepseek.com):
//   `delta.reasoning_content` chunks (content null) before the `delta.content` chunks;
//   `message.reasoning_content` when not streamed; `completion_tokens_details.reasoning_tokens`.
// - vLLM, "Reasoning Outputs" (docs.vllm.ai): `delta.reasoning` (renamed from `reasoning_content`).
// - OpenRouter, "Reasoning Tokens" (openrouter.ai/docs): `delta.reasoning` beside
//   `delta.reasoning_details: [{type: "reasoning.text", text, format, index}]`.
// - Qwen (Alibaba Cloud Model Studio, "Deep thinking"; Qwen3 served without a reasoning
//   parser): a `<think>…</think>` block at the start of `content`.
import * as assert from 'node:assert/strict';
import { ChatStreamAssembler, completionFromEvents, completionFromJsonText, eventsFromCompletion } from '../../../../src/core/client/chatStream';
import type { ChatStreamEvent } from '../../../../src/core';

const chunk = (delta: object, finish: string | null = null, extra: object = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  ...extra,
});

function feed(payloads: unknown[], fast = true): ChatStreamEvent[] {
  const assembler = new ChatStreamAssembler({ model: 'm' }, { fast });
  const out: ChatStreamEvent[] = [];
  for (const p of payloads) out.push(...assembler.handle({ data: typeof p === 'string' ? p : JSON.stringify(p), event: undefined, id: undefined }));
  out.push(...assembler.finish());
  return out;
}

function both(payloads: unknown[]): ChatStreamEvent[] {
  const fast = feed(payloads, true);
  assert.deepEqual(fast, feed(payloads, false), 'the fast path gives the reference events');
  return fast;
}

function joined(events: ChatStreamEvent[]) {
  let reasoning = '';
  let text = '';
  const fields = new Set<string>();
  for (const e of events) {
    if (e.type === 'reasoning') {
      reasoning += e.text;
      fields.add(e.field);
    } else if (e.type === 'text') text += e.text;
  }
  return { reasoning, text, fields: [...fields] };
}

describe('core/chatStream: reasoning', () => {
  it('DeepSeek: reasoning_content deltas, then content; reasoning tokens in usage', () => {
    const events = both([
      chunk({ role: 'assistant', content: null, reasoning_content: '' }),
      chunk({ content: null, reasoning_content: 'Okay, ' }),
      chunk({ content: null, reasoning_content: 'the user greets.' }),
      chunk({ content: 'Hello', reasoning_content: null }),
      chunk({ content: '!', reasoning_content: null }),
      chunk({ content: '', reasoning_content: null }, 'stop'),
      { ...chunk({}), choices: [], usage: { prompt_tokens: 10, completion_tokens: 40, total_tokens: 50, completion_tokens_details: { reasoning_tokens: 30 } } },
      '[DONE]',
    ]);
    assert.deepEqual(joined(events), { reasoning: 'Okay, the user greets.', text: 'Hello!', fields: ['reasoning_content'] });
    assert.deepEqual(
      events.find((e) => e.type === 'usage'),
      { type: 'usage', usage: { promptTokens: 10, completionTokens: 40, cachedTokens: 0, reasoningTokens: 30 } },
    );
    assert.ok(events.findIndex((e) => e.type === 'reasoning') < events.findIndex((e) => e.type === 'text'));
  });

  it('vLLM: delta.reasoning', () => {
    const events = both([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning: 'Think' }),
      chunk({ reasoning: 'ing.' }),
      chunk({ content: 'Done.' }),
      chunk({}, 'stop'),
      '[DONE]',
    ]);
    assert.deepEqual(joined(events), { reasoning: 'Thinking.', text: 'Done.', fields: ['reasoning'] });
  });

  it('OpenRouter: reasoning beside reasoning_details is read once; reasoning_details alone is read', () => {
    const details = (text: string) => [{ type: 'reasoning.text', text, format: 'unknown', index: 0 }];
    const events = both([
      chunk({ role: 'assistant', content: '', reasoning: 'Let me ', reasoning_details: details('Let me ') }),
      chunk({ role: 'assistant', content: '', reasoning: 'see.', reasoning_details: details('see.') }),
      chunk({ role: 'assistant', content: 'Yes.', reasoning: null }),
      chunk({ role: 'assistant', content: '' }, 'stop'),
      '[DONE]',
    ]);
    assert.deepEqual(joined(events), { reasoning: 'Let me see.', text: 'Yes.', fields: ['reasoning'] });
    const onlyDetails = both([
      chunk({ reasoning_details: [...details('a'), { type: 'reasoning.encrypted', data: 'xyz' }, { type: 'reasoning.text', text: 'b' }] }),
      chunk({ content: 'c' }, 'stop'),
      '[DONE]',
    ]);
    assert.deepEqual(joined(onlyDetails), { reasoning: 'ab', text: 'c', fields: ['reasoning'] });
  });

  it('Qwen: a <think> block at the start of content, its tags split across chunks', () => {
    const content = '<think>\nThe user asks for a list.\n</think>\n\n- one\n- two';
    for (let i = 1; i < content.length; i++) {
      const events = both([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: content.slice(0, i) }),
        chunk({ content: content.slice(i) }),
        chunk({}, 'stop'),
        '[DONE]',
      ]);
      assert.deepEqual(joined(events), { reasoning: '\nThe user asks for a list.\n', text: '- one\n- two', fields: ['think'] }, `split at ${i}`);
    }
  });

  it('a <think> in a code block of the answer stays text (also through the fast path)', () => {
    const pieces = ['Here:\n', '```html\n', '<think>', 'x', '</think>\n', '```'];
    const events = both([chunk({ role: 'assistant' }), ...pieces.map((p) => chunk({ content: p })), chunk({}, 'stop'), '[DONE]']);
    assert.deepEqual(joined(events), { reasoning: '', text: pieces.join(''), fields: [] });
  });

  it('the fast path does not learn a template from a chunk that also carries reasoning', () => {
    // Same bytes around the content: a template from the first would drop the second's reasoning.
    const events = both([
      chunk({ content: 'a', reasoning_content: 'r' }),
      chunk({ content: 'b', reasoning_content: 'r' }),
      chunk({ content: 'c', reasoning_content: 'r' }),
      chunk({}, 'stop'),
      '[DONE]',
    ]);
    assert.deepEqual(joined(events), { reasoning: 'rrr', text: 'abc', fields: ['reasoning_content'] });
  });

  it('a reasoning field of an odd type is ignored, not an error', () => {
    const events = both([chunk({ content: 'a', reasoning_content: 5, reasoning: { x: 1 }, reasoning_details: 'no' }), chunk({}, 'stop'), '[DONE]']);
    assert.deepEqual(joined(events), { reasoning: '', text: 'a', fields: [] });
  });

  it('not streamed: message.reasoning_content, message.reasoning, reasoning_details, and <think> in content', () => {
    const answer = (message: object, usage?: object) =>
      JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
        ...(usage ? { usage } : {}),
      });
    const ds = completionFromJsonText(
      answer({ content: 'Hi', reasoning_content: 'hmm' }, { prompt_tokens: 1, completion_tokens: 9, completion_tokens_details: { reasoning_tokens: 7 } }),
    );
    assert.deepEqual(ds.reasoning, { text: 'hmm', field: 'reasoning_content' });
    assert.equal(ds.text, 'Hi');
    assert.equal(ds.usage?.reasoningTokens, 7);
    assert.equal(ds.usage?.completionTokens, 9, 'reasoning tokens stay part of completion tokens');
    assert.deepEqual(completionFromJsonText(answer({ content: 'Hi', reasoning: 'r' })).reasoning, { text: 'r', field: 'reasoning' });
    assert.deepEqual(completionFromJsonText(answer({ content: 'Hi', reasoning_details: [{ type: 'reasoning.text', text: 'd' }] })).reasoning, {
      text: 'd',
      field: 'reasoning',
    });
    const qwen = completionFromJsonText(answer({ content: '<think>\nq\n</think>\n\nAnswer' }));
    assert.deepEqual(qwen.reasoning, { text: '\nq\n', field: 'think' });
    assert.equal(qwen.text, 'Answer');
    assert.equal(completionFromJsonText(answer({ content: 'See <think>x</think>' })).reasoning, undefined);
    // Events and back.
    const round = completionFromEvents(eventsFromCompletion(ds));
    assert.deepEqual(round, ds);
  });
});
