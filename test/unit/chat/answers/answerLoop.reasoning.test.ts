// A thinking model through the answer loop, against the simulator: the reasoning streams into
// Thinking parts, goes back on the tool loop's assistant messages in the field the model used
// (the simulator's `passback` mode refuses the loop otherwise, with DeepSeek's words), and the
// next turn's request carries none of it (DeepSeek: finished turns' reasoning is not sent).
import * as assert from 'node:assert/strict';
import { runAnswer, toolRoundMessage, type AnswerOptions } from '../../../../src/chat/answers/answerLoop';
import { layoutPrompt, userMessage } from '../../../../src/core/prompt/promptLayout';
import type { ChatMessage, ToolDefinition } from '../../../../src/core/client/types';
import { reasoningText } from '../../../gateway/reasoning';
import { streamingRecord, useSimulatorClient } from '../../simulatorClient';

const TOOLS: ToolDefinition[] = [
  { type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
];

describe('chat: answer loop with a thinking model', function () {
  this.timeout(20_000);
  const sim = useSimulatorClient();

  function options(question: string, history: ChatMessage[] = []) {
    const record = streamingRecord();
    const seen: string[] = [];
    let clock = 0;
    const o: AnswerOptions = {
      client: sim.client,
      model: 'flagship-text',
      channel: 'default',
      messages: layoutPrompt({ systemPrompt: 'sys', pinned: [], history: [...history, userMessage(question)] }),
      tools: TOOLS,
      maxToolRounds: 4,
      signal: new AbortController().signal,
      runTools: async (calls) => calls.map(() => ({ content: 'export const a = 1;', isError: false })),
      describeError: (err) => ({ message: err instanceof Error ? err.message : String(err), actions: [] }),
      record,
      now: () => (clock += 500),
      events: {
        text: () => seen.push('text'),
        toolCall: () => seen.push('tool'),
        reasoning: () => seen.push('reasoning'),
        thinkingDone: () => seen.push('thinkingDone'),
      },
    };
    return { o, record, seen };
  }

  it("passes reasoning_content back through a tool loop that DeepSeek's rule would refuse without it", async () => {
    const q = 'Read a.ts [[reasoning:passback]] [[call:read_file {"path":"a.ts"}]]';
    const { o, record, seen } = options(q);
    const out = await runAnswer(o);
    assert.equal(record.status, 'done', record.error?.message);
    assert.equal(out.requests, 2);
    // Thinking parts per round, in order, each with its time
    assert.deepEqual(
      record.parts.map((p) => p.kind),
      ['thinking', 'tool', 'thinking', 'text'],
    );
    const thinking = record.parts.filter((p) => p.kind === 'thinking') as { text: string; ms?: number }[];
    assert.deepEqual(
      thinking.map((p) => p.text),
      [reasoningText(q, 0), reasoningText(q, 1)],
    );
    assert.ok(thinking.every((p) => typeof p.ms === 'number' && p.ms > 0));
    assert.ok(seen.indexOf('thinkingDone') < seen.indexOf('tool'));
    // the wire form keeps it on the tool-call message (the field the model used), not on the final text
    assert.equal(record.wire[0]!.reasoning_content, reasoningText(q, 0));
    assert.equal(record.wire[0]!.reasoning, undefined);
    assert.equal(record.wire.at(-1)!.reasoning_content, undefined);
    assert.ok(!record.parts.some((p) => p.kind === 'text' && p.text.includes('Round 1')), 'reasoning never in the answer text');
    // usage: reasoning tokens reported, inside completion tokens
    assert.ok(record.usage?.reasoningTokens && record.usage.reasoningTokens > 0 && record.usage.reasoningTokens < record.usage.completionTokens);

    // Next turn: the finished turn's reasoning is not sent back.
    const next = options('And now? [[reasoning:passback]]', [userMessage(q), ...record.wire]);
    const before = sim.gw.requests.length;
    await runAnswer(next.o);
    assert.equal(next.record.status, 'done', next.record.error?.message);
    const sent = (sim.gw.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'))!.body as { messages: ChatMessage[] }).messages;
    assert.ok(
      sent.some((m) => m.tool_calls),
      'the earlier tool round is in the history',
    );
    assert.ok(sent.every((m) => m.reasoning_content === undefined && m.reasoning === undefined));
  });

  it('OpenRouter form goes back as `reasoning`; a <think> block is shown but not sent back', async () => {
    const field = options('Read [[reasoning:field]] [[call:read_file {"path":"a.ts"}]]');
    await runAnswer(field.o);
    assert.equal(field.record.status, 'done');
    assert.equal(field.record.wire[0]!.reasoning, reasoningText('Read [[reasoning:field]] [[call:read_file {"path":"a.ts"}]]', 0));
    assert.equal(field.record.wire[0]!.reasoning_content, undefined);

    const tags = options('Read [[reasoning:tags]] [[call:read_file {"path":"a.ts"}]]');
    await runAnswer(tags.o);
    assert.equal(tags.record.status, 'done');
    assert.deepEqual(
      tags.record.parts.map((p) => p.kind),
      ['thinking', 'tool', 'thinking', 'text'],
    );
    assert.equal(tags.record.wire[0]!.content, null, 'the <think> block is not answer text');
    assert.equal(tags.record.wire[0]!.reasoning_content, undefined);
    assert.equal(tags.record.wire[0]!.reasoning, undefined);
    const text = tags.record.parts.at(-1) as { text: string };
    assert.ok(!text.text.includes('<think>'));
  });

  it('toolRoundMessage puts reasoning in the field the model used', () => {
    const calls = [{ id: 'c', name: 'f', arguments: '{}' }];
    assert.equal(toolRoundMessage('', calls, 'r', 'reasoning_content').reasoning_content, 'r');
    assert.equal(toolRoundMessage('', calls, 'r', 'reasoning').reasoning, 'r');
    const think = toolRoundMessage('', calls, 'r', 'think');
    assert.ok(!('reasoning' in think) && !('reasoning_content' in think));
    assert.ok(!('reasoning_content' in toolRoundMessage('x', calls, '', undefined)));
  });
});
