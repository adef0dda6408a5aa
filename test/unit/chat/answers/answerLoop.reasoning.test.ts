// A thinking model through the answer loop, against the simulator: the reasoning streams into
// Thinking parts, goes back on the tool loop's assistant messages in the field the model used
// (the simulator's `passback` mode refuses the loop otherwise, with DeepSeek's words), and every
// later request keeps it on those messages (its `kimi` mode refuses any request whose earlier
// tool-call messages lack it), with the bytes of what was sent before unchanged (the prompt cache).
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

    // Next turn: the finished turn's tool-call message keeps its reasoning (Kimi wants it; DeepSeek ignores it).
    const next = options('And now? [[reasoning:passback]]', [userMessage(q), ...record.wire]);
    const before = sim.gw.requests.length;
    await runAnswer(next.o);
    assert.equal(next.record.status, 'done', next.record.error?.message);
    const sent = (sim.gw.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'))!.body as { messages: ChatMessage[] }).messages;
    assert.equal(sent.find((m) => m.tool_calls)?.reasoning_content, reasoningText(q, 0));
    assert.ok(sent.every((m) => m.tool_calls || (m.reasoning_content === undefined && m.reasoning === undefined)));
  });

  it("holds a conversation with tools over several turns under Kimi's rule, and never changes the bytes of what it sent before", async () => {
    const questions = [
      'Read a.ts [[reasoning:kimi]] [[call:read_file {"path":"a.ts"}]]',
      'Now b.ts [[reasoning:kimi]] [[call:read_file {"path":"b.ts"}]]',
      'And c.ts? [[reasoning:kimi]] [[call:read_file {"path":"c.ts"}]]',
    ];
    const before = sim.gw.requests.length;
    let history: ChatMessage[] = [];
    for (const q of questions) {
      const turn = options(q, history);
      const out = await runAnswer(turn.o);
      assert.equal(turn.record.status, 'done', `${q}: ${turn.record.error?.message}`);
      assert.equal(out.requests, 2);
      // as the controller stores it: the user message's wire form, then the answer's (through JSON, like the history file)
      history = JSON.parse(JSON.stringify([...history, userMessage(q), ...turn.record.wire])) as ChatMessage[];
    }
    const bodies = sim.gw.requests
      .slice(before)
      .filter((r) => r.path.endsWith('/chat/completions'))
      .map((r) => (r.body as { messages: ChatMessage[] }).messages);
    assert.equal(bodies.length, 6);
    // every tool-call message of every turn carries the reasoning it came with
    const last = bodies.at(-1)!;
    assert.deepEqual(
      last.filter((m) => m.tool_calls).map((m) => m.reasoning_content),
      questions.map((q) => reasoningText(q, 0)),
    );
    // the prompt cache: each request starts with exactly the bytes of the one before it
    for (let i = 1; i < bodies.length; i++) {
      const prev = bodies[i - 1]!;
      for (let k = 0; k < prev.length; k++) assert.equal(JSON.stringify(bodies[i]![k]), JSON.stringify(prev[k]), `request ${i}, message ${k}`);
    }
  });

  it("a request whose earlier tool-call message lost its reasoning is refused under Kimi's rule", async () => {
    const q = 'Read a.ts [[reasoning:kimi]] [[call:read_file {"path":"a.ts"}]]';
    const first = options(q);
    await runAnswer(first.o);
    assert.equal(first.record.status, 'done', first.record.error?.message);
    const stripped = first.record.wire.map(({ reasoning_content: _r, ...m }) => m);
    const next = options('Again [[reasoning:kimi]]', [userMessage(q), ...stripped]);
    await runAnswer(next.o);
    assert.equal(next.record.status, 'error');
    assert.match(next.record.error!.message, /reasoning_content in the thinking mode must be passed back/);
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
