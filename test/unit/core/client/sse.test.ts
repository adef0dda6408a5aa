// SSE decoding: any chunking of the same bytes gives the same events.
import * as assert from 'node:assert/strict';
import { createSseDecoder } from '../../../../src/core/client/sse';
import type { ChatStreamEvent } from '../../../../src/core';
import {
  chunkedFetch,
  client,
  collect,
  collectUntilError,
  finishChunk,
  pieces,
  roleChunk,
  sseEvent,
  sseHead,
  sseStream,
  startServer,
  textChunk,
  textOf,
  usageChunk,
  writeInPieces,
} from './clientHarness';

const MULTIBYTE = 'Grüße, 世界! 😀 naïve café — ✓';

function decodeAll(chunks: Uint8Array[]): string[] {
  const decoder = createSseDecoder();
  const out: string[] = [];
  for (const c of chunks) out.push(...decoder.push(c).map((e) => e.data));
  out.push(...decoder.end().map((e) => e.data));
  return out;
}

function streamBytes(eol = '\n'): Uint8Array {
  return new TextEncoder().encode(
    `: keep-alive${eol}${eol}` +
      sseStream(
        [
          roleChunk(),
          textChunk('Grüße, '),
          textChunk('世界! 😀'),
          { id: 'x', choices: [{ index: 0, delta: {} }] },
          textChunk(' naïve café — ✓'),
          finishChunk('stop'),
          usageChunk(12, 7, 4),
        ],
        { eol },
      ),
  );
}

async function eventsFor(chunks: Uint8Array[]): Promise<ChatStreamEvent[]> {
  const { fetch } = chunkedFetch(chunks);
  return collect(client('http://127.0.0.1:9/v1', { fetch }).streamChat({ model: 'm', messages: [] }));
}

const expected: ChatStreamEvent[] = [
  { type: 'text', text: 'Grüße, ' },
  { type: 'text', text: '世界! 😀' },
  { type: 'text', text: ' naïve café — ✓' },
  { type: 'usage', usage: { promptTokens: 12, completionTokens: 7, cachedTokens: 4 } },
  { type: 'done', finishReason: 'stop' },
];

describe('core/sse: decoding bytes into events', () => {
  it('keeps a multi-byte character whole when a chunk boundary splits it (every split point)', () => {
    const bytes = new TextEncoder().encode(sseEvent({ t: MULTIBYTE }));
    for (let cut = 1; cut < bytes.length; cut++) {
      const data = decodeAll([bytes.subarray(0, cut), bytes.subarray(cut)]);
      assert.deepEqual(
        data.map((d) => JSON.parse(d).t),
        [MULTIBYTE],
        `cut at byte ${cut}`,
      );
    }
  });

  it('decodes byte-by-byte delivery, LF and CRLF alike', () => {
    for (const eol of ['\n', '\r\n']) {
      const data = decodeAll(pieces(streamBytes(eol), 1));
      assert.equal(data.length, 8, `eol ${JSON.stringify(eol)}`);
      assert.equal(data.at(-1), '[DONE]');
    }
  });

  it('reports comments to onComment and not as events', () => {
    const comments: string[] = [];
    const decoder = createSseDecoder((c) => comments.push(c));
    const events = decoder.push(new TextEncoder().encode(': keep-alive\n\n: ping\ndata: 1\n\n'));
    assert.deepEqual(comments, ['keep-alive', 'ping']);
    assert.deepEqual(
      events.map((e) => e.data),
      ['1'],
    );
  });

  it('returns several events from one chunk', () => {
    const decoder = createSseDecoder();
    const events = decoder.push(new TextEncoder().encode('data: a\n\ndata: b\n\ndata: c\n\n'));
    assert.deepEqual(
      events.map((e) => e.data),
      ['a', 'b', 'c'],
    );
  });

  it('drops a leading byte order mark however the chunks split it, and keeps bytes that only began like one', () => {
    const bytes = new TextEncoder().encode('\ufeffdata: one\n\ndata: two\n\n');
    for (let a = 0; a <= 4; a++) {
      for (let b = a; b <= 5; b++) {
        const chunks = [bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)];
        assert.deepEqual(decodeAll(chunks), ['one', 'two'], `split at ${a}, ${b}`);
      }
    }
    // 0xEF 0xBB and then not 0xBF: those bytes belong to the first line (here an unknown field, ignored)
    const notMark = new Uint8Array([0xef, 0xbb, ...new TextEncoder().encode('x\n\ndata: two\n\n')]);
    assert.deepEqual(decodeAll([notMark.subarray(0, 1), notMark.subarray(1, 2), notMark.subarray(2)]), ['two']);
    const dataAfter = new Uint8Array([0xef, ...new TextEncoder().encode('\ndata: two\n\n')]);
    assert.deepEqual(decodeAll([dataAfter.subarray(0, 1), dataAfter.subarray(1)]), ['two']);
    assert.deepEqual(decodeAll([new Uint8Array([0xef, 0xbb])]), [], 'a stream of only the start of a mark');
  });

  it('flushes a last event that the server did not end with a blank line', () => {
    const decoder = createSseDecoder();
    assert.deepEqual(
      decoder.push(new TextEncoder().encode('data: a\n\ndata: [DONE]')).map((e) => e.data),
      ['a'],
    );
    assert.deepEqual(
      decoder.end().map((e) => e.data),
      ['[DONE]'],
    );
  });
});

describe('core/sse: streamChat gives the same events for any chunking', () => {
  for (const eol of ['\n', '\r\n']) {
    it(`one chunk, byte-by-byte, 2/3/7-byte pieces (eol ${JSON.stringify(eol)})`, async function () {
      this.timeout(30_000);
      const bytes = streamBytes(eol);
      assert.deepEqual(await eventsFor([bytes]), expected);
      for (const size of [1, 2, 3, 7]) assert.deepEqual(await eventsFor(pieces(bytes, size)), expected, `pieces of ${size}`);
    });
  }

  it('every two-way split point of the stream', async function () {
    this.timeout(30_000); // ~700 full client runs: a budget for a loaded machine, not a timing check
    const bytes = streamBytes('\r\n');
    for (let cut = 1; cut < bytes.length; cut += 1) {
      assert.deepEqual(await eventsFor([bytes.subarray(0, cut), bytes.subarray(cut)]), expected, `cut at ${cut}`);
    }
  });

  it('over a real socket written one byte at a time with CRLF and keep-alive comments', async function () {
    this.timeout(30_000);
    const server = await startServer(async (_req, res) => {
      sseHead(res);
      await writeInPieces(res, streamBytes('\r\n'), 1);
      res.end();
    });
    assert.deepEqual(await collect(client(server.baseUrl).streamChat({ model: 'm', messages: [] })), expected);
  });

  it('yields text as it arrives, before the stream ends', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const server = await startServer(async (_req, res) => {
      sseHead(res);
      res.write(sseEvent(textChunk('first')));
      await gate;
      res.end(sseStream([finishChunk()]));
    });
    const stream = client(server.baseUrl).streamChat({ model: 'm', messages: [] })[Symbol.asyncIterator]();
    const first = await stream.next();
    assert.deepEqual(first.value, { type: 'text', text: 'first' });
    release();
    const rest: ChatStreamEvent[] = [];
    for (let r = await stream.next(); !r.done; r = await stream.next()) rest.push(r.value);
    assert.deepEqual(rest, [{ type: 'done', finishReason: 'stop' }]);
  });

  it('ignores anything after [DONE]', async () => {
    const events = await eventsFor([new TextEncoder().encode(sseStream([textChunk('a'), finishChunk()]) + 'data: {not json\n\n')]);
    assert.equal(textOf(events), 'a');
  });

  it('a stream whose server closes without [DONE] but after finish_reason is complete', async () => {
    const events = await eventsFor([new TextEncoder().encode(sseStream([textChunk('a'), finishChunk('length')], { done: false }))]);
    assert.deepEqual(events.at(-1), { type: 'done', finishReason: 'length' });
  });

  it('a stream cut after content (no finish_reason, no [DONE]) is a network error, text already yielded', async () => {
    const { fetch, calls } = chunkedFetch([sseEvent(textChunk('partial '))]);
    const { events, error } = await collectUntilError(client('http://127.0.0.1:9/v1', { fetch }).streamChat({ model: 'm', messages: [] }));
    assert.equal(textOf(events), 'partial ');
    assert.equal((error as { kind?: string }).kind, 'network');
    assert.equal((error as { afterContent?: boolean }).afterContent, true);
    assert.equal(calls.length, 1, 'not retried after content');
  });
});
