// Custom request headers: reserved names refused, headers on every gateway
// request (chat, models, images) and never on an image download, secret values redacted like the key.
import * as assert from 'node:assert/strict';
import { headerNameProblem, mergeHeaders, parseRequestHeaders } from '../../../../src/core/client/requestHeaders';
import { containsSecret } from '../../../../src/core/client/redact';
import { client, collect, expectGatewayError, KEY, sseHead, sseStream, startServer, textChunk } from './clientHarness';

const SECRET = 'cf-secret-9d8e7f6a5b4c3d2e1f';

describe('core/client: custom request headers', () => {
  for (const name of [
    'Authorization',
    'authorization',
    'Content-Type',
    'Content-Length',
    'Host',
    'Cookie',
    'Proxy-Authorization',
    'proxy-anything',
    'Sec-Fetch-Mode',
    'sec-ch-ua',
  ]) {
    it(`refuses the reserved name ${name}`, () => {
      assert.match(headerNameProblem(name)!, /reserved/);
    });
  }

  it('refuses names that are not header tokens, and values that cannot be sent, naming the header but never the value', () => {
    assert.match(headerNameProblem('X Bad')!, /not a valid header name/);
    assert.match(headerNameProblem('')!, /not a valid header name/);
    assert.equal(headerNameProblem('X-Portkey-Provider'), undefined);
    const { headers, problems } = parseRequestHeaders({
      'X-Route': 'eu',
      Authorization: 'Bearer x',
      'X-Num': 5,
      'X-Line': 'a\r\nInjected: 1',
      'CF-Access-Client-Id': ' abc ',
    });
    assert.deepEqual(headers, { 'X-Route': 'eu', 'CF-Access-Client-Id': 'abc' });
    assert.equal(problems.length, 3);
    assert.ok(problems.some((p) => p.includes('Authorization') && p.includes('reserved')));
    assert.ok(problems.some((p) => p.includes('X-Num')));
    assert.ok(problems.some((p) => p.includes('X-Line')) && !problems.some((p) => p.includes('Injected')));
    assert.deepEqual(parseRequestHeaders(undefined), { headers: {}, problems: [] });
    assert.equal(parseRequestHeaders(['x']).problems.length, 1);
  });

  it('a secret header replaces a setting of the same name (any case); its value is listed as a secret', () => {
    assert.deepEqual(mergeHeaders({ 'x-token': 'plain', 'X-Route': 'eu' }, { 'X-Token': SECRET, Cookie: 'no' }), {
      headers: { 'X-Route': 'eu', 'X-Token': SECRET },
      secrets: [SECRET],
    });
  });

  it('sends the headers on chat, model list and image requests, never to the image download host', async () => {
    const imageHost = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from('89504e470d0a1a0a', 'hex'));
    });
    const gateway = await startServer((req, res) => {
      if (req.url?.endsWith('/models')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"m"}]}');
      if (req.url?.endsWith('/images/generations'))
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ created: 1, data: [{ url: `${imageHost.origin}/img.png` }] }));
      sseHead(res);
      res.end(sseStream([textChunk('ok')]));
    });
    const c = client(gateway.baseUrl, { requestHeaders: () => ({ headers: { 'X-Route': 'eu', 'X-Token': SECRET }, secrets: [SECRET] }) });
    await collect(c.streamChat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    await c.completeChat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).catch(() => undefined);
    await c.listModels();
    const images = await c.generateImages({ model: 'img', prompt: 'p' });
    await c.imageBytes(images.data[0]!);
    assert.equal(gateway.requests.length, 4);
    for (const r of gateway.requests) {
      assert.equal(r.headers['x-route'], 'eu', r.url);
      assert.equal(r.headers['x-token'], SECRET, r.url);
      assert.equal(r.headers.authorization, `Bearer ${KEY}`, 'the client sets Authorization itself');
    }
    assert.equal(imageHost.requests.length, 1);
    assert.equal(imageHost.requests[0]!.headers['x-route'], undefined);
    assert.equal(imageHost.requests[0]!.headers['x-token'], undefined);
  });

  it('a secret header value echoed by the gateway is redacted from the error, like the key', async () => {
    const gateway = await startServer((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: `bad header x-token=${String(req.headers['x-token'])} (${encodeURIComponent(SECRET)})`, type: 'invalid_request_error' },
        }),
      );
    });
    const c = client(gateway.baseUrl, { requestHeaders: async () => ({ headers: { 'X-Token': SECRET }, secrets: [SECRET] }) });
    const error = await expectGatewayError(collect(c.streamChat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })), 'bad_request');
    for (const text of [error.message, error.serverMessage ?? '', error.stack ?? '']) assert.ok(!containsSecret(text, SECRET), text);
    assert.match(error.message, /\[redacted\]/);
  });
});
