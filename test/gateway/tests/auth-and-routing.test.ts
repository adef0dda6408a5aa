import * as assert from 'node:assert/strict';
import { chat, errorOf, KEY, post, useGateway, user } from './helpers';

describe('gateway simulator: authentication and routing', function () {
  // Generous: the machine may be busy; no test asserts on timing.
  this.timeout(30_000);
  const ctx = useGateway();

  it('listens on 127.0.0.1 only, with the image host on another origin', () => {
    const api = new URL(ctx.gw.baseUrl);
    const img = new URL(ctx.gw.imageHostUrl);
    assert.equal(api.hostname, '127.0.0.1');
    assert.equal(img.hostname, '127.0.0.1');
    assert.equal(api.pathname, '/v1');
    assert.notEqual(api.origin, img.origin);
  });

  for (const [name, key] of [
    ['no Authorization header', null],
    ['an unknown key', 'sk-nope'],
  ] as const) {
    it(`answers 401 invalid_api_key for ${name}`, async () => {
      const res = await chat(ctx.gw, { messages: [user('hi')] }, { key });
      assert.equal(res.status, 401);
      assert.deepEqual(await errorOf(res), {
        message: 'Invalid API key provided.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      });
    });
  }

  it('answers 401 when the scheme is not Bearer, and never echoes the key', async () => {
    const res = await chat(ctx.gw, { messages: [user('hi')] }, { key: null, headers: { authorization: `Basic ${KEY}` } });
    assert.equal(res.status, 401);
    assert.ok(!(await res.text()).includes(KEY));
  });

  it('requires a key for GET /v1/models too', async () => {
    const res = await fetch(`${ctx.gw.baseUrl}/models`);
    assert.equal(res.status, 401);
  });

  it('lists the models', async () => {
    const res = await fetch(`${ctx.gw.baseUrl}/models`, { headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { object: string; data: { id: string; object: string; owned_by: string }[] };
    assert.equal(body.object, 'list');
    assert.deepEqual(
      body.data.map((m) => m.id),
      ['flagship-text', 'long-context-tools', 'reasoner', 'small-window', 'image-restricted', 'image-small', 'image-gateway-only'],
    );
    for (const m of body.data) assert.deepEqual(m, { id: m.id, object: 'model', owned_by: 'modelgate-sim' });
  });

  it('answers 404 with {error} for unknown paths and methods', async () => {
    for (const [method, path] of [
      ['GET', '/v1/chat/completions'],
      ['POST', '/v1/completions'],
      ['GET', '/'],
      ['POST', '/chat/completions'],
    ]) {
      const res = await fetch(ctx.gw.baseUrl.replace(/\/v1$/, '') + path, {
        method,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(typeof (await errorOf(res)).message, 'string');
    }
  });

  it('requires Content-Type application/json on POST', async () => {
    const res = await chat(ctx.gw, { messages: [user('hi')] }, { headers: { 'content-type': 'text/plain' } });
    assert.equal(res.status, 400);
    assert.equal((await errorOf(res)).code, 'invalid_content_type');
    const ok = await chat(ctx.gw, { stream: false, messages: [user('hi')] }, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    assert.equal(ok.status, 200);
  });

  it('answers 400 {error} to a body that is not JSON', async () => {
    const res = await post(ctx.gw, '/chat/completions', '{"model": "flagship-text", ');
    assert.equal(res.status, 400);
    const error = await errorOf(res);
    assert.equal(error.type, 'invalid_request_error');
    assert.equal(error.code, 'invalid_json');
  });

  it('records every request in order with headers as received', async () => {
    const before = ctx.gw.requests.length;
    await chat(ctx.gw, { stream: false, messages: [user('recorded')] });
    const rec = ctx.gw.requests[before]!;
    assert.equal(rec.server, 'api');
    assert.equal(rec.method, 'POST');
    assert.equal(rec.path, '/v1/chat/completions');
    assert.equal(rec.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual((rec.body as { messages: unknown }).messages, [user('recorded')]);
    assert.equal(typeof rec.at, 'number');
  });
});
