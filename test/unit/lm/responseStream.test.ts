// One vscode.lm request against the real gateway simulator, in plain Node: what the provider's
// sink receives for text, tool calls (and a tool round through the message mapping), usage,
// invalid tool arguments, the channel, and cancellation.
import * as assert from 'node:assert/strict';
import { GatewayError } from '../../../src/core';
import type { ChatRequest, Usage } from '../../../src/core/client/types';
import { toWireMessages, type LmMessage } from '../../../src/lm/lmMessages';
import { toWireTools } from '../../../src/lm/lmTools';
import { LmToolCallError, streamLmResponse, type LmResponseSink } from '../../../src/lm/responseStream';
import { wordsAnswer } from '../../gateway/answers';
import { useSimulatorClient } from '../simulatorClient';

const MODEL = { id: 'flagship-text', label: 'Flagship (text)', imageInput: false, tools: true };
const LOOKUP = [{ name: 'lookup', description: 'Look up', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }];

interface Collected {
  texts: string[];
  calls: { id: string; name: string; input: Record<string, unknown> }[];
  usages: Usage[];
}

function collector(): { got: Collected; sink: LmResponseSink } {
  const got: Collected = { texts: [], calls: [], usages: [] };
  return { got, sink: { text: (t) => got.texts.push(t), toolCall: (c) => got.calls.push(c), usage: (u) => got.usages.push(u) } };
}

function request(messages: LmMessage[], tools = false, channel?: 'direct'): ChatRequest {
  const req: ChatRequest = { model: MODEL.id, messages: toWireMessages(messages, MODEL), ...toWireTools(tools ? LOOKUP : undefined, 1, MODEL) };
  if (channel) req.provider = { channel };
  return req;
}

const user = (t: string): LmMessage => ({ role: 'user', parts: [{ kind: 'text', text: t }] });

describe('lm: streaming a response from the gateway simulator', function () {
  this.timeout(20_000);
  const sim = useSimulatorClient();

  function lastChatBody(): Record<string, unknown> {
    const chats = sim.gw.requests.filter((r) => r.path === '/v1/chat/completions');
    return chats[chats.length - 1]!.body as Record<string, unknown>;
  }

  it('streams the text and reports usage', async () => {
    const { got, sink } = collector();
    await streamLmResponse(sim.client, request([user('hello [[words:12]]')]), new AbortController().signal, sink);
    assert.equal(got.texts.join(''), wordsAnswer('hello [[words:12]]', 12));
    assert.ok(got.texts.length > 1, 'streamed in several pieces');
    assert.equal(got.usages.length, 1);
    assert.ok(got.usages[0]!.promptTokens > 0 && got.usages[0]!.completionTokens > 0);
    assert.equal('provider' in lastChatBody(), false, 'no provider field for the default channel');
  });

  it('hands over a complete tool call with parsed input, and the result round gets the summary', async () => {
    const { got, sink } = collector();
    const ask = user('find it [[call:lookup {"q":"x"}]]');
    await streamLmResponse(sim.client, request([ask], true, 'direct'), new AbortController().signal, sink);
    assert.deepEqual(got.calls, [{ id: 'call_1', name: 'lookup', input: { q: 'x' } }]);
    assert.deepEqual(lastChatBody().provider, { channel: 'direct' });
    assert.deepEqual((lastChatBody().tools as unknown[]).length, 1);

    const second = collector();
    const round: LmMessage[] = [
      ask,
      { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'call_1', name: 'lookup', input: { q: 'x' } }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'call_1', content: [{ kind: 'text', text: 'x is 42' }] }] },
    ];
    await streamLmResponse(sim.client, request(round, true), new AbortController().signal, second.sink);
    assert.equal(second.got.texts.join(''), 'Tool lookup returned 7 characters. First line: `x is 42`');
    assert.equal(second.got.calls.length, 0);
  });

  it('reports tool arguments that are not JSON as an error, never as a call', async () => {
    const { got, sink } = collector();
    await assert.rejects(
      streamLmResponse(sim.client, request([user('[[call:lookup {"q": ]]')], true), new AbortController().signal, sink),
      (e: unknown) => e instanceof LmToolCallError && /"lookup" with arguments that are not valid JSON/.test(e.message),
    );
    assert.equal(got.calls.length, 0);
  });

  it('stops when the signal aborts', async () => {
    const abort = new AbortController();
    const { got, sink } = collector();
    const stream = streamLmResponse(sim.client, request([user('[[long:400]]')]), abort.signal, {
      ...sink,
      text: (t) => {
        sink.text(t);
        abort.abort();
      },
    });
    await assert.rejects(stream, (e: unknown) => e instanceof GatewayError && e.kind === 'aborted');
    assert.ok(got.texts.length >= 1);
    assert.ok(got.texts.join('').length < 2000, 'far less than the whole answer arrived');
  });
});
