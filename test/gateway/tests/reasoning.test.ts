// The simulator's reasoning models: each form in the shape of its provider's docs (see
// test/gateway/reasoning.ts), streamed and not, reasoning tokens inside completion_tokens, and
// DeepSeek's refusal of a tool loop whose reasoning_content was not passed back.
import * as assert from 'node:assert/strict';
import { chat, errorOf, readStream, useGateway, user } from './helpers';
import { PASSBACK_REFUSAL, reasoningText } from '../../gateway/reasoning';

const tools = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

describe('gateway simulator: reasoning models', function () {
  this.timeout(30_000);
  const ctx = useGateway();
  const deltas = (s: { chunks: any[] }) => s.chunks.map((c) => c.choices?.[0]?.delta).filter(Boolean);

  it('content: reasoning_content deltas (content null) before content; reasoning tokens in completion_tokens', async () => {
    const q = 'Why is the sky blue? [[reasoning:content]]';
    const s = await readStream(await chat(ctx.gw, { messages: [user(q)], stream_options: { include_usage: true } }));
    const d = deltas(s);
    const reasoning = d
      .filter((x: any) => typeof x.reasoning_content === 'string')
      .map((x: any) => x.reasoning_content)
      .join('');
    assert.equal(reasoning, reasoningText(q, 0));
    const firstContent = d.findIndex((x: any) => typeof x.content === 'string' && x.content);
    const lastReasoning = d.map((x: any) => typeof x.reasoning_content === 'string').lastIndexOf(true);
    assert.ok(lastReasoning < firstContent);
    assert.ok(d.filter((x: any) => typeof x.reasoning_content === 'string').every((x: any) => x.content === null));
    const usage = s.chunks.at(-1).usage;
    assert.ok(usage.completion_tokens_details.reasoning_tokens > 0);
    assert.ok(usage.completion_tokens > usage.completion_tokens_details.reasoning_tokens);
  });

  it('field: reasoning with the same text in reasoning_details', async () => {
    const q = 'Hello [[reasoning:field]]';
    const d = deltas(await readStream(await chat(ctx.gw, { messages: [user(q)] })));
    const withReasoning = d.filter((x: any) => x.reasoning);
    assert.equal(withReasoning.map((x: any) => x.reasoning).join(''), reasoningText(q, 0));
    for (const x of withReasoning) assert.deepEqual(x.reasoning_details, [{ type: 'reasoning.text', text: x.reasoning, format: 'unknown', index: 0 }]);
  });

  it('tags: a <think> block at the start of content, its tags split across chunks', async () => {
    const q = 'Hello [[reasoning:tags]]';
    const d = deltas(await readStream(await chat(ctx.gw, { messages: [user(q)] })));
    const pieces = d.map((x: any) => x.content).filter((c: unknown) => typeof c === 'string' && c);
    const content = pieces.join('');
    assert.ok(content.startsWith(`<think>\n${reasoningText(q, 0)}\n</think>\n\n`));
    assert.ok(!pieces.includes('<think>\n') || pieces.length > 3);
  });

  it('not streamed: message.reasoning_content / reasoning / <think> content', async () => {
    const body = async (q: string) => (await (await chat(ctx.gw, { stream: false, messages: [user(q)] })).json()) as any;
    const ds = await body('Hi [[reasoning:content]]');
    assert.equal(ds.choices[0].message.reasoning_content, reasoningText('Hi [[reasoning:content]]', 0));
    assert.ok(ds.usage.completion_tokens_details.reasoning_tokens > 0);
    const or = await body('Hi [[reasoning:field]]');
    assert.equal(or.choices[0].message.reasoning, reasoningText('Hi [[reasoning:field]]', 0));
    assert.equal(or.choices[0].message.reasoning_details[0].type, 'reasoning.text');
    const qwen = await body('Hi [[reasoning:tags]]');
    assert.ok(qwen.choices[0].message.content.startsWith('<think>\n'));
  });

  it("passback: a tool-loop follow-up without reasoning_content is refused with DeepSeek's words; with it, it is answered", async () => {
    const q = 'Read it [[reasoning:passback]] [[call:read_file {"path":"a.ts"}]]';
    const call = { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } };
    const loop = (assistant: object) => [
      user(q),
      { role: 'assistant', content: null, tool_calls: [call], ...assistant },
      { role: 'tool', tool_call_id: 'call_1', content: 'export {}' },
    ];
    const refused = await chat(ctx.gw, { tools, messages: loop({}) });
    assert.equal(refused.status, 400);
    assert.equal((await errorOf(refused)).message, PASSBACK_REFUSAL);
    const wrong = await chat(ctx.gw, { tools, messages: loop({ reasoning_content: 'something else' }) });
    assert.equal(wrong.status, 400);
    const ok = await chat(ctx.gw, { tools, messages: loop({ reasoning_content: reasoningText(q, 0) }) });
    assert.equal(ok.status, 200);
    const s = await readStream(ok);
    assert.ok(s.done);
    // A finished turn's assistant message without reasoning is fine (DeepSeek ignores and does not want it).
    const next = await chat(ctx.gw, {
      tools,
      messages: [user('Hi [[reasoning:passback]]'), { role: 'assistant', content: 'Hello' }, user('Again [[reasoning:passback]]')],
    });
    assert.equal(next.status, 200);
    await readStream(next);
  });

  it('kimi: a request whose tool-call messages of any earlier turn lack their reasoning_content is refused; with it, answered', async () => {
    const q1 = 'Read it [[reasoning:kimi]] [[call:read_file {"path":"a.ts"}]]';
    const call = { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } };
    const conversation = (assistant: object) => [
      user(q1),
      { role: 'assistant', content: null, tool_calls: [call], ...assistant },
      { role: 'tool', tool_call_id: 'call_1', content: 'export {}' },
      { role: 'assistant', content: 'It exports nothing.' },
      user('And now? [[reasoning:kimi]]'),
    ];
    const refused = await chat(ctx.gw, { tools, messages: conversation({}) });
    assert.equal(refused.status, 400);
    assert.equal((await errorOf(refused)).message, PASSBACK_REFUSAL);
    const wrong = await chat(ctx.gw, { tools, messages: conversation({ reasoning_content: 'something else' }) });
    assert.equal(wrong.status, 400);
    const ok = await chat(ctx.gw, { tools, messages: conversation({ reasoning_content: reasoningText(q1, 0) }) });
    assert.equal(ok.status, 200);
    assert.ok((await readStream(ok)).done);
    // DeepSeek's rule does not look at finished turns
    const deepseek = await chat(ctx.gw, {
      tools,
      messages: [...conversation({}).slice(0, 4), user('And now? [[reasoning:passback]]')].map((m, i) => (i === 0 ? user(q1.replace('kimi', 'passback')) : m)),
    });
    assert.equal(deepseek.status, 200);
    await readStream(deepseek);
  });
});
