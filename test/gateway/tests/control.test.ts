import * as assert from 'node:assert/strict';
import { chat, readStream, useGateway, user } from './helpers';

describe('gateway simulator: control endpoints', function () {
  // Generous: the machine may be busy; no test asserts on timing.
  this.timeout(30_000);
  const ctx = useGateway();
  const control = (path: string, body?: unknown) =>
    fetch(ctx.gw.baseUrl.replace(/\/v1$/, '') + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('POST /__sim/fault queues a fault, with times', async () => {
    assert.equal((await control('/__sim/fault', { kind: 'rateLimit', retryAfter: '4', times: 2 })).status, 200);
    assert.equal((await chat(ctx.gw, { messages: [user('a')] })).status, 429);
    assert.equal((await chat(ctx.gw, { messages: [user('a')] })).status, 429);
    assert.ok((await readStream(await chat(ctx.gw, { messages: [user('a')] }))).done);
  });

  it('POST /__sim/fault rejects an invalid fault with 400 {error}', async () => {
    const res = await control('/__sim/fault', { kind: 'drop' });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { message: string } };
    assert.match(body.error.message, /afterChunks/);
  });

  it('POST /__sim/balance sets and reads a balance', async () => {
    const set = await control('/__sim/balance', { key: 'sk-test', usd: 0 });
    assert.deepEqual(await set.json(), { balance: 0 });
    assert.equal((await chat(ctx.gw, { messages: [user('a')] })).status, 402);
    await control('/__sim/balance', { key: 'sk-test', usd: 3 });
    assert.equal(ctx.gw.balance('sk-test'), 3);
    assert.deepEqual(await (await control('/__sim/balance', { key: 'sk-test' })).json(), { balance: 3 });
    assert.equal((await control('/__sim/balance', { key: 'sk-unknown' })).status, 404);
  });

  it('GET /__sim/requests returns the recorded requests with credentials redacted', async () => {
    await chat(ctx.gw, { stream: false, messages: [user('recorded for the dump')] });
    const dump = (await (await control('/__sim/requests')).json()) as { path: string; headers: Record<string, string>; body: any }[];
    const last = dump[dump.length - 1]!;
    assert.equal(last.path, '/v1/chat/completions');
    assert.equal(last.headers.authorization, '<redacted>');
    assert.equal(last.body.messages[0].content, 'recorded for the dump');
    assert.ok(!JSON.stringify(dump).includes('sk-test'));
    assert.ok(
      dump.every((r) => !r.path.startsWith('/__sim/')),
      'control calls are not recorded',
    );
    // In-process, the headers stay as received.
    assert.equal(ctx.gw.requests[ctx.gw.requests.length - 1]!.headers.authorization, 'Bearer sk-test');
  });

  it('POST /__sim/reset restores balances and clears requests, faults and caches', async () => {
    const requests = ctx.gw.requests;
    await control('/__sim/balance', { key: 'sk-test', usd: 1 });
    await control('/__sim/fault', { kind: 'status', status: 500, times: 3 });
    assert.equal((await control('/__sim/reset', {})).status, 200);
    assert.equal(ctx.gw.balance('sk-test'), 100);
    assert.equal(ctx.gw.requests.length, 0);
    assert.equal(ctx.gw.requests, requests, 'the same array');
    assert.equal((await chat(ctx.gw, { stream: false, messages: [user('a')] })).status, 200);
  });

  it('GET /__sim/health tells where the servers are', async () => {
    assert.deepEqual(await (await control('/__sim/health')).json(), { ok: true, baseUrl: ctx.gw.baseUrl, imageHostUrl: ctx.gw.imageHostUrl });
  });

  it('answers 404 for unknown control endpoints', async () => {
    assert.equal((await control('/__sim/nope')).status, 404);
  });
});
