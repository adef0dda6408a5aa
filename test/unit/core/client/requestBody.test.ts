// What goes on the wire: URL, headers, body; the API key read per request; stream_options fallback.
import * as assert from 'node:assert/strict';
import { createGatewayClient, type ChatRequest } from '../../../../src/core';
import { client, collect, expectGatewayError, finishChunk, KEY, sseHead, sseStream, startServer, textChunk, textOf, usageChunk } from './clientHarness';

const okStream = sseStream([textChunk('ok'), finishChunk(), usageChunk(1, 1)]);
const chatRequest: ChatRequest = { model: 'flagship', messages: [{ role: 'user', content: 'hi' }] };

async function okServer() {
  return startServer((_req, res) => {
    sseHead(res);
    res.end(okStream);
  });
}

describe('core/request: what streamChat sends', () => {
  it('POSTs to {baseUrl}/chat/completions with trailing slashes stripped, bearer key, JSON and SSE headers', async () => {
    const server = await okServer();
    await collect(client(`${server.baseUrl}///`).streamChat(chatRequest));
    const [request] = server.requests;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.url, '/v1/chat/completions');
    assert.equal(request!.headers.authorization, `Bearer ${KEY}`);
    assert.match(String(request!.headers['content-type']), /^application\/json/);
    assert.equal(request!.headers.accept, 'text/event-stream');
  });

  it('body: the request as given plus stream: true and stream_options.include_usage', async () => {
    const server = await okServer();
    const request: ChatRequest = { ...chatRequest, tools: [{ type: 'function', function: { name: 'f', parameters: {} } }], temperature: 0.2 };
    await collect(client(server.baseUrl).streamChat(request));
    assert.deepEqual(server.requests[0]!.json(), { ...request, stream: true, stream_options: { include_usage: true } });
  });

  it('provider.channel only when a channel is given; never provider: {} nor undefined keys', async () => {
    const server = await okServer();
    const c = client(server.baseUrl);
    await collect(c.streamChat({ ...chatRequest, provider: { channel: 'economical' } }));
    await collect(c.streamChat({ ...chatRequest, provider: {} }));
    await collect(c.streamChat({ ...chatRequest, provider: { channel: undefined }, temperature: undefined }));
    await collect(c.streamChat(chatRequest));
    const bodies = server.requests.map((r) => r.json());
    assert.deepEqual(bodies[0]!.provider, { channel: 'economical' });
    for (const body of bodies.slice(1)) {
      assert.equal('provider' in body, false, JSON.stringify(body));
      assert.equal('temperature' in body, false);
    }
    for (const r of server.requests.slice(1)) assert.doesNotMatch(r.body, /provider|undefined/);
  });

  it('does not change the caller’s request object', async () => {
    const server = await okServer();
    const request: ChatRequest = { ...chatRequest, provider: { channel: 'direct' } };
    const before = JSON.stringify(request);
    await collect(client(server.baseUrl).streamChat(request));
    assert.equal(JSON.stringify(request), before);
  });
});

describe('core/request: the API key', () => {
  it('reads a function key per request (sync and async), so a new key is used at once', async () => {
    const server = await okServer();
    let current = 'sk-first-aaaaaaaa';
    const c = createGatewayClient({ baseUrl: server.baseUrl, apiKey: () => current });
    await collect(c.streamChat(chatRequest));
    current = 'sk-second-bbbbbbb';
    await collect(c.streamChat(chatRequest));
    const asyncClient = createGatewayClient({ baseUrl: server.baseUrl, apiKey: async () => 'sk-async-ccccccc' });
    await asyncClient.listModels().catch(() => undefined);
    assert.deepEqual(
      server.requests.map((r) => r.headers.authorization),
      ['Bearer sk-first-aaaaaaaa', 'Bearer sk-second-bbbbbbb', 'Bearer sk-async-ccccccc'],
    );
  });

  it('a missing, empty or blank key is an auth error and nothing is sent', async () => {
    const server = await okServer();
    for (const apiKey of ['', '   ', () => undefined, async () => '', () => Promise.reject(new Error('secret store locked'))]) {
      const c = createGatewayClient({ baseUrl: server.baseUrl, apiKey });
      const error = await expectGatewayError(collect(c.streamChat(chatRequest)), 'auth');
      assert.match(error.message, /Modelgate: Set API Key/);
      assert.equal(error.retryable, false);
      await expectGatewayError(c.completeChat(chatRequest), 'auth');
      await expectGatewayError(c.generateImages({ model: 'i', prompt: 'p' }), 'auth');
      await expectGatewayError(c.listModels(), 'auth');
    }
    assert.equal(server.requests.length, 0);
  });

  it('a key with a space or newline in it is refused before sending (fetch would quote it in its error)', async () => {
    const server = await okServer();
    const error = await expectGatewayError(
      collect(createGatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-abc\ndef-secret' }).streamChat(chatRequest)),
      'auth',
    );
    assert.doesNotMatch(error.message + String(error.stack), /def-secret/);
    assert.equal(server.requests.length, 0);
  });

  it('a base URL that is not http(s) is an error with code invalid_base_url, nothing sent', async () => {
    const error = await expectGatewayError(collect(createGatewayClient({ baseUrl: 'file:///etc', apiKey: KEY }).streamChat(chatRequest)), 'bad_request');
    assert.equal(error.code, 'invalid_base_url');
  });
});

describe('core/request: servers that reject stream_options', () => {
  function rejectingServer(status: number, body: object) {
    return startServer((req, res, request) => {
      if ('stream_options' in request.json()) {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        return void res.end(JSON.stringify(body));
      }
      sseHead(res);
      res.end(sseStream([textChunk('fine'), finishChunk()]));
    });
  }

  for (const [status, body] of [
    [400, { error: { message: 'Unrecognized request argument supplied: stream_options', type: 'invalid_request_error' } }],
    [422, { error: { message: 'Extra inputs are not permitted', param: 'include_usage' } }],
    [400, { detail: [{ msg: 'extra fields not permitted', loc: ['body', 'stream_options'] }], message: 'body.stream_options: extra fields not permitted' }],
  ] as const) {
    it(`retries once without it on ${status} ${JSON.stringify(body).slice(0, 50)}…, then remembers per base URL`, async () => {
      const server = await rejectingServer(status, body);
      const c = client(server.baseUrl);
      assert.equal(textOf(await collect(c.streamChat(chatRequest))), 'fine');
      assert.equal(server.requests.length, 2);
      assert.ok('stream_options' in server.requests[0]!.json());
      assert.equal('stream_options' in server.requests[1]!.json(), false);
      // A later request, even from a new client for the same base URL (spelled differently), omits it at once.
      assert.equal(textOf(await collect(client(`${server.baseUrl}/`).streamChat(chatRequest))), 'fine');
      assert.equal(server.requests.length, 3);
      assert.equal('stream_options' in server.requests[2]!.json(), false);
    });
  }

  it('another base URL still gets stream_options', async () => {
    const rejecting = await rejectingServer(400, { error: { message: 'stream_options not allowed' } });
    await collect(client(rejecting.baseUrl).streamChat(chatRequest));
    const other = await okServer();
    await collect(client(other.baseUrl).streamChat(chatRequest));
    assert.ok('stream_options' in other.requests[0]!.json());
  });

  it('never repeats a request that failed for another reason (401, or a 400 about something else)', async () => {
    for (const [status, message, kind] of [
      [401, 'Invalid API key', 'auth'],
      [400, 'messages: must not be empty', 'bad_request'],
    ] as const) {
      const server = await startServer((_req, res) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message } }));
      });
      await expectGatewayError(collect(client(server.baseUrl).streamChat(chatRequest)), kind);
      assert.equal(server.requests.length, 1, `${status}`);
    }
  });
});

describe('core/request: redirects', () => {
  it('a redirect from the base URL is not followed (the key stays home) and says where it pointed', async () => {
    const elsewhere = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"data":[]}');
    });
    const server = await startServer((_req, res) => {
      res.writeHead(307, { Location: `${elsewhere.origin}/v1/models?token=abc` });
      res.end();
    });
    const error = await expectGatewayError(client(server.baseUrl).listModels(), 'bad_request');
    assert.equal(error.code, 'invalid_base_url');
    assert.match(error.message, new RegExp(`redirected the request \\(307\\) to ${elsewhere.origin}/v1/models\\. `));
    assert.doesNotMatch(error.message, /token=abc/);
    assert.equal(elsewhere.requests.length, 0);
    assert.equal(server.requests.length, 1, 'not retried');
  });
});
