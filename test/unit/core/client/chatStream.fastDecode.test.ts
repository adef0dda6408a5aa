// The hot-path shape check (isCommonChunk) against the zod schema it stands in for: on a corpus
// of streams recorded from the simulator, hand-made odd chunks and seeded random mutations, in
// random chunkings, the fast path and the zod-only path give the same events and the same
// errors. The fast check may decline a chunk zod accepts (zod then decides); it must never
// accept one zod rejects.
import * as assert from 'node:assert/strict';
import { decodeStream as decode } from './clientHarness';
import { startGateway } from '../../../gateway';
import { seededRng, type Rng } from '../../../gateway/rng';
import { isCommonChunk } from '../../../../src/core/client/chatStream';
import { wire } from '../../../../src/core/client/wire';


function randomChunks(bytes: Uint8Array, rng: Rng): Uint8Array[] {
  const out: Uint8Array[] = [];
  const max = [1, 3, 7, 64, 1024, 16384][Math.floor(rng() * 6)]!;
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(rng() * max);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

const enc = new TextEncoder();
const sse = (payloads: unknown[], eol = '\n') => enc.encode(payloads.map((p) => `data: ${typeof p === 'string' ? p : JSON.stringify(p)}${eol}${eol}`).join(''));

async function recordFromSimulator(): Promise<Uint8Array[]> {
  const gw = await startGateway();
  const tools = ['read_file', 'search'].map((name) => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } }));
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
  { choices: [{ index: 1, delta: { content: 'second choice' } }, { index: 0, delta: { content: 'first' } }] },
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
  { id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"p' } }] } }] },
  { id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'ath":1}' } }] } }] },
  { id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  { id: 'c', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 } } },
];

describe('core: fast chunk check vs zod (same events, same errors)', function () {
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
