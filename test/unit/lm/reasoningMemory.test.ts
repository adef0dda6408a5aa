// The provider's memory of reasoning per tool-call id: a vscode.lm caller that passes back only
// the tool call and its result still sends DeepSeek and Kimi what they require, on every
// assistant message with tool calls.
import * as assert from 'node:assert/strict';
import { MAX_REMEMBERED_CALLS, ReasoningMemory } from '../../../src/lm/reasoningMemory';
import { toWireMessages, type LmMessage } from '../../../src/lm/lmMessages';
import type { ChatMessage } from '../../../src/core/client/types';

const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'f', arguments: '{}' } });
const model = { id: 'm', label: 'M', imageInput: false };

describe('lm: reasoning memory per tool-call id', () => {
  it('puts remembered reasoning back in the field the model used, on earlier turns too', () => {
    const memory = new ReasoningMemory();
    memory.remember([{ id: 'old', name: 'f' }], { text: 'old thoughts', field: 'reasoning_content' });
    memory.remember(
      [
        { id: 'c1', name: 'f' },
        { id: 'c2', name: 'f' },
      ],
      { text: 'why both', field: 'reasoning_content' },
    );
    memory.remember([{ id: 'c3', name: 'f' }], { text: 'or form', field: 'reasoning' });
    const messages: ChatMessage[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: null, tool_calls: [call('old')] },
      { role: 'tool', tool_call_id: 'old', content: 'x' },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: null, tool_calls: [call('c1'), call('c2')] },
      { role: 'tool', tool_call_id: 'c1', content: 'a' },
      { role: 'tool', tool_call_id: 'c2', content: 'b' },
      { role: 'assistant', content: null, tool_calls: [call('c3')] },
      { role: 'tool', tool_call_id: 'c3', content: 'c' },
    ];
    const out = memory.restore(messages);
    assert.equal(out[1]!.reasoning_content, 'old thoughts', 'a finished turn keeps it (Kimi refuses without)');
    assert.equal(out[3]!.reasoning_content, undefined, 'a message without tool calls gets none');
    assert.equal(out[5]!.reasoning_content, 'why both');
    assert.equal(out[8]!.reasoning, 'or form');
    assert.equal(out[8]!.reasoning_content, undefined);
    assert.equal(messages[5]!.reasoning_content, undefined, 'the input is not changed');
  });

  it('keeps what the caller passed back (a thinking part), in the remembered field when known', () => {
    const memory = new ReasoningMemory();
    memory.remember([{ id: 'c1', name: 'f' }], { text: 'mine', field: 'reasoning' });
    const lm: LmMessage[] = [
      { role: 'user', parts: [{ kind: 'text', text: 'q' }] },
      {
        role: 'assistant',
        parts: [
          { kind: 'thinking', text: 'from the caller' },
          { kind: 'toolCall', callId: 'c1', name: 'f', input: {} },
        ],
      },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', content: [{ kind: 'text', text: 'r' }] }] },
    ];
    const out = memory.restore(toWireMessages(lm, model));
    assert.equal(out[1]!.reasoning, 'from the caller');
    assert.equal(out[1]!.reasoning_content, undefined);
    // unknown call: the caller's thinking goes as reasoning_content
    const fresh = new ReasoningMemory().restore(toWireMessages(lm, model));
    assert.equal(fresh[1]!.reasoning_content, 'from the caller');
  });

  it('does not keep <think> reasoning (it has no field) and forgets the oldest beyond its cap', () => {
    const memory = new ReasoningMemory();
    memory.remember([{ id: 't', name: 'f' }], { text: 'x', field: 'think' });
    assert.equal(memory.size, 0);
    for (let i = 0; i < MAX_REMEMBERED_CALLS + 10; i++) memory.remember([{ id: `c${i}`, name: 'f' }], { text: `r${i}`, field: 'reasoning_content' });
    assert.equal(memory.size, MAX_REMEMBERED_CALLS);
    const out = memory.restore([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [call('c0')] },
      { role: 'tool', tool_call_id: 'c0', content: '' },
    ]);
    assert.equal(out[1]!.reasoning_content, undefined, 'c0 was forgotten');
    // the same id from another tool is another call
    memory.remember([{ id: 'same', name: 'a' }], { text: 'for a', field: 'reasoning_content' });
    const other = memory.restore([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [{ ...call('same'), function: { name: 'b', arguments: '{}' } }] },
    ]);
    assert.equal(other[1]!.reasoning_content, undefined);
  });
});

describe('lm: a tool loop of a thinking model against the simulator, the caller passing back only call and result', function () {
  this.timeout(20_000);
  it('succeeds where the simulator refuses a loop without reasoning_content', async () => {
    const { startGateway } = await import('../../gateway/index');
    const { createGatewayClient, GatewayError } = await import('../../../src/core');
    const { streamLmResponse } = await import('../../../src/lm/responseStream');
    const { toWireTools } = await import('../../../src/lm/lmTools');
    const gw = await startGateway();
    try {
      const client = createGatewayClient({ baseUrl: gw.baseUrl, apiKey: 'sk-test', retryBaseDelayMs: 1, retryMaxDelayMs: 2 });
      const tools = toWireTools([{ name: 'lookup', description: 'Look up', inputSchema: { type: 'object', properties: {} } }], 1, { ...model, tools: true });
      const memory = new ReasoningMemory();
      const question: LmMessage = { role: 'user', parts: [{ kind: 'text', text: 'Look it up [[reasoning:passback]] [[call:lookup {"q":"x"}]]' }] };
      const thoughts: string[] = [];
      const calls: { id: string; name: string; input: Record<string, unknown> }[] = [];
      const sink = {
        text: () => undefined,
        toolCall: (c: (typeof calls)[number]) => calls.push(c),
        usage: () => undefined,
        reasoning: (t: string) => thoughts.push(t),
      };
      const first = await streamLmResponse(
        client,
        { model: 'flagship-text', messages: memory.restore(toWireMessages([question], model)), ...tools },
        new AbortController().signal,
        sink,
      );
      assert.ok(thoughts.join('').length > 0, 'reasoning was reported');
      assert.equal(first.reasoning?.field, 'reasoning_content');
      memory.remember(first.calls, first.reasoning);
      // What a caller sends back: the call and its result, no thinking part.
      const followUp: LmMessage[] = [
        question,
        { role: 'assistant', parts: calls.map((c) => ({ kind: 'toolCall' as const, callId: c.id, name: c.name, input: c.input })) },
        { role: 'user', parts: calls.map((c) => ({ kind: 'toolResult' as const, callId: c.id, content: [{ kind: 'text' as const, text: 'found' }] })) },
      ];
      // Without the memory the simulator refuses with DeepSeek's words...
      await assert.rejects(
        streamLmResponse(client, { model: 'flagship-text', messages: toWireMessages(followUp, model), ...tools }, new AbortController().signal, sink),
        (err: unknown) => err instanceof GatewayError && /reasoning_content in the thinking mode must be passed back/.test(err.message),
      );
      // ...with it the loop goes on.
      let text = '';
      await streamLmResponse(
        client,
        { model: 'flagship-text', messages: memory.restore(toWireMessages(followUp, model)), ...tools },
        new AbortController().signal,
        { ...sink, text: (t) => (text += t) },
      );
      assert.match(text, /Tool lookup returned/);
    } finally {
      await gw.close();
    }
  });
});
