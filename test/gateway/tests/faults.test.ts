import * as assert from 'node:assert/strict';
import { startGateway } from '../index';
import { chat, contentChunks, errorOf, images, readStream, settlesWithin, summarize, useGateway, user } from './helpers';

const words = (n: number) => [user(`[[words:${n}]]`)];

describe('gateway simulator: faults', function () {
  // Generous: the machine may be busy; no test asserts on timing.
  this.timeout(30_000);
  const ctx = useGateway();
  afterEach(() => ctx.gw.clearFaults());

  it('drop: cuts the connection after N content chunks', async () => {
    ctx.gw.injectFault({ kind: 'drop', afterChunks: 3 });
    const res = await chat(ctx.gw, { messages: words(40) });
    assert.equal(res.status, 200);
    const s = await readStream(res);
    assert.ok(s.error, 'the body ends with an error, not a clean end');
    assert.equal(contentChunks(s).length, 3);
    assert.equal(s.done, false);
  });

  it('drop on stream:false truncates the JSON body', async () => {
    ctx.gw.injectFault({ kind: 'drop', afterChunks: 0 });
    const res = await chat(ctx.gw, { stream: false, messages: words(40) });
    assert.equal(res.status, 200);
    await assert.rejects(res.text());
  });

  it('stall: sends nothing until the client gives up, and close() still ends it', async () => {
    const gw = await startGateway();
    try {
      gw.injectFault({ kind: 'stall' });
      const controller = new AbortController();
      const pending = chat(gw, { messages: words(5) }, { signal: controller.signal });
      assert.equal(await settlesWithin(pending, 300), 'timeout');
      assert.equal(gw.requests.length, 1, 'the request did arrive');
      controller.abort();
      await assert.rejects(pending);
      // A second stalled request is ended by close().
      gw.injectFault({ kind: 'stall' });
      const second = chat(gw, { messages: words(5) });
      await new Promise((r) => setTimeout(r, 50));
      await gw.close();
      await assert.rejects(second);
    } finally {
      await gw.close();
    }
  });

  it('stall with ms: a late but complete answer', async () => {
    ctx.gw.injectFault({ kind: 'stall', ms: 30 });
    const s = await readStream(await chat(ctx.gw, { messages: words(5) }));
    assert.ok(s.done);
    assert.equal(s.text.split(' ').length, 5);
  });

  it('stallAfter: N chunks, then silence', async () => {
    ctx.gw.injectFault({ kind: 'stallAfter', afterChunks: 2 });
    const controller = new AbortController();
    const res = await chat(ctx.gw, { messages: words(40) }, { signal: controller.signal });
    const reader = res.body!.getReader();
    let raw = '';
    const decoder = new TextDecoder();
    while (contentChunks(summarize(raw)).length < 2) {
      const { value, done } = await reader.read();
      assert.ok(!done);
      raw += decoder.decode(value, { stream: true });
    }
    assert.equal(await settlesWithin(reader.read(), 300), 'timeout');
    assert.equal(contentChunks(summarize(raw)).length, 2);
    controller.abort();
  });

  it('stallAfter with ms resumes and completes', async () => {
    ctx.gw.injectFault({ kind: 'stallAfter', afterChunks: 1, ms: 20 });
    const s = await readStream(await chat(ctx.gw, { messages: words(12) }));
    assert.ok(s.done);
    assert.equal(s.text.split(' ').length, 12);
  });

  it('html502: a CDN-style HTML page', async () => {
    ctx.gw.injectFault({ kind: 'html502' });
    const res = await chat(ctx.gw, { messages: words(5) });
    assert.equal(res.status, 502);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await res.text(), /^<!DOCTYPE html>[\s\S]*<script>/);
  });

  it('html502 comes from "the proxy": before authentication', async () => {
    ctx.gw.injectFault({ kind: 'html502' });
    const res = await chat(ctx.gw, { messages: words(5) }, { key: 'sk-wrong' });
    assert.equal(res.status, 502);
  });

  it('empty: the status with an empty body', async () => {
    ctx.gw.injectFault({ kind: 'empty', status: 503 });
    const res = await chat(ctx.gw, { messages: words(5) });
    assert.equal(res.status, 503);
    assert.equal(await res.text(), '');
  });

  it('malformed: a `data: {not json` event after N chunks, then the stream goes on', async () => {
    ctx.gw.injectFault({ kind: 'malformed', afterChunks: 2 });
    const s = await readStream(await chat(ctx.gw, { messages: words(20) }));
    const data = s.events.filter((e) => e.data !== undefined).map((e) => e.data!);
    const bad = data.indexOf('{not json');
    assert.ok(bad > 0);
    const before = data.slice(0, bad).filter((d) => d.includes('"content"')).length;
    assert.equal(before, 2);
    assert.ok(s.done);
    assert.equal(s.text.split(' ').length, 20);
  });

  it('malformed on stream:false: a 200 whose body is not JSON', async () => {
    ctx.gw.injectFault({ kind: 'malformed', afterChunks: 0 });
    const res = await chat(ctx.gw, { stream: false, messages: words(5) });
    assert.equal(res.status, 200);
    await assert.rejects(res.json());
  });

  it('streamError: an error event mid-stream, then the end without [DONE]', async () => {
    ctx.gw.injectFault({ kind: 'streamError', afterChunks: 1, message: 'upstream hiccup' });
    const s = await readStream(await chat(ctx.gw, { messages: words(20) }));
    assert.equal(s.error, undefined);
    assert.equal(contentChunks(s).length, 1);
    const last = s.chunks[s.chunks.length - 1];
    assert.equal(last.error.message, 'upstream hiccup');
    assert.equal(last.error.type, 'server_error');
    assert.equal(s.done, false);
  });

  it('drip: the stream arrives in tiny pieces and still decodes exactly', async () => {
    ctx.gw.injectFault({ kind: 'drip', delayMs: 1 });
    const text = 'Grüße → 🚀 ok';
    const res = await chat(ctx.gw, { messages: [user(`[[echo]]${text}`)] });
    const reader = res.body!.getReader();
    const pieces: Uint8Array[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pieces.push(value);
    }
    assert.ok(pieces.length > 20, `${pieces.length} reads`); // ~500 writes; reads may coalesce a few when the machine is busy
    assert.ok(pieces.some((p) => p.length < 6));
    const s = summarize(new TextDecoder().decode(Buffer.concat(pieces)));
    assert.ok(s.done);
    assert.equal(s.text, text);
  });

  it('rateLimit: 429 with Retry-After and {error}', async () => {
    for (const retryAfter of ['2', 'Wed, 21 Oct 2015 07:28:00 GMT']) {
      ctx.gw.injectFault({ kind: 'rateLimit', retryAfter });
      const res = await chat(ctx.gw, { messages: words(5) });
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), retryAfter);
      const error = await errorOf(res);
      assert.equal(error.code, 'rate_limit_exceeded');
    }
  });

  it('status: any status, body and content type', async () => {
    ctx.gw.injectFault({ kind: 'status', status: 500 });
    const res = await chat(ctx.gw, { messages: words(5) });
    assert.equal(res.status, 500);
    assert.equal(typeof (await errorOf(res)).message, 'string');
    ctx.gw.injectFault({ kind: 'status', status: 418, body: 'short and stout', contentType: 'text/plain' });
    const teapot = await chat(ctx.gw, { messages: words(5) });
    assert.equal(teapot.status, 418);
    assert.equal(teapot.headers.get('content-type'), 'text/plain');
    assert.equal(await teapot.text(), 'short and stout');
  });

  it('applies a fault to the next `times` generation requests, not to GET /models', async () => {
    ctx.gw.injectFault({ kind: 'status', status: 503 }, 2);
    const models = await fetch(`${ctx.gw.baseUrl}/models`, { headers: { authorization: 'Bearer sk-test' } });
    assert.equal(models.status, 200);
    assert.equal((await chat(ctx.gw, { messages: words(1) })).status, 503);
    assert.equal((await images(ctx.gw, { response_format: 'b64_json' })).status, 503);
    assert.equal((await chat(ctx.gw, { messages: words(1) })).status, 200);
  });

  it('queues faults in order and clearFaults() drops them', async () => {
    ctx.gw.injectFault({ kind: 'status', status: 500 });
    ctx.gw.injectFault({ kind: 'rateLimit', retryAfter: '1' });
    assert.equal((await chat(ctx.gw, { messages: words(1) })).status, 500);
    assert.equal((await chat(ctx.gw, { messages: words(1) })).status, 429);
    ctx.gw.injectFault({ kind: 'status', status: 500 }, 5);
    ctx.gw.clearFaults();
    assert.equal((await chat(ctx.gw, { stream: false, messages: words(1) })).status, 200);
  });

  it('rejects an invalid fault', () => {
    assert.throws(() => ctx.gw.injectFault({ kind: 'drop' } as never));
  });

  it('streamError on an image request: a 200 whose body is an error object', async () => {
    ctx.gw.injectFault({ kind: 'streamError', afterChunks: 0 });
    const res = await images(ctx.gw, { response_format: 'b64_json' });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { error?: { message: string }; data?: unknown };
    assert.equal(body.data, undefined);
    assert.equal(typeof body.error?.message, 'string');
  });

  describe('fault markers in the last user message', () => {
    it('[[fault:drop:3]]', async () => {
      const s = await readStream(await chat(ctx.gw, { messages: [user('[[words:30]] [[fault:drop:3]]')] }));
      assert.ok(s.error);
      assert.equal(contentChunks(s).length, 3);
    });

    it('[[fault:rateLimit:2]] and [[fault:html502]]', async () => {
      const limited = await chat(ctx.gw, { messages: [user('hi [[fault:rateLimit:2]]')] });
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('retry-after'), '2');
      const html = await chat(ctx.gw, { messages: [user('hi [[fault:html502]]')] });
      assert.equal(html.status, 502);
    });

    it('[[fault:streamError:1]] and [[fault:malformed:2]]', async () => {
      const err = await readStream(await chat(ctx.gw, { messages: [user('[[words:30]] [[fault:streamError:1]]')] }));
      assert.ok(err.chunks.some((c) => c.error));
      const bad = await readStream(await chat(ctx.gw, { messages: [user('[[words:30]] [[fault:malformed:2]]')] }));
      assert.ok(bad.events.some((e) => e.data === '{not json'));
    });

    it('[[fault:stall]] and [[fault:stallAfter:2]]', async () => {
      const controller = new AbortController();
      const pending = chat(ctx.gw, { messages: [user('hi [[fault:stall]]')] }, { signal: controller.signal });
      assert.equal(await settlesWithin(pending, 200), 'timeout');
      controller.abort();
      await assert.rejects(pending);

      const c2 = new AbortController();
      const res = await chat(ctx.gw, { messages: [user('[[words:30]] [[fault:stallAfter:2]]')] }, { signal: c2.signal });
      assert.equal(res.status, 200);
      c2.abort();
    });

    it('[[fault:drip:1]]', async () => {
      const s = await readStream(await chat(ctx.gw, { messages: [user('[[words:3]] [[fault:drip:1]]')] }));
      assert.ok(s.done);
      assert.equal(s.text.split(' ').length, 3);
    });

    it('applies only while the user message is the last message (not to the tool-result turn)', async () => {
      const tools = [{ type: 'function', function: { name: 'f', parameters: {} } }];
      const first = await chat(ctx.gw, { stream: false, tools, messages: [user('[[call:f {}]] [[fault:rateLimit:1]]')] });
      assert.equal(first.status, 429);
      const messages = [
        user('[[call:f {}]] [[fault:rateLimit:1]]'),
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
      ];
      assert.equal((await chat(ctx.gw, { stream: false, tools, messages })).status, 200);
    });

    it('works in image prompts too, and the marker is not part of the picture prompt', async () => {
      assert.equal((await images(ctx.gw, { prompt: 'a cat [[fault:rateLimit:3]]' })).status, 429);
      const body = (await (await images(ctx.gw, { prompt: 'a cat [[fault:drip:0]]' })).json()) as { data: { revised_prompt: string }[] };
      assert.doesNotMatch(body.data[0]!.revised_prompt, /fault/);
    });
  });
});
