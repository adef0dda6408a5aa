// The answer loop's checks before each request (a conversation's spending limit pauses or stops an
// answer, or moves it to a cheaper channel) and its report after each one (what the quote learns
// from), against the real gateway simulator in plain Node.
import * as assert from 'node:assert/strict';
import { runAnswer, type AnswerOptions, type RequestGate } from '../../../../src/chat/answers/answerLoop';
import { GatewayError } from '../../../../src/core';
import { costOf } from '../../../../src/core/spend/cost';
import { layoutPrompt, userMessage } from '../../../../src/core/prompt/promptLayout';
import type { ChatMessage, ToolDefinition, Usage } from '../../../../src/core/client/types';
import type { ErrorView } from '../../../../src/chat/protocol';
import type { ChannelChoice } from '../../../../src/core/catalogue/modelCatalogue';
import { streamingRecord, useSimulatorClient } from '../../simulatorClient';

const TOOLS: ToolDefinition[] = [
  { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
];
const describeError = (err: unknown): ErrorView => ({
  message: err instanceof Error ? err.message : String(err),
  actions: err instanceof GatewayError && err.kind === 'auth' ? ['setKey'] : ['retry'],
});
const THREE_ROUNDS = '[[rounds:3]] [[call:read_file {"path":"src/a.ts"}]]';

describe('chat: the answer loop asks before every request and reports each one', function () {
  this.timeout(20_000);
  const sim = useSimulatorClient();
  const chats = (from: number) => sim.gw.requests.slice(from).filter((r) => r.path.endsWith('/chat/completions'));

  function options(question: string, extra: Partial<AnswerOptions> = {}): AnswerOptions & { texts: string[] } {
    const texts: string[] = [];
    return {
      client: sim.client,
      model: 'flagship-text',
      channel: 'default',
      messages: layoutPrompt({ systemPrompt: 'You are a test assistant.', pinned: [], history: [userMessage(question)] }),
      tools: TOOLS,
      maxToolRounds: 8,
      signal: new AbortController().signal,
      runTools: async (calls) => calls.map(() => ({ content: 'export const a = 1;', isError: false })),
      describeError,
      record: streamingRecord(),
      events: { text: (t) => texts.push(t), toolCall: () => undefined },
      texts,
      ...extra,
    };
  }

  it('a stop before the second request sends nothing more and leaves a history the next request can take', async () => {
    const seen: { index: number; cost: number; messages: number }[] = [];
    const price = { input: 2e-6, output: 8e-6 };
    const o = options(THREE_ROUNDS, {
      price,
      beforeRequest: async (r) => {
        seen.push({ index: r.index, cost: r.cost, messages: r.messages.length });
        return r.index === 1 ? { stop: '\n\n_Stopped: the limit._' } : undefined;
      },
    });
    const before = sim.gw.requests.length;
    const out = await runAnswer(o);
    assert.equal(chats(before).length, 1, 'only the first request went out');
    assert.deepEqual(
      seen.map((s) => s.index),
      [0, 1],
    );
    assert.equal(seen[0]!.cost, 0, 'nothing spent before the first request');
    assert.ok(out.cost !== undefined && out.cost > 0);
    assert.equal(seen[1]!.cost, out.cost, 'the second check knew what the first request cost');
    assert.ok(seen[1]!.messages > seen[0]!.messages, 'the second check saw the round that would be sent');
    assert.equal(o.record.status, 'done');
    assert.ok(o.texts.join('').endsWith('_Stopped: the limit._'));
    // the round that ran is in the wire whole (calls and their results): the next question can follow it
    const wire = o.record.wire;
    assert.deepEqual(
      wire.map((m) => m.role),
      ['assistant', 'tool'],
    );
  });

  it('a stop before the first request sends nothing at all', async () => {
    const before = sim.gw.requests.length;
    const o = options('Hello [[words:5]]', { beforeRequest: async () => ({ stop: 'not sent' }) });
    const out = await runAnswer(o);
    assert.equal(chats(before).length, 0);
    assert.equal(out.requests, 0);
    assert.equal(out.usage, undefined);
  });

  it('a switch to another channel sends the rest there and prices each request at its own channel', async () => {
    const prices: Record<string, { input: number; output: number }> = { default: { input: 4e-6, output: 16e-6 }, economical: { input: 1e-6, output: 2e-6 } };
    const done: { channel: ChannelChoice; usage: Usage; calls: boolean; messages: ChatMessage[]; at: number }[] = [];
    const o = options(THREE_ROUNDS, {
      price: prices.default,
      beforeRequest: async (r): Promise<RequestGate | undefined> => (r.index === 1 ? { channel: 'economical', price: prices.economical } : undefined),
      requestDone: (r) => done.push(r),
    });
    const before = sim.gw.requests.length;
    const out = await runAnswer(o);
    const sent = chats(before).map((r) => (r.body as { provider?: { channel: string } }).provider?.channel);
    assert.deepEqual(sent, [undefined, 'economical', 'economical', 'economical'], 'first on the default channel, then on the one chosen');
    assert.equal(o.record.channel, 'economical');
    assert.equal(done.length, 4, 'each request reported once');
    assert.deepEqual(
      done.map((d) => d.calls),
      [true, true, true, false],
      'the rounds ended in calls, the last in the answer',
    );
    assert.ok(
      done.every((d, i) => i === 0 || d.messages.length > done[i - 1]!.messages.length),
      'each request sent the context so far',
    );
    const expected = costOf(done[0]!.usage, prices.default) + done.slice(1).reduce((n, d) => n + costOf(d.usage, prices.economical), 0);
    assert.ok(Math.abs(out.cost! - expected) < 1e-12, `cost ${out.cost} = ${expected}`);
    const promptSum = done.reduce((n, d) => n + d.usage.promptTokens, 0);
    assert.equal(out.usage!.promptTokens, promptSum, 'the answer sums its requests');
  });
});
