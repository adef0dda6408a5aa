// Issue 10 item 3: streams that never end. A server that answers 200 and then sends only
// keep-alive comments, and one that starts a line and never ends it, must both end the request
// with a clear message (and keep the partial answer), driven by the simulator's faults.
// Small timeouts and caps keep each case bounded; nothing asserts on timing.
import * as assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../../gateway';
import { createGatewayClient, GatewayError, type ChatStreamEvent } from '../../../../src/core';
import { createSseDecoder, SseLimitError } from '../../../../src/core/client/sse';
import { collectUntilError, textOf } from './clientHarness';

const chat = (content: string) => ({ model: 'flagship-text', messages: [{ role: 'user' as const, content }] });

describe('core: streams that never end (issue 10 item 3)', function () {
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
    assert.throws(() => {
      for (let i = 0; i < 10; i++) line.push(new Uint8Array(1024).fill(120));
    }, (e: unknown) => e instanceof SseLimitError && e.limitBytes === cap && /4 KB/.test(e.message));
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
