// The answer loop against the real gateway simulator, in plain Node: streaming, tool rounds
// (parallel calls), the round cap, stop, errors, usage and cost, and the cache-friendly layout
// over several turns.
import * as assert from 'node:assert/strict';
import { runAnswer, chatRequest, type AnswerOptions } from '../../../../src/chat/answers/answerLoop';
import type { ToolResult } from '../../../../src/agentTools/chatTools';
import { newConversation, wireHistory, type Conversation } from '../../../../src/chat/conversations/conversationTranscript';
import { createGatewayClient, GatewayError } from '../../../../src/core';
import { costOf } from '../../../../src/core/spend/cost';
import { layoutPrompt, userMessage } from '../../../../src/core/prompt/promptLayout';
import type { ChatMessage, ToolCall, ToolDefinition } from '../../../../src/core/client/types';
import type { ErrorView, ToolCallView } from '../../../../src/chat/protocol';
import { streamingRecord, useSimulatorClient } from '../../simulatorClient';

const SYSTEM = 'You are a test assistant.';
const TOOLS: ToolDefinition[] = [
  { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
  { type: 'function', function: { name: 'list_files', description: 'List files', parameters: { type: 'object', properties: {} } } },
];

const describeError = (err: unknown): ErrorView => ({
  message: err instanceof Error ? err.message : String(err),
  actions: err instanceof GatewayError && err.kind === 'auth' ? ['setKey'] : ['retry'],
});

describe('chat: answer runner against the gateway simulator', function () {
  this.timeout(20_000);
  const sim = useSimulatorClient();

  function options(messages: ChatMessage[], extra: Partial<AnswerOptions> = {}): AnswerOptions & { texts: string[]; calls: ToolCallView[] } {
    const texts: string[] = [];
    const calls: ToolCallView[] = [];
    return {
      client: sim.client,
      model: 'flagship-text',
      channel: 'default',
      messages,
      maxToolRounds: 4,
      signal: new AbortController().signal,
      runTools: async () => [],
      describeError,
      record: streamingRecord(),
      events: { text: (t) => texts.push(t), toolCall: (c) => calls.push({ ...c }) },
      texts,
      calls,
      ...extra,
    };
  }

  it('streams an answer to the end: parts, wire message, usage and cost', async () => {
    const price = { input: 2, output: 8 };
    const o = options(layoutPrompt({ systemPrompt: SYSTEM, pinned: [], history: [userMessage('Explain caching [[words:40]]')] }), { price });
    const out = await runAnswer(o);
    assert.equal(o.record.status, 'done');
    const text = o.texts.join('');
    assert.equal(text.split(' ').length, 40);
    assert.ok(o.texts.length > 1, 'text arrived in several deltas');
    assert.deepEqual(o.record.parts, [{ kind: 'text', text }]);
    assert.deepEqual(o.record.wire, [{ role: 'assistant', content: text }]);
    assert.ok(out.usage && out.usage.promptTokens > 0 && out.usage.completionTokens > 0);
    assert.equal(out.cost, costOf(out.usage, price));
    assert.deepEqual(o.record.usage, { ...out.usage, cost: out.cost });
  });

  it('sends provider only for a chosen channel', () => {
    assert.equal('provider' in chatRequest('m', 'default', []), false);
    assert.deepEqual(chatRequest('m', 'economical', []).provider, { channel: 'economical' });
    assert.equal('tools' in chatRequest('m', 'default', [], []), false);
  });

  it('runs parallel tool calls together, shows them, and continues with their results', async () => {
    const batches: ToolCall[][] = [];
    const runTools = async (calls: ToolCall[]): Promise<ToolResult[]> => {
      batches.push(calls);
      return calls.map((c) =>
        c.name === 'read_file' ? { content: 'export const a = 1;', isError: false } : { content: 'Path escapes the workspace', isError: true },
      );
    };
    const question = 'Look [[call:read_file {"path":"src/a.ts"}]] [[call:list_files {"path":"../.."}]]';
    const o = options(layoutPrompt({ systemPrompt: SYSTEM, pinned: [], history: [userMessage(question)] }), { tools: TOOLS, runTools });
    const before = sim.gw.requests.length;
    await runAnswer(o);
    assert.equal(o.record.status, 'done');
    assert.equal(batches.length, 1, 'one round');
    assert.deepEqual(
      batches[0]!.map((c) => c.name),
      ['read_file', 'list_files'],
      'both calls in one batch (parallel)',
    );
    const tools = o.record.parts.filter((p) => p.kind === 'tool').map((p) => (p as { call: ToolCallView }).call);
    assert.deepEqual(
      tools.map((c) => c.status),
      ['done', 'error'],
    );
    assert.equal(tools[1]!.result, 'Path escapes the workspace');
    // running first, then done/error
    assert.deepEqual(
      o.calls.map((c) => c.status),
      ['running', 'running', 'done', 'error'],
    );
    // wire: assistant with tool_calls, two results, final answer
    assert.deepEqual(
      o.record.wire.map((m) => m.role),
      ['assistant', 'tool', 'tool', 'assistant'],
    );
    assert.equal(o.record.wire[0]!.tool_calls?.length, 2);
    assert.equal(o.record.wire[1]!.tool_call_id, o.record.wire[0]!.tool_calls![0]!.id);
    // the second request carried the results, after the first request's messages unchanged
    const chats = sim.gw.requests.slice(before).filter((r) => r.path.endsWith('/chat/completions'));
    assert.equal(chats.length, 2);
    const second = (chats[1]!.body as { messages: ChatMessage[] }).messages;
    const first = (chats[0]!.body as { messages: ChatMessage[] }).messages;
    assert.deepEqual(second.slice(0, first.length), first);
    assert.deepEqual(
      second.slice(first.length).map((m) => m.role),
      ['assistant', 'tool', 'tool'],
    );
    assert.equal(second[first.length + 2]!.content, 'Path escapes the workspace');
  });

  it('stops at the tool-round cap with a note, keeping unrun calls out of the wire', async () => {
    let rounds = 0;
    const runTools = async (calls: ToolCall[]) => {
      rounds++;
      return calls.map(() => ({ content: 'ok', isError: false }));
    };
    const o = options(layoutPrompt({ systemPrompt: SYSTEM, pinned: [], history: [userMessage('[[rounds:5]] [[call:read_file {"path":"src/a.ts"}]]')] }), {
      tools: TOOLS,
      runTools,
      maxToolRounds: 2,
    });
    await runAnswer(o);
    assert.equal(rounds, 2);
    assert.equal(o.record.status, 'done');
    const last = o.record.parts[o.record.parts.length - 1]!;
    assert.ok(last.kind === 'text' && last.text.includes('Stopped after 2 rounds'));
    const denied = o.record.parts.filter((p) => p.kind === 'tool' && p.call.status === 'denied');
    assert.equal(denied.length, 1);
    // every tool_calls message in the wire is followed by its results
    const wire = o.record.wire;
    for (let i = 0; i < wire.length; i++) {
      for (const c of wire[i]!.tool_calls ?? [])
        assert.ok(
          wire.some((m) => m.tool_call_id === c.id),
          `call ${c.id} has no result`,
        );
    }
  });

  it('stops at once when aborted and keeps the partial answer, marked stopped', async () => {
    const abort = new AbortController();
    const o = options(layoutPrompt({ systemPrompt: SYSTEM, pinned: [], history: [userMessage('[[words:3000]] [[fault:drip:1]]')] }), { signal: abort.signal });
    o.events.text = (t) => {
      o.texts.push(t);
      if (o.texts.join('').length > 20) abort.abort();
    };
    await runAnswer(o);
    assert.equal(o.record.status, 'stopped');
    const text = o.texts.join('');
    assert.ok(text.length > 20);
    assert.deepEqual(o.record.parts, [{ kind: 'text', text }]);
    assert.deepEqual(o.record.wire, [{ role: 'assistant', content: text }]);
    assert.equal(o.record.error, undefined);
  });

  it('turns a failure into an error on the answer (401: set key)', async () => {
    const bad = createGatewayClient({ baseUrl: sim.gw.baseUrl, apiKey: 'sk-wrong' });
    const o = options(layoutPrompt({ systemPrompt: SYSTEM, pinned: [], history: [userMessage('hello')] }), { client: bad });
    await runAnswer(o);
    assert.equal(o.record.status, 'error');
    assert.deepEqual(o.record.error?.actions, ['setKey']);
    assert.deepEqual(o.record.wire, []);
  });

  it('keeps text received before a dropped connection', async () => {
    const o = options(layoutPrompt({ systemPrompt: SYSTEM, pinned: [], history: [userMessage('[[words:200]] [[fault:drop:3]]')] }));
    await runAnswer(o);
    assert.equal(o.record.status, 'error');
    assert.ok(o.texts.join('').length > 0);
    assert.equal((o.record.parts[0] as { text: string }).text, o.texts.join(''));
  });

  it('lays out turns so that turn 2 reads nearly all of turn 1 from the cache', async () => {
    const big = Array.from({ length: 600 }, (_, i) => `export const value${i} = ${i}; // line ${i}`).join('\n');
    const c: Conversation = newConversation(0, 'cache-test');
    c.pinned.push({ id: 'p', label: 'src/big.ts', path: 'src/big.ts', language: 'typescript', content: big });
    const price = { input: 1, output: 8, cacheRead: 0.25 };
    const prompts: number[] = [];
    const cached: number[] = [];
    for (const q of ['What does big.ts export?', 'And which is the largest value?', 'Summarize it in a table.']) {
      c.messages.push({
        id: `u${c.messages.length}`,
        role: 'user',
        text: q,
        attachments: [],
        createdAt: 0,
        context: [{ title: 'Selection from src/big.ts, line 3', text: `volatile ${q}` }],
        wire: userMessage(q, [{ title: 'Selection from src/big.ts, line 3', text: `volatile ${q}` }]),
      });
      const rec = streamingRecord('long-context-tools');
      const o = options(layoutPrompt({ systemPrompt: SYSTEM, pinned: c.pinned, history: wireHistory(c) }), {
        model: 'long-context-tools',
        record: rec,
        price,
        tools: TOOLS,
      });
      const out = await runAnswer(o);
      c.messages.push(rec);
      prompts.push(out.usage!.promptTokens);
      cached.push(out.usage!.cachedTokens);
      assert.equal(out.cost, costOf(out.usage!, price));
    }
    assert.equal(cached[0], 0);
    for (const turn of [1, 2]) {
      const ratio = cached[turn]! / prompts[turn - 1]!;
      assert.ok(
        ratio > 0.95 && cached[turn]! <= prompts[turn - 1]!,
        `turn ${turn + 1}: ${cached[turn]} cached of previous prompt ${prompts[turn - 1]} (${ratio.toFixed(3)})`,
      );
    }
    console.log(`      cached tokens: turn 2 ${cached[1]}/${prompts[0]} of turn 1's prompt, turn 3 ${cached[2]}/${prompts[1]}`);
  });
});
