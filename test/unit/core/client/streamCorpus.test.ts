// The stream corpus (test/gateway/streamCorpus: transcripts shaped after DeepSeek, Kimi, Qwen,
// OpenRouter, vLLM, Ollama, LM Studio, llama.cpp, Azure OpenAI, Groq, Together, Mistral and
// Gemini's OpenAI endpoint; each file names the document each transcript follows) replayed
// through the client's real decode path: the SSE reader, the chunk decoder and its fast path
// (chatEventBatches), whole, at random byte boundaries, with CRLF framing, with parallel tool
// calls interleaved, and through createGatewayClient's streamChat. Text, reasoning, tool calls,
// finish reason, usage and in-stream errors are checked against what the transcript expects.
import * as assert from 'node:assert/strict';
import { STREAM_CORPUS, type Transcript } from '../../../gateway/streamCorpus/index';
import { chunkedFetch, client, decodeStream, pieces, type DecodeOutcome } from './clientHarness';
import { GatewayError, type ChatStreamEvent } from '../../../../src/core';

interface Summary {
  text: string;
  reasoning: string;
  fields: string[];
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string | null | undefined;
  usage: unknown;
  error?: { kind: string; message: string };
}

function summarize(events: readonly ChatStreamEvent[], error?: { kind: string; message: string }): Summary {
  const s: Summary = { text: '', reasoning: '', fields: [], toolCalls: [], finishReason: undefined, usage: undefined };
  for (const e of events) {
    if (e.type === 'text') s.text += e.text;
    else if (e.type === 'reasoning') {
      s.reasoning += e.text;
      if (!s.fields.includes(e.field)) s.fields.push(e.field);
    } else if (e.type === 'tool_calls') s.toolCalls.push(...e.calls);
    else if (e.type === 'usage') s.usage = e.usage;
    else s.finishReason = e.finishReason;
  }
  if (error) s.error = error;
  return s;
}

const summaryOf = (o: DecodeOutcome) => summarize(o.events, o.error);

function check(t: Transcript, s: Summary, how: string): void {
  const at = `${t.name} (${how})`;
  const x = t.expect;
  assert.equal(s.text, x.text, `${at}: text`);
  assert.equal(s.reasoning, x.reasoning ?? '', `${at}: reasoning`);
  assert.deepEqual(s.fields, x.reasoningField ? [x.reasoningField] : [], `${at}: reasoning field`);
  assert.equal(s.toolCalls.length, x.toolCalls?.length ?? 0, `${at}: tool calls ${JSON.stringify(s.toolCalls)}`);
  (x.toolCalls ?? []).forEach((call, i) => {
    const got = s.toolCalls[i]!;
    assert.equal(got.name, call.name, `${at}: call ${i} name`);
    assert.equal(got.arguments, call.arguments, `${at}: call ${i} arguments`);
    if (call.id) assert.equal(got.id, call.id, `${at}: call ${i} id`);
    else assert.match(got.id, /^call_local_/, `${at}: call ${i} local id`);
  });
  if (x.error) {
    assert.ok(s.error, `${at}: ends in an error`);
    assert.equal(s.error.kind, x.error.kind, `${at}: error kind (${s.error.message})`);
    assert.ok(s.error.message.includes(x.error.includes), `${at}: error message: ${s.error.message}`);
    return;
  }
  assert.equal(s.error, undefined, `${at}: no error`);
  assert.equal(s.finishReason, x.finishReason ?? null, `${at}: finish reason`);
  assert.deepEqual(s.usage, x.usage, `${at}: usage`);
}

const bytesOf = (text: string) => new TextEncoder().encode(text);

/** Seeded splits of `bytes` at random byte offsets (inside UTF-8 characters too). */
function randomSplit(bytes: Uint8Array, seed: number): Uint8Array[] {
  let state = seed * 2654435761;
  const next = () => (state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x9e3779b9) >>> 0) / 2 ** 32;
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length;) {
    const n = 1 + Math.floor(next() * (next() < 0.3 ? 4 : 90));
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

/**
 * The same body with the fragments of parallel tool calls interleaved by index (as some servers
 * send them): the tool-call-only events are put back in round-robin order of their call index.
 */
function interleaveToolCalls(body: string): string | undefined {
  const events = body.split('\n\n');
  const slots: number[] = [];
  const byIndex = new Map<number, string[]>();
  events.forEach((event, at) => {
    if (!event.startsWith('data: {')) return;
    const json = JSON.parse(event.slice(6)) as { choices?: { delta?: { tool_calls?: { index?: number }[]; content?: unknown }; finish_reason?: unknown }[] };
    const choice = json.choices?.[0];
    const calls = choice?.delta?.tool_calls;
    if (!calls || calls.length !== 1 || choice.finish_reason || (choice.delta?.content ?? '') !== '') return;
    const index = calls[0]!.index ?? 0;
    slots.push(at);
    byIndex.set(index, [...(byIndex.get(index) ?? []), event]);
  });
  if (byIndex.size < 2) return undefined;
  const queues = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, q]) => q);
  const merged: string[] = [];
  while (queues.some((q) => q.length)) for (const q of queues) if (q.length) merged.push(q.shift()!);
  slots.forEach((slot, i) => (events[slot] = merged[i]!));
  return events.join('\n\n');
}

describe('core/client: the stream corpus (other servers’ shapes)', () => {
  it('has a transcript of every provider a user is likely to put behind Modelgate, each naming its document', () => {
    const names = STREAM_CORPUS.map((t) => t.name);
    for (const p of ['deepseek', 'kimi', 'qwen', 'openrouter', 'vllm', 'ollama', 'lmstudio', 'llamacpp', 'azure', 'groq', 'together', 'mistral', 'gemini'])
      assert.ok(
        names.some((n) => n.startsWith(p)),
        `a ${p} transcript`,
      );
    assert.equal(new Set(names).size, names.length, 'unique names');
    for (const t of STREAM_CORPUS) assert.match(t.source, /\w+\.\w+/, `${t.name} names its document`);
  });

  for (const t of STREAM_CORPUS) {
    describe(t.name, () => {
      const bytes = bytesOf(t.body);

      it('decodes whole, the fast path and the reference path alike', async () => {
        const fast = summaryOf(await decodeStream([bytes], true));
        check(t, fast, 'whole');
        assert.deepEqual(summaryOf(await decodeStream([bytes], false)), fast, 'reference path');
      });

      it('decodes the same at random byte boundaries and with CRLF framing', async () => {
        for (let seed = 1; seed <= 24; seed++) check(t, summaryOf(await decodeStream(randomSplit(bytes, seed), true)), `split seed ${seed}`);
        check(t, summaryOf(await decodeStream(pieces(bytes, 1), true)), 'one byte at a time');
        const crlf = bytesOf(t.body.replace(/\n/g, '\r\n'));
        check(t, summaryOf(await decodeStream(randomSplit(crlf, 99), true)), 'CRLF');
      });

      const interleaved = interleaveToolCalls(t.body);
      if (interleaved) {
        it('decodes the same with its parallel tool-call fragments interleaved', async () => {
          assert.notEqual(interleaved, t.body);
          for (let seed = 1; seed <= 4; seed++) check(t, summaryOf(await decodeStream(randomSplit(bytesOf(interleaved), seed), true)), `interleaved ${seed}`);
        });
      }

      it('streams through createGatewayClient', async () => {
        const { fetch } = chunkedFetch(randomSplit(bytes, 7));
        const events: ChatStreamEvent[] = [];
        let error: { kind: string; message: string } | undefined;
        try {
          for await (const e of client('http://127.0.0.1:9/v1', { fetch, maxRetries: 0 }).streamChat({
            model: 'm',
            messages: [{ role: 'user', content: 'hi' }],
          }))
            events.push(e);
        } catch (caught) {
          assert.ok(caught instanceof GatewayError, String(caught));
          error = { kind: caught.kind, message: caught.message };
        }
        check(t, summarize(events, error), 'client');
      });
    });
  }
});
