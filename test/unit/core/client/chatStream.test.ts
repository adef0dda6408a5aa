// Chunks -> events: tool-call assembly, usage, [DONE], malformed chunks, errors in the stream.
import * as assert from 'node:assert/strict';
import { ChatStreamAssembler, isCommonChunk } from '../../../../src/core/client/chatStream';
import { GatewayError, type ChatStreamEvent } from '../../../../src/core';
import {
  chunkedFetch,
  client,
  collect,
  collectUntilError,
  expectGatewayError,
  finishChunk,
  roleChunk,
  sseEvent,
  sseStream,
  textChunk,
  toolChunk,
  usageChunk,
  decodeStream as decode,
} from './clientHarness';
import { startGateway } from '../../../gateway';
import { seededRng, type Rng } from '../../../gateway/rng';
import { wire } from '../../../../src/core/client/wire';

function feed(payloads: unknown[]): ChatStreamEvent[] {
  const assembler = new ChatStreamAssembler({ model: 'm' });
  const out: ChatStreamEvent[] = [];
  for (const p of payloads) out.push(...assembler.handle({ data: typeof p === 'string' ? p : JSON.stringify(p), event: undefined, id: undefined }));
  out.push(...assembler.finish());
  return out;
}

function stream(payloads: unknown[], opts: { done?: boolean } = {}) {
  const { fetch, calls } = chunkedFetch([sseStream(payloads, opts)]);
  return { calls, events: client('http://127.0.0.1:9/v1', { fetch }).streamChat({ model: 'm', messages: [] }) };
}

describe('core/chatStream: events from chunks', () => {
  it('skips the role-only first chunk and chunks without content; empty content yields nothing', () => {
    const events = feed([
      roleChunk(),
      { choices: [{ index: 0 }] },
      textChunk(''),
      textChunk('hi'),
      { choices: [{ index: 0, delta: { content: null } }] },
      finishChunk(),
      '[DONE]',
    ]);
    assert.deepEqual(events, [
      { type: 'text', text: 'hi' },
      { type: 'done', finishReason: 'stop' },
    ]);
  });

  it('usage from the last chunk with empty choices; cached tokens from prompt_tokens_details, default 0', () => {
    assert.deepEqual(feed([textChunk('a'), finishChunk(), usageChunk(100, 20, 64), '[DONE]']).at(-2), {
      type: 'usage',
      usage: { promptTokens: 100, completionTokens: 20, cachedTokens: 64 },
    });
    assert.deepEqual(feed([textChunk('a'), finishChunk(), usageChunk(100, 20), '[DONE]']).at(-2), {
      type: 'usage',
      usage: { promptTokens: 100, completionTokens: 20, cachedTokens: 0 },
    });
  });

  it('reports usage once even when the server repeats a running total on every chunk', () => {
    const withUsage = (c: object, n: number) => ({ ...c, usage: { prompt_tokens: 10, completion_tokens: n } });
    const events = feed([withUsage(textChunk('a'), 1), withUsage(textChunk('b'), 2), withUsage(finishChunk(), 3), '[DONE]']);
    const usages = events.filter((e) => e.type === 'usage');
    assert.deepEqual(usages, [{ type: 'usage', usage: { promptTokens: 10, completionTokens: 3, cachedTokens: 0 } }]);
  });

  it('assembles one tool call from fragments; id and name once, arguments in pieces', () => {
    const events = feed([
      roleChunk(),
      toolChunk([{ index: 0, id: 'call_1', name: 'read_file', arguments: '' }]),
      toolChunk([{ index: 0, arguments: '{"pa' }]),
      toolChunk([{ index: 0, arguments: 'th": "src/a' }]),
      toolChunk([{ index: 0, arguments: '.ts"}' }]),
      finishChunk('tool_calls'),
      usageChunk(5, 6),
      '[DONE]',
    ]);
    assert.deepEqual(events, [
      { type: 'tool_calls', calls: [{ id: 'call_1', name: 'read_file', arguments: '{"path": "src/a.ts"}' }] },
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 6, cachedTokens: 0 } },
      { type: 'done', finishReason: 'tool_calls' },
    ]);
  });

  it('keeps interleaved parallel calls apart, in index order, as ONE event', () => {
    const events = feed([
      toolChunk([{ index: 1, id: 'call_B', name: 'search', arguments: '{"q":' }]),
      toolChunk([{ index: 0, id: 'call_A', name: 'read_file', arguments: '{"path":' }]),
      toolChunk([{ index: 1, arguments: '"foo"}' }]),
      toolChunk([{ index: 0, arguments: '"x.ts"}' }]),
      finishChunk('tool_calls'),
      '[DONE]',
    ]);
    const toolEvents = events.filter((e) => e.type === 'tool_calls');
    assert.equal(toolEvents.length, 1);
    assert.deepEqual(toolEvents[0], {
      type: 'tool_calls',
      calls: [
        { id: 'call_A', name: 'read_file', arguments: '{"path":"x.ts"}' },
        { id: 'call_B', name: 'search', arguments: '{"q":"foo"}' },
      ],
    });
    for (const call of (toolEvents[0] as { calls: { arguments: string }[] }).calls) JSON.parse(call.arguments);
  });

  it('emits tool calls at stream end when the server never sends finish_reason', () => {
    const events = feed([toolChunk([{ index: 0, id: 'c', name: 'f', arguments: '{}' }]), '[DONE]']);
    assert.deepEqual(events, [
      { type: 'tool_calls', calls: [{ id: 'c', name: 'f', arguments: '{}' }] },
      { type: 'done', finishReason: null },
    ]);
  });

  it('text and tool calls in one answer keep their order', () => {
    const events = feed([textChunk('Let me look.'), toolChunk([{ index: 0, id: 'c', name: 'f', arguments: '{}' }]), finishChunk('tool_calls'), '[DONE]']);
    assert.deepEqual(
      events.map((e) => e.type),
      ['text', 'tool_calls', 'done'],
    );
  });

  it('a tool call without a function name is a protocol error', () => {
    assert.throws(
      () => feed([toolChunk([{ index: 0, id: 'c', arguments: '{}' }]), finishChunk('tool_calls')]),
      (e: unknown) => e instanceof GatewayError && e.kind === 'protocol',
    );
  });

  it('unknown fields pass; wrong types fail as protocol errors', () => {
    assert.deepEqual(feed([{ ...textChunk('ok'), system_fingerprint: 'x', extra: { a: 1 } }, finishChunk(), '[DONE]'])[0], { type: 'text', text: 'ok' });
    for (const bad of [
      { choices: 'nope' },
      { choices: [{ delta: { content: 5 } }] },
      { choices: [{ delta: { tool_calls: [{ index: 'zero' }] } }] },
      { usage: { prompt_tokens: 'many' } },
    ]) {
      assert.throws(
        () => feed([bad]),
        (e: unknown) => e instanceof GatewayError && e.kind === 'protocol' && /wrong shape/.test(e.message),
        JSON.stringify(bad),
      );
    }
  });

  it('bad JSON in a chunk is a protocol error', () => {
    assert.throws(
      () => feed(['{"choices": [']),
      (e: unknown) => e instanceof GatewayError && e.kind === 'protocol' && /not JSON/.test(e.message),
    );
  });
});

describe('core/chatStream: through streamChat', () => {
  it('a malformed chunk mid-stream ends the stream with a protocol error after the text so far', async () => {
    const { fetch } = chunkedFetch([sseEvent(textChunk('good ')), 'data: {"choices":[{"delta":{"content":\n\n']);
    const { events, error } = await collectUntilError(client('http://127.0.0.1:9/v1', { fetch }).streamChat({ model: 'm', messages: [] }));
    assert.deepEqual(events, [{ type: 'text', text: 'good ' }]);
    assert.ok(error instanceof GatewayError);
    assert.equal(error.kind, 'protocol');
  });

  it('a malformed first chunk is a protocol error and is not retried', async () => {
    const { fetch, calls } = chunkedFetch(['data: [1,2\n\n']);
    await expectGatewayError(collect(client('http://127.0.0.1:9/v1', { fetch }).streamChat({ model: 'm', messages: [] })), 'protocol');
    assert.equal(calls.length, 1);
  });

  it('an {error} object in the stream is a GatewayError mapped by its code (insufficient balance -> balance)', async () => {
    const { events } = stream([{ error: { message: 'Insufficient balance: top up to continue', type: 'billing_error', code: 'insufficient_balance' } }]);
    const error = await expectGatewayError(collect(events), 'balance');
    assert.match(error.message, /Insufficient balance: top up to continue/);
    assert.equal(error.code, 'insufficient_balance');
  });

  it('an in-stream error after text keeps the text and is not retried', async () => {
    const { events, calls } = stream([textChunk('Hello'), { error: { message: 'upstream overloaded', type: 'server_error' } }]);
    const result = await collectUntilError(events);
    assert.deepEqual(result.events, [{ type: 'text', text: 'Hello' }]);
    assert.equal((result.error as GatewayError).kind, 'server');
    assert.equal(calls.length, 1);
  });

  it('in-stream error kinds follow code/type: rate limit, auth, unsupported', async () => {
    const cases: [object, string][] = [
      [{ error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }, 'rate_limit'],
      [{ error: { message: 'Invalid API key', type: 'authentication_error' } }, 'auth'],
      [{ error: { message: 'channel economical is not supported for this model', type: 'invalid_request_error' } }, 'unsupported'],
      [{ error: 'something broke' }, 'server'],
    ];
    for (const [payload, kind] of cases) {
      const { fetch } = chunkedFetch([sseStream([payload])]);
      await expectGatewayError(collect(client('http://127.0.0.1:9/v1', { fetch, maxRetries: 0 }).streamChat({ model: 'm', messages: [] })), kind as never);
    }
  });

  it('an `event: error` SSE event is an error too', async () => {
    const { fetch } = chunkedFetch(['event: error\ndata: {"message":"quota exceeded for this key","code":"insufficient_quota"}\n\n']);
    await expectGatewayError(collect(client('http://127.0.0.1:9/v1', { fetch }).streamChat({ model: 'm', messages: [] })), 'balance');
  });

  it('a JSON answer to a streaming request is turned into the same events', async () => {
    const body = JSON.stringify({
      choices: [{ message: { role: 'assistant', content: 'whole answer' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 2 },
    });
    const { fetch } = chunkedFetch([body], { headers: { 'content-type': 'application/json' } });
    assert.deepEqual(await collect(client('http://127.0.0.1:9/v1', { fetch }).streamChat({ model: 'm', messages: [] })), [
      { type: 'text', text: 'whole answer' },
      { type: 'usage', usage: { promptTokens: 3, completionTokens: 2, cachedTokens: 0 } },
      { type: 'done', finishReason: 'stop' },
    ]);
  });

  it('an HTML page with status 200 is a protocol error that does not show the HTML', async () => {
    const { fetch } = chunkedFetch(['<!DOCTYPE html><html><head><title>Sign in to Wi-Fi</title></head><body><script>x()</script></body></html>'], {
      headers: { 'content-type': 'text/html' },
    });
    const error = await expectGatewayError(collect(client('http://127.0.0.1:9/v1', { fetch }).streamChat({ model: 'm', messages: [] })), 'protocol');
    assert.match(error.message, /HTML page .*Sign in to Wi-Fi/);
    assert.doesNotMatch(error.message, /<|script/);
  });

  it('a body with no content type is sniffed (SSE here)', async () => {
    const { fetch } = chunkedFetch([sseStream([textChunk('sniffed'), finishChunk()])], { headers: {} });
    const events = await collect(client('http://127.0.0.1:9/v1', { fetch }).streamChat({ model: 'm', messages: [] }));
    assert.deepEqual(events[0], { type: 'text', text: 'sniffed' });
  });
});

// The hot-path shape check (isCommonChunk) against the zod schema it stands in for: on a corpus
// of streams recorded from the simulator, hand-made odd chunks and seeded random mutations, in
// random chunkings, the fast path and the zod-only path give the same events and the same
// errors. The fast check may decline a chunk zod accepts (zod then decides); it must never
// accept one zod rejects.
describe('core: fast chunk check vs zod (same events, same errors)', function () {
  function randomChunks(bytes: Uint8Array, rng: Rng): Uint8Array[] {
    const out: Uint8Array[] = [];
    const max = [1, 3, 7, 64, 1024, 16384][Math.floor(rng() * 6)]!;
    for (let at = 0; at < bytes.length;) {
      const size = 1 + Math.floor(rng() * max);
      out.push(bytes.subarray(at, at + size));
      at += size;
    }
    return out;
  }

  const enc = new TextEncoder();
  const sse = (payloads: unknown[], eol = '\n') =>
    enc.encode(payloads.map((p) => `data: ${typeof p === 'string' ? p : JSON.stringify(p)}${eol}${eol}`).join(''));

  async function recordFromSimulator(): Promise<Uint8Array[]> {
    const gw = await startGateway();
    const tools = ['read_file', 'search'].map((name) => ({
      type: 'function',
      function: { name, description: name, parameters: { type: 'object', properties: {} } },
    }));
    const bodies = [
      { model: 'flagship-text', messages: [{ role: 'user', content: '[[words:60]]' }] },
      { model: 'flagship-text', messages: [{ role: 'user', content: '[[long:2]]' }], provider: { channel: 'economical' } },
      { model: 'flagship-text', messages: [{ role: 'user', content: 'Grüße 世界 😀 [[echo]]' }] },
      { model: 'flagship-text', tools, messages: [{ role: 'user', content: '[[call:read_file {"path":"a.ts"}]] [[call:search {"query":"x]]y"}]]' }] },
    ];
    const out: Uint8Array[] = [];
    try {
      for (const body of bodies) {
        const res = await fetch(`${gw.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
        });
        assert.equal(res.status, 200, await res.clone().text());
        out.push(new Uint8Array(await res.arrayBuffer()));
      }
    } finally {
      await gw.close();
    }
    return out;
  }

  /** Odd but valid shapes (zod accepts them; the fast check may or may not). */
  const oddValid: unknown[] = [
    { choices: null, usage: null },
    { choices: [{ delta: null, finish_reason: null, index: null }] },
    {
      choices: [
        { index: 1, delta: { content: 'second choice' } },
        { index: 0, delta: { content: 'first' } },
      ],
    },
    { choices: [{ index: 0, delta: { content: 'x', extra: { deep: [1, 2] } }, logprobs: null }], system_fingerprint: 'fp' },
    { choices: [{ index: 0, delta: { tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{"a":' } }] } }] },
    { choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 2 } } },
    { choices: [], usage: { prompt_tokens: 1.5, completion_tokens: 0 } },
  ];
  /** Bad shapes: both paths must give zod's message. */
  const bad: unknown[] = [
    { choices: {} },
    { choices: [{ delta: { content: 42 } }] },
    { choices: [{ index: -1, delta: { content: 'x' } }] },
    { choices: [{ index: 0.5 }] },
    { choices: [{ delta: { tool_calls: [{ index: 'a' }] } }] },
    { choices: [{ delta: { tool_calls: {} } }] },
    { choices: [{ delta: { tool_calls: [{ function: { name: 3 } }] } }] },
    { choices: [], usage: { prompt_tokens: -3 } },
    { choices: [], usage: { prompt_tokens_details: { cached_tokens: 'many' } } },
    { choices: [{ finish_reason: 7 }] },
    { choices: ['x'] },
    [1, 2],
    'a string',
    42,
    '{not json',
  ];

  const randomValues: unknown[] = [null, undefined, 0, -1, 1.5, 2 ** 60, '', 'text', true, [], [1], {}, { a: 1 }];

  function mutate(value: unknown, rng: Rng): unknown {
    if (Array.isArray(value)) {
      if (value.length === 0 || rng() < 0.2) return randomValues[Math.floor(rng() * randomValues.length)];
      const copy = [...value];
      const i = Math.floor(rng() * copy.length);
      copy[i] = mutate(copy[i], rng);
      return copy;
    }
    if (value && typeof value === 'object') {
      const keys = Object.keys(value);
      if (keys.length === 0 || rng() < 0.2) return randomValues[Math.floor(rng() * randomValues.length)];
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const k = keys[Math.floor(rng() * keys.length)]!;
      copy[k] = mutate(copy[k], rng);
      return copy;
    }
    return randomValues[Math.floor(rng() * randomValues.length)];
  }

  const base: unknown[] = [
    { id: 'c', choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
    { id: 'c', choices: [{ index: 0, delta: { content: 'hello' }, finish_reason: null }] },
    {
      id: 'c',
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"p' } }] } }],
    },
    { id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'ath":1}' } }] } }] },
    { id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    { id: 'c', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 } } },
  ];

  this.timeout(60_000);

  it('recorded simulator streams in random chunkings', async () => {
    const recorded = await recordFromSimulator();
    const rng = seededRng(9);
    let compared = 0;
    for (const bytes of recorded) {
      const reference = await decode([bytes], false);
      assert.equal(reference.error, undefined);
      assert.ok(reference.events.length > 2);
      for (let round = 0; round < 12; round++) {
        const chunks = randomChunks(bytes, rng);
        assert.deepEqual(await decode(chunks, true), reference);
        assert.deepEqual(await decode(chunks, false), reference);
        compared++;
      }
    }
    assert.equal(compared, recorded.length * 12);
    // the corpus exercises tool calls and usage, not only text
    const all = (await Promise.all(recorded.map((b) => decode([b], true)))).flatMap((o) => o.events);
    assert.ok(all.some((e) => e.type === 'tool_calls' && e.calls.length === 2));
    assert.ok(all.some((e) => e.type === 'usage'));
  });

  it('odd valid shapes and bad shapes, one by one and inside a stream', async () => {
    for (const chunk of [...oddValid, ...bad]) {
      const stream = sse([base[0], chunk, base[1], { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }, '[DONE]'], '\r\n');
      const reference = await decode([stream], false);
      assert.deepEqual(await decode([stream], true), reference, JSON.stringify(chunk));
      if (bad.includes(chunk)) assert.equal(reference.error?.kind, 'protocol', JSON.stringify(chunk));
      else assert.equal(reference.error, undefined, JSON.stringify(chunk));
    }
  });

  it('2,000 seeded mutations: the fast check never accepts what zod rejects, and events and errors match', async () => {
    const rng = seededRng(20261123);
    let accepted = 0;
    let declined = 0;
    for (let n = 0; n < 2000; n++) {
      const chunks = base.map((c) => (rng() < 0.3 ? mutate(c, rng) : c));
      for (const c of chunks) {
        if (isCommonChunk(c)) {
          accepted++;
          assert.ok(wire().chatChunkSchema.safeParse(c).success, `fast accepted what zod rejects: ${JSON.stringify(c)}`);
        } else declined++;
      }
      if (n % 10 === 0) {
        const stream = sse([...chunks.map((c) => (c === undefined ? 'null' : c)), '[DONE]']);
        const split = randomChunks(stream, rng);
        assert.deepEqual(await decode(split, true), await decode(split, false), JSON.stringify(chunks));
      }
    }
    assert.ok(accepted > 1000 && declined > 100, `accepted ${accepted}, declined ${declined}`);
  });
});
