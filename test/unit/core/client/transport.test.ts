// Idle timeout, caller abort, consumer break: each ends the request promptly and cleans up.
// No timing assertions: a test that hangs is caught by mocha's own timeout.
import * as assert from 'node:assert/strict';
import { GatewayError, createGatewayClient, type ChatStreamEvent } from '../../../../src/core';
import {
  client,
  collect,
  collectUntilError,
  countingFetch,
  expectGatewayError,
  finishChunk,
  KEY,
  sseEvent,
  sseHead,
  sseStream,
  startServer,
  textChunk,
  textOf,
} from './clientHarness';
import { startGateway, type RunningGateway } from '../../../gateway';
import { createSseDecoder, SseLimitError } from '../../../../src/core/client/sse';

const chat = { model: 'm', messages: [] };

/**
 * Counts live timers armed with exactly `delay` ms (the client's idle timeout, set to an odd
 * value no one else uses), by wrapping the global setTimeout/clearTimeout for one test.
 */
function trackTimers(delay: number): { live(): number; restore(): void } {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const live = new Set<unknown>();
  globalThis.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    if (ms !== delay) return realSet(fn, ms, ...args);
    const handle = realSet(
      (...a: unknown[]) => {
        live.delete(handle);
        fn(...a);
      },
      ms,
      ...args,
    );
    live.add(handle);
    return handle;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((handle: Parameters<typeof clearTimeout>[0]) => {
    live.delete(handle);
    realClear(handle);
  }) as typeof clearTimeout;
  return {
    live: () => live.size,
    restore: () => {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    },
  };
}
const ODD_TIMEOUT = 59_873;

describe('core/timeout: no byte for timeoutMs', () => {
  it('a server that never sends headers -> timeout, retried like a network error', async () => {
    const server = await startServer(() => undefined); // never answers
    const counter = countingFetch();
    const error = await expectGatewayError(
      collect(client(server.baseUrl, { timeoutMs: 150, maxRetries: 1, fetch: counter.fetch }).streamChat(chat)),
      'timeout',
    );
    assert.equal(counter.count(), 2);
    assert.equal(error.retryable, true);
    assert.match(error.message, /Nothing arrived from the gateway/);
  });

  it('a stream that stalls between chunks before any content -> timeout, retried', async () => {
    const server = await startServer((_req, res, _r, index) => {
      sseHead(res);
      res.write(': keep-alive\n\n');
      if (index > 0) res.end(sseStream([textChunk('second try'), finishChunk()]));
    });
    // wide margin: the retry must finish inside the timeout even on a loaded CI machine
    const events = await collect(client(server.baseUrl, { timeoutMs: 2_000 }).streamChat(chat));
    assert.equal(textOf(events), 'second try');
    assert.equal(server.requests.length, 2);
  });

  it('a stream that stalls after content -> timeout error, text kept, not retried', async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.write(sseEvent(textChunk('so far')));
    });
    const counter = countingFetch();
    const { events, error } = await collectUntilError(client(server.baseUrl, { timeoutMs: 150, fetch: counter.fetch }).streamChat(chat));
    assert.equal(textOf(events), 'so far');
    assert.ok(error instanceof GatewayError);
    assert.equal(error.kind, 'timeout');
    assert.equal(error.afterContent, true);
    assert.equal(counter.count(), 1);
  });

  it('keep-alive comments count as bytes: a stream longer than timeoutMs but never silent that long is fine', async function () {
    this.timeout(10_000);
    const server = await startServer(async (_req, res) => {
      sseHead(res);
      for (let i = 0; i < 12; i++) {
        res.write(': keep-alive\n\n');
        await new Promise((r) => setTimeout(r, 150)); // 12 x 150 ms = 1.8 s in all, each gap far under 1 s
      }
      res.end(sseStream([textChunk('patient'), finishChunk()]));
    });
    assert.equal(textOf(await collect(client(server.baseUrl, { timeoutMs: 1_000 }).streamChat(chat))), 'patient');
  });

  it('a slow consumer is not the server’s silence: the timer runs only while waiting for bytes', async function () {
    this.timeout(10_000);
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.write(sseEvent(textChunk('a')));
      // the rest arrives while the consumer is still busy with 'a'
      setTimeout(() => res.end(sseStream([textChunk('b'), finishChunk()])), 50);
    });
    const seen: string[] = [];
    for await (const event of client(server.baseUrl, { timeoutMs: 600 }).streamChat(chat)) {
      seen.push(event.type);
      await new Promise((r) => setTimeout(r, 800));
    }
    assert.deepEqual(seen, ['text', 'text', 'done']);
  });

  it('leaves no timer behind after success, an HTTP error, or a timeout', async () => {
    const server = await startServer((_req, res, _r, index) => {
      if (index === 1) {
        res.writeHead(400);
        return void res.end('no');
      }
      if (index === 2) return; // hangs: the client times out
      sseHead(res);
      res.end(sseStream([textChunk('x'), finishChunk()]));
    });
    const timers = trackTimers(ODD_TIMEOUT);
    try {
      const c = createGatewayClient({ baseUrl: server.baseUrl, apiKey: KEY, timeoutMs: ODD_TIMEOUT });
      await collect(c.streamChat(chat));
      assert.ok(timers.live() === 0);
      await collectUntilError(c.streamChat(chat));
      assert.equal(timers.live(), 0);
      const hanging = createGatewayClient({ baseUrl: server.baseUrl, apiKey: KEY, timeoutMs: ODD_TIMEOUT, maxRetries: 0 });
      const controller = new AbortController();
      const pending = collectUntilError(hanging.streamChat(chat, { signal: controller.signal }));
      while (server.requests.length < 3) await new Promise((r) => setImmediate(r));
      assert.equal(timers.live(), 1, 'armed while waiting');
      controller.abort();
      await pending;
      assert.equal(timers.live(), 0);
    } finally {
      timers.restore();
    }
  });
});

describe('core/abort: options.signal and breaking out of the loop', () => {
  it('an already-aborted signal fails at once with aborted, nothing sent', async () => {
    const server = await startServer(() => undefined);
    const c = client(server.baseUrl);
    const signal = AbortSignal.abort();
    const error = await expectGatewayError(collect(c.streamChat(chat, { signal })), 'aborted');
    assert.equal(error.retryable, false);
    await expectGatewayError(c.completeChat(chat, { signal }), 'aborted');
    await expectGatewayError(c.imageBytes({ url: `${server.origin}/x.png` }, { signal }), 'aborted');
    assert.equal(server.requests.length, 0);
  });

  it('abort while waiting for headers ends the request (server sees the socket close)', async () => {
    const server = await startServer(() => undefined);
    const controller = new AbortController();
    const pending = collect(client(server.baseUrl).streamChat(chat, { signal: controller.signal }));
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expectGatewayError(pending, 'aborted');
    await server.requests[0]!.socketClosed;
  });

  it('abort mid-stream: text so far was yielded, then aborted', async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.write(sseEvent(textChunk('one')));
    });
    const controller = new AbortController();
    const events: string[] = [];
    const error = await expectGatewayError(async () => {
      for await (const event of client(server.baseUrl).streamChat(chat, { signal: controller.signal })) {
        if (event.type === 'text') events.push(event.text);
        controller.abort();
      }
    }, 'aborted');
    assert.deepEqual(events, ['one']);
    assert.equal(error.afterContent, true, 'marks that the text above was partial');
    await server.requests[0]!.socketClosed;
  });

  it('abort during a back-off wait ends it promptly (real sleep of a minute)', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const controller = new AbortController();
    const c = createGatewayClient({ baseUrl: server.baseUrl, apiKey: KEY, retryBaseDelayMs: 60_000 });
    const pending = collect(c.streamChat(chat, { signal: controller.signal }));
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    await expectGatewayError(pending, 'aborted');
    assert.equal(server.requests.length, 1);
  });

  it('abort works even when an injected sleep ignores the signal', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(500);
      res.end();
    });
    const controller = new AbortController();
    const neverSleep = () => new Promise<void>(() => undefined);
    const pending = client(server.baseUrl, { sleep: neverSleep }).completeChat(chat, { signal: controller.signal });
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    await expectGatewayError(pending, 'aborted');
  });

  it('abort works even when the injected fetch ignores its signal', async () => {
    const hangingFetch = (() => new Promise<Response>(() => undefined)) as typeof fetch;
    const controller = new AbortController();
    let called!: () => void;
    const fetchCalled = new Promise<void>((r) => (called = r));
    const timers = trackTimers(ODD_TIMEOUT);
    try {
      const pending = client('http://127.0.0.1:9/v1', {
        fetch: (() => {
          called();
          return hangingFetch('');
        }) as unknown as typeof fetch,
        timeoutMs: ODD_TIMEOUT,
      }).listModels({ signal: controller.signal });
      await fetchCalled;
      assert.equal(timers.live(), 1);
      controller.abort();
      await expectGatewayError(pending, 'aborted');
      assert.equal(timers.live(), 0, 'the idle timer of the abandoned fetch was cleared');
    } finally {
      timers.restore();
    }
  });

  it('breaking out of for-await cancels the response body: the server sees the socket close', async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.write(sseEvent(textChunk('first')));
      // keeps the stream open forever
    });
    for await (const event of client(server.baseUrl).streamChat(chat)) {
      assert.equal(event.type, 'text');
      break;
    }
    await server.requests[0]!.socketClosed;
  });

  it('an abort listener is not left on a long-lived signal', async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.end(sseStream([textChunk('x'), finishChunk()]));
    });
    const controller = new AbortController();
    let added = 0;
    let removed = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added++;
      return add(...args);
    }) as typeof add;
    controller.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      removed++;
      return remove(...args);
    }) as typeof remove;
    const c = client(server.baseUrl);
    for (let i = 0; i < 3; i++) await collect(c.streamChat(chat, { signal: controller.signal }));
    assert.ok(added > 0);
    assert.equal(removed, added);
  });
});

// Streams that never end. A server that answers 200 and then sends only
// keep-alive comments, and one that starts a line and never ends it, must both end the request
// with a clear message (and keep the partial answer), driven by the simulator's faults.
// Small timeouts and caps keep each case bounded; nothing asserts on timing.
describe('core: streams that never end', function () {
  const chat = (content: string) => ({ model: 'flagship-text', messages: [{ role: 'user' as const, content }] });

  this.timeout(20_000);
  let gateway: RunningGateway;
  beforeEach(async () => {
    gateway = await startGateway();
  });
  afterEach(() => gateway.close());

  it('keep-alives only, after two chunks: stopped by the no-content bound, partial answer kept', async () => {
    gateway.injectFault({ kind: 'keepAlive', afterChunks: 2, intervalMs: 20 });
    // Keep-alives every 20 ms keep the 300 ms idle timeout from firing; the content bound ends it.
    const c = createGatewayClient({ baseUrl: gateway.baseUrl, apiKey: 'sk-test', timeoutMs: 300, contentTimeoutMs: 800, maxRetries: 0 });
    const { events, error } = await collectUntilError<ChatStreamEvent>(c.streamChat(chat('[[words:40]]')));
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    assert.equal(error.kind, 'timeout');
    assert.match(error.message, /only keep-alives and no answer for 1 s/);
    assert.match(error.message, /modelgate\.requestTimeoutSeconds/);
    assert.equal(error.afterContent, true);
    assert.equal(events.filter((e) => e.type === 'text').length, 2, 'the two chunks before the keep-alives are kept');
    assert.ok(textOf(events).length > 0);
  });

  it('keep-alives only from the first byte: a timeout, and the next request works', async () => {
    gateway.injectFault({ kind: 'keepAlive', afterChunks: 0, intervalMs: 20 });
    const c = createGatewayClient({ baseUrl: gateway.baseUrl, apiKey: 'sk-test', timeoutMs: 300, contentTimeoutMs: 600, maxRetries: 0 });
    const first = await collectUntilError<ChatStreamEvent>(c.streamChat(chat('[[words:5]]')));
    assert.ok(first.error instanceof GatewayError);
    assert.equal(first.error.kind, 'timeout');
    const second = await collectUntilError<ChatStreamEvent>(c.streamChat(chat('[[words:5]]')));
    assert.equal(second.error, undefined);
    assert.equal(textOf(second.events).trim().split(/\s+/).length, 5);
  });

  it('an endless data line: a protocol error that names the limit, partial answer kept', async () => {
    gateway.injectFault({ kind: 'endlessLine', afterChunks: 2 });
    const c = createGatewayClient({ baseUrl: gateway.baseUrl, apiKey: 'sk-test', timeoutMs: 5_000, maxRetries: 0, maxSseEventBytes: 1024 * 1024 });
    const { events, error } = await collectUntilError<ChatStreamEvent>(c.streamChat(chat('[[words:40]]')));
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    assert.equal(error.kind, 'protocol');
    assert.match(error.message, /larger than the limit of 1 MB/);
    assert.equal(events.filter((e) => e.type === 'text').length, 2);
  });

  it('the decoder caps a line split over many chunks, and many data lines of one event', () => {
    const cap = 4096;
    const line = createSseDecoder(undefined, cap);
    line.push(new TextEncoder().encode('data: '));
    assert.throws(
      () => {
        for (let i = 0; i < 10; i++) line.push(new Uint8Array(1024).fill(120));
      },
      (e: unknown) => e instanceof SseLimitError && e.limitBytes === cap && /4 KB/.test(e.message),
    );
    const lines = createSseDecoder(undefined, cap);
    assert.throws(() => {
      for (let i = 0; i < 100; i++) lines.push(new TextEncoder().encode(`data: ${'y'.repeat(100)}\n`));
    }, SseLimitError);
    // Under the cap, the same event goes through.
    const ok = createSseDecoder(undefined, cap);
    assert.equal(ok.push(new TextEncoder().encode(`data: ${'z'.repeat(4000)}\n\n`))[0]?.data.length, 4000);
  });

  it('comments do not count as content, data bytes do (what the no-content bound relies on)', () => {
    const d = createSseDecoder();
    d.push(new TextEncoder().encode(': keep-alive\n\n'));
    assert.equal(d.progressed, false);
    d.push(new TextEncoder().encode(': keep'));
    assert.equal(d.progressed, false);
    d.push(new TextEncoder().encode('-alive, a comment line split over chunks'));
    assert.equal(d.progressed, false);
    d.push(new TextEncoder().encode('\n'));
    assert.equal(d.progressed, false);
    d.push(new TextEncoder().encode('data: {"a"'));
    assert.equal(d.progressed, true, 'bytes of a data line in progress are content');
  });
});
