// HTTP failures -> GatewayError kind + a short, actionable message that keeps the server's words.
// The API key never shows up in any of it, even when the server echoes it back.
import * as assert from 'node:assert/strict';
import type * as http from 'node:http';
import { GatewayError, type GatewayErrorKind } from '../../../../src/core';
import { errorActions } from '../../../../src/core/errorView';
import { client, collect, collectUntilError, expectGatewayError, KEY, sseHead, sseEvent, startServer, textChunk } from './clientHarness';

interface Reply {
  status: number;
  body: string;
  headers?: http.OutgoingHttpHeaders;
}

async function failWith(reply: Reply, model = 'flagship'): Promise<GatewayError> {
  const server = await startServer((_req, res) => {
    res.writeHead(reply.status, reply.headers ?? { 'Content-Type': 'application/json' });
    res.end(reply.body);
  });
  try {
    await collect(client(server.baseUrl, { maxRetries: 0 }).streamChat({ model, messages: [] }));
  } catch (error) {
    assert.ok(error instanceof GatewayError, String(error));
    return error;
  }
  assert.fail('expected an error');
}

const json = (status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): Reply => ({
  status,
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', ...headers },
});

describe('core/errors: HTTP status and body -> kind and message', () => {
  const cases: [string, Reply, GatewayErrorKind, RegExp][] = [
    [
      '401 OpenAI shape',
      json(401, { error: { message: 'Invalid key', type: 'invalid_request_error', code: 'invalid_api_key' } }),
      'auth',
      /^Gateway rejected the API key \(401\): Invalid key\. Set a new key with “Modelgate: Set API Key”\.$/,
    ],
    [
      '403 plain text',
      { status: 403, body: 'Forbidden: key disabled', headers: { 'Content-Type': 'text/plain' } },
      'auth',
      /\(403\): Forbidden: key disabled\. Set a new key/,
    ],
    ['402', json(402, { error: { message: 'Payment required' } }), 'balance', /balance is too low.*\(402\): Payment required\. Top up/],
    // the gateway already says to top up (the simulator's words): said once, not twice
    [
      '402 that says to top up',
      json(402, { error: { message: 'Insufficient balance. Top up in the console.', code: 'insufficient_balance' } }),
      'balance',
      /^The gateway balance is too low for this request \(402\): Insufficient balance\. Top up in the console\.$/,
    ],
    [
      '403 about balance',
      json(403, { error: { message: 'Your balance is insufficient', code: 'insufficient_balance' } }),
      'balance',
      /Your balance is insufficient/,
    ],
    [
      '429 insufficient_quota',
      json(429, { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }),
      'balance',
      /exceeded your current quota/,
    ],
    ['400 {message}', json(400, { message: 'max_tokens is too large' }), 'bad_request', /rejected the chat request \(400\): max_tokens is too large\.$/],
    [
      '400 unsupported channel',
      json(400, { error: { message: 'Channel "economical" is not supported for this model', param: 'provider.channel' } }),
      'unsupported',
      /does not support this request \(400\): Channel "economical" is not supported.*Try another channel or model/,
    ],
    [
      '422 unsupported parameter',
      json(422, { error: { message: 'image input unsupported on text-only model' } }),
      'unsupported',
      /unsupported on text-only model/,
    ],
    [
      '404 model',
      json(404, { error: { message: 'The model `flagship` does not exist', code: 'model_not_found' } }),
      'not_found',
      /Model “flagship” is not available on the gateway \(404\): The model `flagship` does not exist\. Pick another model/,
    ],
    ['404 empty body', { status: 404, body: '' }, 'not_found', /Model “flagship” is not available on the gateway \(404 Not Found, no message\)/],
    [
      '400 model_not_found',
      json(400, { error: { message: 'The model `flagship` does not exist or is not a chat model', code: 'model_not_found' } }),
      'not_found',
      /Model “flagship” is not available on the gateway \(400\)/,
    ],
    [
      '404 other path',
      json(404, { error: { message: 'No route for POST /chat/completions' } }),
      'not_found',
      /no such endpoint \(404\): No route.*ends in the version segment/,
    ],
    ['408', { status: 408, body: '' }, 'timeout', /timed out \(408 Request Timeout, no message\)/],
    [
      '500 OpenAI shape',
      json(500, { error: { message: 'The server had an error', type: 'server_error' } }),
      'server',
      /had a problem \(500\): The server had an error\. Try again/,
    ],
    ['503 empty', { status: 503, body: '' }, 'server', /\(503 Service Unavailable, no message\)/],
    ['{error: "text"}', json(400, { error: 'bad things' }), 'bad_request', /: bad things\.$/],
  ];
  for (const [name, reply, kind, pattern] of cases) {
    it(name, async () => {
      const error = await failWith(reply);
      assert.equal(error.kind, kind, error.message);
      assert.match(error.message, pattern);
      assert.equal(error.status, reply.status);
    });
  }

  it('keeps code, type and param for callers', async () => {
    const error = await failWith(json(400, { error: { message: 'bad', type: 'invalid_request_error', code: 'bad_param', param: 'temperature' } }));
    assert.equal(error.code, 'bad_param');
    assert.equal(error.param, 'temperature');
    assert.equal(error.type, 'invalid_request_error');
    assert.equal(error.serverMessage, 'bad');
  });

  it('retryable: 429/5xx/408/409 yes; 400/401/402/404 no', async () => {
    const expected: [number, boolean][] = [
      [429, true],
      [500, true],
      [502, true],
      [408, true],
      [409, true],
      [400, false],
      [401, false],
      [402, false],
      [404, false],
      [422, false],
    ];
    for (const [status, retryable] of expected) {
      assert.equal((await failWith(json(status, { error: { message: 'x' } }))).retryable, retryable, String(status));
    }
  });

  it('an HTML 502 from a proxy is reduced to its title, never shown raw', async () => {
    const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center>${'<p>filler</p>'.repeat(500)}</body></html>`;
    const error = await failWith({ status: 502, body: page, headers: { 'Content-Type': 'text/html' } });
    assert.equal(error.kind, 'server');
    assert.equal(error.message, 'The gateway (or a proxy in front of it) returned an HTML error page (502 Bad Gateway). Try again in a moment.');
    assert.doesNotMatch(`${error.message}${error.serverMessage}`, /[<>]|nginx|color/);
  });

  it('an HTML page without a title (and without a content type) is stripped and capped', async () => {
    const page = `<html><body><script>var secret=1</script><h1>Upstream &amp; proxy failure</h1><p>${'details '.repeat(200)}</p></body></html>`;
    const error = await failWith({ status: 504, body: page, headers: {} });
    assert.match(error.message, /^The gateway \(or a proxy in front of it\) returned an HTML error page \(504 Upstream & proxy failure details/);
    assert.doesNotMatch(error.message, /[<>]|script|secret/);
    assert.ok(error.message.length < 320, `length ${error.message.length}`);
  });

  // Portkey AI Gateway 1.15.2 (docs/gateways.md) wraps an upstream body that is not JSON in
  // `{"html-message": <the text>}` (its src/handlers/streamHandler.ts, handleTextResponse), and says
  // so for its own upstream fetch failures too (src/handlers/retryHandler.ts); its request checks
  // answer `{"status":"failure","message"}` (src/middlewares/requestValidator). Seen in the Portkey
  // integration run.
  describe('the Portkey AI Gateway shapes', () => {
    it('an HTML page wrapped in html-message is reduced to its title', async () => {
      const page =
        '<!DOCTYPE html><html><head><title>502 Bad Gateway | edge.example</title><script>var x=1</script></head><body><h1>Error 502</h1></body></html>';
      const error = await failWith(json(502, { 'html-message': page }));
      assert.equal(error.kind, 'server');
      assert.equal(
        error.message,
        'The gateway (or a proxy in front of it) returned an HTML error page (502 Bad Gateway | edge.example). Try again in a moment.',
      );
      assert.doesNotMatch(`${error.message}${error.serverMessage}`, /[<>{}]|html-message|script/);
    });
    it('an empty html-message is no message, not a JSON dump', async () => {
      const error = await failWith(json(503, { 'html-message': '' }));
      assert.equal(error.kind, 'server');
      assert.match(error.message, /\(503 Service Unavailable, no message\)/);
      assert.doesNotMatch(error.message, /html-message|[{}]/);
    });
    it('a text html-message (an upstream fetch failure) is the message', async () => {
      const text = 'Message: fetch failed Cause: Error: connect ECONNREFUSED 127.0.0.1:9 Name: TypeError';
      const error = await failWith(json(500, { 'html-message': text }));
      assert.equal(error.kind, 'server');
      assert.equal(error.serverMessage, text);
      assert.match(error.message, /had a problem \(500\): Message: fetch failed Cause: Error: connect ECONNREFUSED 127\.0\.0\.1:9 Name: TypeError\. Try again/);
    });
    it("its own refusal {status: 'failure', message} keeps the message", async () => {
      const error = await failWith(json(400, { status: 'failure', message: 'Either x-portkey-config or x-portkey-provider header is required' }));
      assert.equal(error.kind, 'bad_request');
      assert.match(error.message, /rejected the chat request \(400\): Either x-portkey-config or x-portkey-provider header is required\.$/);
    });
  });

  it('a long plain-text body is truncated', async () => {
    const error = await failWith({ status: 400, body: 'x'.repeat(5000), headers: { 'Content-Type': 'text/plain' } });
    assert.ok(error.message.length < 400, `length ${error.message.length}`);
    assert.match(error.message, /…/);
  });

  it('only the first 64 KB of a huge error body is read', async () => {
    const error = await failWith({
      status: 500,
      body: JSON.stringify({ error: { message: 'y'.repeat(10 * 1024 * 1024) } }),
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(error.kind, 'server');
    assert.ok(error.message.length < 400);
  });
});

describe('core/errors: the API key never appears in an error', () => {
  // A misbehaving server/proxy that echoes the request's Authorization header everywhere it can.
  function assertNoKey(error: unknown) {
    assert.ok(error instanceof GatewayError);
    const everything = [error.message, error.stack, error.serverMessage, error.code, error.param, error.type, JSON.stringify(error), String(error)].join('\n');
    assert.equal(everything.includes(KEY), false, everything);
    assert.equal(everything.includes(`Bearer ${KEY}`), false);
  }

  it('JSON error body echoing the header (message, code, param, type)', async () => {
    const server = await startServer((req, res) => {
      const auth = String(req.headers.authorization);
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Invalid key: ${auth}`, code: auth, param: auth.slice(7), type: auth } }));
    });
    const error = await expectGatewayError(collect(client(server.baseUrl).streamChat({ model: 'm', messages: [] })), 'auth');
    assertNoKey(error);
    assert.match(error.message, /Invalid key: Bearer \[redacted\]/);
  });

  it('plain-text, HTML and in-stream errors echoing it, in every method', async () => {
    const server = await startServer((req, res, _r, index) => {
      const auth = String(req.headers.authorization);
      if (index % 3 === 0) {
        res.writeHead(400, { 'Content-Type': 'text/plain' });
        res.end(`bad request from ${auth}`);
      } else if (index % 3 === 1) {
        res.writeHead(502, { 'Content-Type': 'text/html' });
        res.end(`<html><head><title>Error for ${auth}</title></head></html>`);
      } else {
        sseHead(res);
        res.end(sseEvent(textChunk('x')) + sseEvent({ error: { message: `stream failed for ${auth}` } }));
      }
    });
    const c = client(server.baseUrl, { maxRetries: 0 });
    assertNoKey((await collectUntilError(c.streamChat({ model: 'm', messages: [] }))).error);
    assertNoKey((await collectUntilError(c.streamChat({ model: 'm', messages: [] }))).error);
    assertNoKey((await collectUntilError(c.streamChat({ model: 'm', messages: [] }))).error);
    for (const work of [() => c.completeChat({ model: 'm', messages: [] }), () => c.generateImages({ model: 'i', prompt: 'p' }), () => c.listModels()]) {
      try {
        await work();
        assert.fail('expected an error');
      } catch (error) {
        assertNoKey(error);
      }
    }
  });

  it('a network error message does not contain the key either', async () => {
    const server = await startServer((req) => void req.socket.destroy());
    const error = await expectGatewayError(collect(client(server.baseUrl).streamChat({ model: 'm', messages: [] })), 'network');
    assertNoKey(error);
  });
});

describe('core/errors: one right action on the error card', () => {
  it('a 5xx and a dropped connection offer Retry alone; a 402 Top up; a 401 Set API Key', async () => {
    const server = await failWith(json(503, { error: { message: 'Upstream overloaded' } }));
    assert.equal(server.kind, 'server');
    assert.deepEqual(errorActions(server.kind, server.code), ['retry']);
    const dropped = await startServer((req) => void req.socket.destroy());
    try {
      await collect(client(dropped.baseUrl, { maxRetries: 0 }).streamChat({ model: 'm', messages: [] }));
      assert.fail('expected an error');
    } catch (error) {
      assert.ok(error instanceof GatewayError, String(error));
      assert.equal(error.kind, 'network');
      assert.deepEqual(errorActions(error.kind, error.code), ['retry']);
    } finally {
      await dropped.close();
    }
    assert.deepEqual(errorActions('timeout'), ['retry']);
    assert.deepEqual(errorActions('balance'), ['topUp']);
    assert.deepEqual(errorActions('auth'), ['setKey']);
  });

  it("a thinking model's refusal of a history without its reasoning offers New chat alone (another model cannot bring it back)", async () => {
    const refused = await failWith(
      json(400, {
        error: {
          message: 'The reasoning_content in the thinking mode must be passed back to the API.',
          type: 'invalid_request_error',
          code: 'invalid_request_error',
        },
      }),
    );
    assert.equal(refused.kind, 'bad_request');
    assert.deepEqual(errorActions(refused.kind, refused.code), ['newChat']);
    assert.match(refused.message, /must be passed back to the API\. .*Continue in a new chat\.$/);
    // any other 400 still points at the model
    const other = await failWith(json(400, { error: { message: 'max_tokens is too large', type: 'invalid_request_error' } }));
    assert.deepEqual(errorActions(other.kind, other.code), ['pickModel']);
  });
});
