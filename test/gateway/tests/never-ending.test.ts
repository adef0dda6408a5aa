// The simulator's never-ending stream faults: keep-alive comments only, and one endless line.
import * as assert from 'node:assert/strict';
import { parseFaultMarker } from '../faults';
import { chat, parseSse, useGateway, user } from './helpers';

/** Reads from a response until `enough` says so, then aborts; returns what arrived. */
async function readUntil(res: Response, controller: AbortController, enough: (raw: string, bytes: number) => boolean): Promise<{ raw: string; bytes: number }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let raw = '';
  let bytes = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) assert.fail('the stream ended; it should go on until the client gives up');
    bytes += value.length;
    if (raw.length < 4096) raw += decoder.decode(value, { stream: true });
    if (enough(raw, bytes)) break;
  }
  controller.abort();
  await reader.cancel().catch(() => undefined);
  return { raw, bytes };
}

describe('gateway simulator: never-ending streams', function () {
  this.timeout(30_000);
  const ctx = useGateway();
  afterEach(() => ctx.gw.clearFaults());

  it('keepAlive: N chunks, then only SSE comments, and no end', async () => {
    ctx.gw.injectFault({ kind: 'keepAlive', afterChunks: 2, intervalMs: 5 });
    const controller = new AbortController();
    const res = await chat(ctx.gw, { messages: [user('[[words:40]]')] }, { signal: controller.signal });
    assert.equal(res.status, 200);
    const { raw } = await readUntil(res, controller, (r) => (r.match(/: keep-alive/g) ?? []).length >= 5);
    const events = parseSse(raw.slice(0, raw.lastIndexOf('\n\n') + 2));
    const data = events.filter((e) => e.data !== undefined);
    const contentEvents = data.filter((e) => e.data !== '[DONE]' && JSON.parse(e.data!).choices?.[0]?.delta?.content);
    assert.equal(contentEvents.length, 2, 'two content chunks, then nothing but comments');
    assert.ok(!raw.includes('[DONE]'));
    assert.ok(events.slice(-3).every((e) => e.comment === 'keep-alive'));
  });

  it('endlessLine: N chunks, then a data line that never gets its newline', async () => {
    ctx.gw.injectFault({ kind: 'endlessLine', afterChunks: 1, maxBytes: 4 * 1024 * 1024 });
    const controller = new AbortController();
    const res = await chat(ctx.gw, { messages: [user('[[words:40]]')] }, { signal: controller.signal });
    let tail = '';
    const { raw, bytes } = await readUntil(res, controller, (r, n) => {
      tail = r;
      return n > 1024 * 1024;
    });
    assert.ok(bytes > 1024 * 1024, 'over a megabyte arrived');
    const lastBreak = raw.lastIndexOf('\n');
    const openLine = raw.slice(lastBreak + 1);
    assert.ok(openLine.startsWith('data: {"choices"'), 'the last line is a data line');
    assert.ok(/^x+$/.test(openLine.slice(openLine.indexOf('"content":"') + 11)), 'filled with x, no newline');
    assert.ok(tail.length > 0);
  });

  it('endlessLine stops sending at maxBytes but keeps the response open', async () => {
    ctx.gw.injectFault({ kind: 'endlessLine', afterChunks: 0, maxBytes: 256 * 1024 });
    const controller = new AbortController();
    const res = await chat(ctx.gw, { messages: [user('[[words:5]]')] }, { signal: controller.signal });
    const reader = res.body!.getReader();
    let bytes = 0;
    // Read until nothing more comes for a while; the body must not end either.
    for (;;) {
      const next = await Promise.race([reader.read(), new Promise<'quiet'>((r) => setTimeout(() => r('quiet'), 500))]);
      if (next === 'quiet') break;
      assert.equal(next.done, false, 'the response stays open');
      bytes += next.value.length;
      assert.ok(bytes < 256 * 1024 + 4096, `${bytes} bytes: more than maxBytes`);
    }
    assert.ok(bytes >= 256 * 1024, `${bytes} bytes`);
    controller.abort();
    await reader.cancel().catch(() => undefined);
  });

  it('parses the markers', () => {
    assert.deepEqual(parseFaultMarker('x [[fault:keepAlive:2]]'), { kind: 'keepAlive', afterChunks: 2 });
    assert.deepEqual(parseFaultMarker('x [[fault:keepAlive:2:250]]'), { kind: 'keepAlive', afterChunks: 2, intervalMs: 250 });
    assert.deepEqual(parseFaultMarker('[[fault:endlessLine:3]]'), { kind: 'endlessLine', afterChunks: 3 });
    assert.throws(() => ctx.gw.injectFault({ kind: 'keepAlive', afterChunks: 1, intervalMs: 0 }));
  });
});
