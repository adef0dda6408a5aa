// The client against the gateway simulator (test/gateway): the real wire of the project's
// stand-in server, end to end. Streamed chat, a tool-call round, an image round trip, and the
// faults a real gateway (or the proxy in front of it) produces.
import * as assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../../gateway';
import {
  createGatewayClient,
  GatewayError,
  imageFormatOf,
  type ChatMessage,
  type GatewayClient,
  type ToolCall,
  type ToolDefinition,
} from '../../../../src/core';
import { collect, collectUntilError, expectGatewayError, sleepRecorder, textOf } from './clientHarness';

const SIM_KEY = 'sk-test';

describe('core against the gateway simulator', function () {
  this.timeout(20_000);
  let gateway: RunningGateway;
  let recorder: ReturnType<typeof sleepRecorder>;
  let c: GatewayClient;

  beforeEach(async () => {
    gateway = await startGateway();
    recorder = sleepRecorder();
    c = createGatewayClient({ baseUrl: gateway.baseUrl, apiKey: SIM_KEY, sleep: recorder.sleep, timeoutMs: 5_000 });
  });
  afterEach(() => gateway.close());

  it('streams a chat answer with usage and a finish reason', async () => {
    const events = await collect(
      c.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: '[[words:40]]' }], provider: { channel: 'direct' } }),
    );
    assert.equal(textOf(events).trim().split(/\s+/).length, 40);
    assert.ok(events.filter((e) => e.type === 'text').length > 1, 'arrived in several deltas');
    const usage = events.find((e) => e.type === 'usage');
    assert.ok(usage && usage.type === 'usage' && usage.usage.promptTokens > 0 && usage.usage.completionTokens > 0);
    assert.deepEqual(events.at(-1), { type: 'done', finishReason: 'stop' });
    const sent = gateway.requests.find((r) => r.path === '/v1/chat/completions')!;
    assert.deepEqual((sent.body as { provider?: unknown }).provider, { channel: 'direct' });
  });

  it('keeps non-ASCII text intact through the drip fault (tiny pieces)', async () => {
    const plain = await collect(c.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: 'Explain caching' }] }));
    gateway.injectFault({ kind: 'drip', delayMs: 0 });
    const dripped = await collect(c.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: 'Explain caching' }] }));
    assert.equal(textOf(dripped), textOf(plain));
    assert.match(textOf(plain), /[^\x00-\x7f]/, 'the answer has non-ASCII to split');
  });

  it('a tool-call round: parallel calls assembled, results sent back, then the answer', async () => {
    const tools: ToolDefinition[] = [
      { type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
      { type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
    ];
    const messages: ChatMessage[] = [{ role: 'user', content: 'Look [[call:read_file {"path":"src/a.ts"}]] [[call:search {"q":"foo"}]]' }];
    const first = await collect(c.streamChat({ model: 'long-context-tools', messages, tools }));
    const callEvents = first.filter((e) => e.type === 'tool_calls');
    assert.equal(callEvents.length, 1, 'one tool_calls event');
    const calls = (callEvents[0] as { calls: ToolCall[] }).calls;
    assert.deepEqual(
      calls.map((call) => [call.name, JSON.parse(call.arguments)]),
      [
        ['read_file', { path: 'src/a.ts' }],
        ['search', { q: 'foo' }],
      ],
    );
    assert.equal(new Set(calls.map((call) => call.id)).size, 2);
    assert.deepEqual(first.at(-1), { type: 'done', finishReason: 'tool_calls' });

    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
    });
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: `result of ${call.name}\nsecond line` });
    const second = await collect(c.streamChat({ model: 'long-context-tools', messages, tools }));
    assert.match(textOf(second), /Tool read_file returned \d+ characters/);
    assert.match(textOf(second), /Tool search returned/);
    assert.equal(
      second.some((e) => e.type === 'tool_calls'),
      false,
    );
  });

  it('completeChat gets the same kind of answer without streaming', async () => {
    const result = await c.completeChat({ model: 'flagship-text', messages: [{ role: 'user', content: '[[words:5]]' }] });
    assert.equal(result.text.trim().split(/\s+/).length, 5);
    assert.equal(result.finishReason, 'stop');
    assert.ok(result.usage && result.usage.promptTokens > 0);
  });

  it('an image round trip: generate (URL), download from the image host without the key', async () => {
    const response = await c.generateImages({ model: 'image-restricted', prompt: 'a lighthouse at dusk', size: '1024x1024' });
    assert.equal(response.data.length, 1);
    const url = response.data[0]!.url!;
    assert.ok(url.startsWith(gateway.imageHostUrl), url);
    const bytes = await c.imageBytes(response.data[0]!);
    assert.equal(imageFormatOf(bytes), 'png');
    const download = gateway.requests.find((r) => r.server === 'images')!;
    assert.equal(download.headers.authorization, undefined);
    assert.equal(JSON.stringify(download.headers).includes(SIM_KEY), false);
  });

  it('an image round trip with b64_json', async () => {
    const response = await c.generateImages({ model: 'image-small', prompt: 'icon', size: '256x256', n: 2, response_format: 'b64_json' });
    assert.equal(response.data.length, 2);
    for (const image of response.data) assert.equal(imageFormatOf(await c.imageBytes(image)), 'png');
  });

  it('a list of models', async () => {
    const ids = (await c.listModels()).map((m) => m.id);
    for (const id of ['flagship-text', 'long-context-tools', 'image-restricted', 'image-small']) assert.ok(ids.includes(id), id);
  });

  it('faults before content are retried; after content they end the stream with the text kept', async () => {
    gateway.injectFault({ kind: 'html502' });
    gateway.injectFault({ kind: 'rateLimit', retryAfter: '2' });
    const ok = await collect(c.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: '[[words:3]]' }] }));
    assert.equal(textOf(ok).trim().split(/\s+/).length, 3);
    assert.equal(recorder.delays.length, 2);
    assert.ok(recorder.delays.includes(2000), `Retry-After honoured: ${recorder.delays.join(', ')}`);

    gateway.injectFault({ kind: 'drop', afterChunks: 2 });
    const { events, error } = await collectUntilError(c.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: '[[words:60]]' }] }));
    assert.ok(textOf(events).length > 0);
    assert.ok(error instanceof GatewayError && error.kind === 'network' && error.afterContent === true, String(error));
  });

  it('a request may ask for fewer retries than the client makes (a completion is stale once retried)', async () => {
    gateway.injectFault({ kind: 'status', status: 503 });
    await expectGatewayError(collect(c.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: 'hi' }] }, { maxRetries: 0 })), 'server');
    assert.equal(recorder.delays.length, 0, 'not retried');
    assert.equal(gateway.requests.filter((r) => r.path === '/v1/chat/completions').length, 1);
    gateway.injectFault({ kind: 'status', status: 503 });
    await collect(c.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(recorder.delays.length, 1, "the client's own retries otherwise");
  });

  it('an HTML 502 that persists becomes a short readable error', async () => {
    gateway.injectFault({ kind: 'html502' }, 3);
    const error = await expectGatewayError(collect(c.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: 'hi' }] })), 'server');
    assert.match(error.message, /HTML error page/);
    assert.doesNotMatch(error.message, /[<>]/);
  });

  it('a wrong key, an empty balance, an unknown model and an unsupported channel map to their kinds', async () => {
    const wrongKey = createGatewayClient({ baseUrl: gateway.baseUrl, apiKey: 'sk-wrong-key-123' });
    const authError = await expectGatewayError(collect(wrongKey.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: 'hi' }] })), 'auth');
    assert.equal(authError.message.includes('sk-wrong-key-123'), false);
    gateway.setBalance(SIM_KEY, 0);
    await expectGatewayError(collect(c.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: 'hi' }] })), 'balance');
    gateway.setBalance(SIM_KEY, 10);
    await expectGatewayError(collect(c.streamChat({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })), 'not_found');
    const imageInput = await collectUntilError(
      c.streamChat({
        model: 'flagship-text',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }],
      }),
    );
    assert.ok(imageInput.error instanceof GatewayError);
    assert.equal(imageInput.error.kind, 'unsupported', imageInput.error.message);
  });

  it('a gateway that rejects stream_options: one retry without it, then remembered', async () => {
    const strict = await startGateway({ rejectStreamOptions: true });
    try {
      const sc = createGatewayClient({ baseUrl: strict.baseUrl, apiKey: SIM_KEY });
      for (let i = 0; i < 2; i++) await collect(sc.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: '[[words:2]]' }] }));
      const chats = strict.requests.filter((r) => r.path === '/v1/chat/completions');
      assert.deepEqual(
        chats.map((r) => 'stream_options' in (r.body as object)),
        [true, false, false],
      );
    } finally {
      await strict.close();
    }
  });
});
