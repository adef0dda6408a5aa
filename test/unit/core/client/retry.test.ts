// Retries: what is retried, how often, how long the client waits (recorded, never timed),
// Retry-After handling, and never after the first streamed content.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { GatewayError } from '../../../../src/core';
import { backoffDelay, parseRetryAfter } from '../../../../src/core/client/retry';
import {
  client,
  collect,
  collectUntilError,
  expectGatewayError,
  finishChunk,
  sleepRecorder,
  sseEvent,
  sseHead,
  sseStream,
  startServer,
  textChunk,
  textOf,
} from './clientHarness';

const chat = { model: 'm', messages: [] };

/** Fails the first `failures` requests with `fail`, then streams "ok". */
function flakyServer(failures: number, fail: (res: import('node:http').ServerResponse, req: import('node:http').IncomingMessage) => void) {
  return startServer((req, res, _r, index) => {
    if (index < failures) return fail(res, req);
    sseHead(res);
    res.end(sseStream([textChunk('ok'), finishChunk()]));
  });
}

const status =
  (code: number, headers: Record<string, string> = {}) =>
  (res: import('node:http').ServerResponse) => {
    res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message: `status ${code}` } }));
  };

describe('core/retry: which failures are retried', () => {
  for (const code of [408, 409, 429, 500, 502, 503, 504]) {
    it(`${code} is retried (2 failures then success = 3 requests)`, async () => {
      const server = await flakyServer(2, status(code));
      assert.equal(textOf(await collect(client(server.baseUrl).streamChat(chat))), 'ok');
      assert.equal(server.requests.length, 3);
    });
  }

  it('a connection reset (socket destroyed before headers) is retried', async () => {
    const server = await flakyServer(2, (_res, req) => req.socket.destroy());
    assert.equal(textOf(await collect(client(server.baseUrl).streamChat(chat))), 'ok');
    assert.equal(server.requests.length, 3);
  });

  it('a refused connection is retried, then reported as network with the code', async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    let attempts = 0;
    const countingFetch: typeof fetch = (input, init) => {
      attempts++;
      return fetch(input, init);
    };
    const error = await expectGatewayError(collect(client(`http://127.0.0.1:${port}/v1`, { fetch: countingFetch }).streamChat(chat)), 'network');
    assert.equal(attempts, 3);
    assert.match(error.message, /Could not reach the gateway at http:\/\/127\.0\.0\.1:\d+\/v1 \(connection refused, ECONNREFUSED\)/);
  });

  it('a fetch that rejects with a TypeError is retried', async () => {
    let attempts = 0;
    const failingFetch = (async () => {
      attempts++;
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    await expectGatewayError(collect(client('http://127.0.0.1:9/v1', { fetch: failingFetch, maxRetries: 4 }).streamChat(chat)), 'network');
    assert.equal(attempts, 5);
  });

  for (const code of [400, 401, 402, 403, 404, 422]) {
    it(`${code} is not retried`, async () => {
      const server = await flakyServer(5, status(code));
      await assert.rejects(collect(client(server.baseUrl).streamChat(chat)), GatewayError);
      assert.equal(server.requests.length, 1);
    });
  }

  it('maxRetries bounds the attempts (0 = one request; default 2 = three)', async () => {
    const zero = await flakyServer(9, status(503));
    await expectGatewayError(collect(client(zero.baseUrl, { maxRetries: 0 }).streamChat(chat)), 'server');
    assert.equal(zero.requests.length, 1);
    const byDefault = await flakyServer(9, status(503));
    await expectGatewayError(collect(client(byDefault.baseUrl).streamChat(chat)), 'server');
    assert.equal(byDefault.requests.length, 3);
  });

  it('a drop before the first content is retried; the user sees one clean answer', async () => {
    const server = await startServer((_req, res, _r, index) => {
      sseHead(res);
      if (index === 0) {
        res.write(': keep-alive\n\n');
        return void setImmediate(() => res.socket?.destroy());
      }
      res.end(sseStream([textChunk('clean'), finishChunk()]));
    });
    assert.equal(textOf(await collect(client(server.baseUrl).streamChat(chat))), 'clean');
    assert.equal(server.requests.length, 2);
  });

  it('a drop after content is not retried: network error, text kept', async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.write(sseEvent(textChunk('half an ans')));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const { events, error } = await collectUntilError(client(server.baseUrl).streamChat(chat));
    assert.equal(textOf(events), 'half an ans');
    assert.ok(error instanceof GatewayError);
    assert.equal(error.kind, 'network');
    assert.equal(error.afterContent, true);
    assert.match(error.message, /incomplete/);
    assert.equal(server.requests.length, 1);
  });

  it('completeChat, generateImages and listModels retry too', async () => {
    const server = await startServer((req, res, _r, index) => {
      if (index % 2 === 0) return status(503)(res);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (req.url === '/v1/models') return void res.end(JSON.stringify({ data: [{ id: 'a' }] }));
      if (req.url === '/v1/images/generations') return void res.end(JSON.stringify({ created: 1, data: [{ url: 'http://127.0.0.1/x.png' }] }));
      res.end(JSON.stringify({ choices: [{ message: { content: 'done' }, finish_reason: 'stop' }] }));
    });
    const c = client(server.baseUrl);
    assert.equal((await c.completeChat(chat)).text, 'done');
    assert.equal((await c.generateImages({ model: 'i', prompt: 'p' })).data.length, 1);
    assert.deepEqual(await c.listModels(), [{ id: 'a' }]);
    assert.equal(server.requests.length, 6);
  });
});

describe('core/retry: how long to wait', () => {
  it('exponential back-off from 500 ms, capped at 8 s, with at most 25 % jitter', () => {
    const policy = { baseDelayMs: 500, maxDelayMs: 8000 };
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, { ...policy, random: () => 0 })),
      [500, 1000, 2000, 4000, 8000, 8000, 8000],
    );
    assert.deepEqual(
      [0, 4].map((n) => backoffDelay(n, { ...policy, random: () => 0.999999 })),
      [375, 6000],
    );
  });

  it('the client waits the back-off between attempts (recorded)', async () => {
    const server = await flakyServer(9, status(500));
    const { sleep, delays } = sleepRecorder();
    await expectGatewayError(collect(client(server.baseUrl, { sleep, maxRetries: 4 }).streamChat(chat)), 'server');
    assert.deepEqual(delays, [500, 1000, 2000, 4000]);
  });

  it('honours retry-after-ms and Retry-After seconds or HTTP date (<= 30 s)', async () => {
    const later = new Date(Date.now() + 20_000).toUTCString();
    const headers: Record<string, string>[] = [{ 'retry-after-ms': '1234' }, { 'Retry-After': '7' }, { 'Retry-After': later }];
    const server = await startServer((_req, res, _r, index) => {
      if (index < headers.length) return status(429, headers[index])(res);
      sseHead(res);
      res.end(sseStream([textChunk('ok'), finishChunk()]));
    });
    const { sleep, delays } = sleepRecorder();
    await collect(client(server.baseUrl, { sleep, maxRetries: 3 }).streamChat(chat));
    assert.equal(delays[0], 1234);
    assert.equal(delays[1], 7000);
    assert.ok(delays[2]! > 15_000 && delays[2]! <= 20_000, `HTTP-date delay ${delays[2]}`);
  });

  it('a Retry-After over 30 s is not waited out: rate_limit at once, retryable, with when to retry', async () => {
    const server = await flakyServer(9, status(429, { 'Retry-After': '300' }));
    const { sleep, delays } = sleepRecorder();
    const error = await expectGatewayError(collect(client(server.baseUrl, { sleep }).streamChat(chat)), 'rate_limit');
    assert.equal(server.requests.length, 1);
    assert.deepEqual(delays, []);
    assert.equal(error.retryable, true);
    assert.equal(error.retryAfterMs, 300_000);
    assert.match(error.message, /try again in 5 min/i);
  });

  it('a long Retry-After on a 503 also ends at once as rate_limit; a date hours away reads "at HH:MM"', async () => {
    const when = new Date(Date.now() + 3 * 3600_000);
    const server = await flakyServer(9, status(503, { 'Retry-After': when.toUTCString() }));
    const error = await expectGatewayError(collect(client(server.baseUrl).streamChat(chat)), 'rate_limit');
    assert.equal(server.requests.length, 1);
    assert.equal(error.status, 503);
    const hhmm = new RegExp(`at \\d\\d:\\d\\d`);
    assert.match(error.message, hhmm);
    assert.match(error.message, /status 503/);
  });

  it('parseRetryAfter: absent, garbage, past dates', () => {
    const h = (init: Record<string, string>) => new Headers(init);
    assert.equal(parseRetryAfter(h({})), undefined);
    assert.equal(parseRetryAfter(h({ 'retry-after': 'soon' })), undefined);
    assert.equal(parseRetryAfter(h({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' })), 0);
    assert.equal(parseRetryAfter(h({ 'retry-after': '1.5' })), 1500);
    assert.equal(parseRetryAfter(h({ 'retry-after-ms': '250', 'retry-after': '9' })), 250);
  });
});
