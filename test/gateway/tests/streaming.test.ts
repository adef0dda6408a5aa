import * as assert from 'node:assert/strict';
import { startGateway } from '../index';
import { chat, contentChunks, errorOf, readStream, settlesWithin, useGateway, user } from './helpers';

describe('gateway simulator: chat responses', function () {
  // Generous: the machine may be busy; no test asserts on timing.
  this.timeout(30_000);
  const ctx = useGateway();

  it('streams when `stream` is absent (the interface: streaming is on by default)', async () => {
    const res = await chat(ctx.gw, { messages: [user('What is a prefix cache?')] });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const s = await readStream(res);
    assert.ok(s.done);
    assert.ok(s.text.length > 100);
  });

  it('streams the OpenAI chunk sequence: role chunk, content, finish, usage with empty choices, [DONE]', async () => {
    const res = await chat(ctx.gw, { stream: true, stream_options: { include_usage: true }, messages: [user('Explain streaming')] });
    const s = await readStream(res);
    const data = s.events.filter((e) => e.data !== undefined);
    assert.equal(data[data.length - 1]!.data, '[DONE]');

    const first = s.chunks[0];
    assert.equal(first.object, 'chat.completion.chunk');
    assert.deepEqual(first.choices[0].delta, { role: 'assistant' });
    assert.ok(s.chunks.every((c) => c.id === first.id && c.model === 'flagship-text'));

    const usageChunk = s.chunks[s.chunks.length - 1];
    assert.deepEqual(usageChunk.choices, []);
    assert.equal(usageChunk.usage.total_tokens, usageChunk.usage.prompt_tokens + usageChunk.usage.completion_tokens);
    assert.equal(usageChunk.usage.prompt_tokens_details.cached_tokens, 0);

    const finish = s.chunks[s.chunks.length - 2];
    assert.equal(finish.choices[0].finish_reason, 'stop');
    assert.deepEqual(finish.choices[0].delta, {});

    // Chunks without delta.content and keep-alive comments appear, as on real services.
    assert.ok(s.chunks.some((c, i) => i > 0 && c.choices[0] && c.choices[0].delta.content === undefined && c.choices[0].finish_reason === null));
    assert.ok(s.events.some((e) => e.comment === 'keep-alive'));
    // A few words per chunk.
    const pieces = contentChunks(s);
    assert.ok(pieces.length > 10);
    assert.ok(pieces.every((p) => p.trim().split(/\s+/).length <= 4));
  });

  it('holdStreams: every stream pauses after its first content chunk until released, then ends whole', async () => {
    const release = ctx.gw.holdStreams();
    const responses = await Promise.all([0, 1, 2].map((i) => chat(ctx.gw, { stream: true, messages: [user(`held ${i} [[words:30]]`)] })));
    const reads = responses.map((r) => readStream(r));
    // nothing ends while held: each has sent its role chunk and one content chunk only
    assert.equal(await settlesWithin(Promise.race(reads), 300), 'timeout');
    release();
    for (const s of await Promise.all(reads)) {
      assert.ok(s.done);
      assert.equal(s.text.split(/\s+/).filter(Boolean).length, 30);
    }
    // released: the next stream is not held
    assert.ok((await readStream(await chat(ctx.gw, { stream: true, messages: [user('after')] }))).done);
  });

  it('sends no usage chunk without stream_options.include_usage', async () => {
    const s = await readStream(await chat(ctx.gw, { stream: true, messages: [user('Explain streaming')] }));
    assert.ok(s.done);
    assert.ok(s.chunks.every((c) => c.usage === undefined && c.choices.length === 1));
  });

  it('answers stream:false with one chat.completion object', async () => {
    const res = await chat(ctx.gw, { stream: false, messages: [user('Explain streaming')] });
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as any;
    assert.equal(body.object, 'chat.completion');
    assert.match(body.id, /^chatcmpl-/);
    assert.equal(typeof body.created, 'number');
    assert.equal(body.model, 'flagship-text');
    assert.equal(body.choices[0].index, 0);
    assert.equal(body.choices[0].message.role, 'assistant');
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.ok(body.usage.prompt_tokens > 0 && body.usage.completion_tokens > 0);
    // Same answer as the streamed form.
    const s = await readStream(await chat(ctx.gw, { messages: [user('Explain streaming')] }));
    assert.equal(body.choices[0].message.content, s.text);
  });

  it('gives the same markdown for the same question, with heading, code, table and list', async () => {
    const q = { stream: false, messages: [user('How do I sort a list?')] };
    const a = ((await (await chat(ctx.gw, q)).json()) as any).choices[0].message.content as string;
    const b = ((await (await chat(ctx.gw, q)).json()) as any).choices[0].message.content as string;
    assert.equal(a, b);
    assert.match(a, /^## /);
    assert.match(a, /\n```[a-z]+\n[\s\S]+?\n```/);
    assert.match(a, /\n\| Aspect \| Detail \|\n\| --- \| --- \|/);
    assert.match(a, /\n- /);
    const other = ((await (await chat(ctx.gw, { stream: false, messages: [user('How do I parse JSON?')] })).json()) as any).choices[0].message.content;
    assert.notEqual(a, other);
  });

  it('uses LF framing on direct and stable, CRLF on economical', async () => {
    for (const [channel, crlf] of [
      ['direct', false],
      ['stable', false],
      ['economical', true],
    ] as const) {
      const s = await readStream(await chat(ctx.gw, { provider: { channel }, messages: [user('framing')] }));
      assert.equal(s.raw.includes('\r\n'), crlf, channel);
      assert.ok(s.done);
      assert.equal(s.raw.replace(/\r\n/g, '\n').split('\n\n').filter(Boolean).length, s.events.length);
    }
  });

  it('truncates at max_tokens with finish_reason length', async () => {
    const body = (await (await chat(ctx.gw, { stream: false, max_tokens: 5, messages: [user('[[words:100]]')] })).json()) as any;
    assert.equal(body.choices[0].finish_reason, 'length');
    assert.equal(body.choices[0].message.content.length, 20);
    assert.equal(body.usage.completion_tokens, 5);
  });

  it('accepts stream_options by default, and rejects it like some proxies when asked to', async () => {
    const strict = await startGateway({ rejectStreamOptions: true });
    try {
      const res = await chat(strict, { stream: true, stream_options: { include_usage: true }, messages: [user('hi')] });
      assert.equal(res.status, 400);
      const error = await errorOf(res);
      assert.equal(error.message, 'Unrecognized request argument supplied: stream_options');
      assert.equal(error.param, 'stream_options');
      assert.equal(error.type, 'invalid_request_error');
      const retry = await readStream(await chat(strict, { stream: true, messages: [user('hi')] }));
      assert.ok(retry.done);
    } finally {
      await strict.close();
    }
  });

  it('stops writing when the client goes away', async () => {
    const controller = new AbortController();
    const res = await chat(ctx.gw, { messages: [user('[[long:2000]]')] }, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await assert.rejects(reader.read());
    // The simulator is still healthy afterwards.
    assert.ok((await readStream(await chat(ctx.gw, { messages: [user('still there?')] }))).done);
  });
});
