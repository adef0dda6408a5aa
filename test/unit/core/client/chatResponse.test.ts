// completeChat: sends stream: false, reads a JSON answer or (the gateway's interface says streaming is on by
// default) an SSE one, and returns one ChatCompletion.
import * as assert from 'node:assert/strict';
import { countContainers, imageAnswerBytes, MAX_MODEL_LIST_BYTES, MAX_MODEL_LIST_CONTAINERS } from '../../../../src/core/client/chatResponse';
import { client, expectGatewayError, finishChunk, sseHead, sseStream, startServer, textChunk, toolChunk, usageChunk } from './clientHarness';

const chat = { model: 'flagship', messages: [{ role: 'user' as const, content: 'hi' }], provider: { channel: 'direct' as const } };

describe('core/completeChat', () => {
  it('sends stream: false without stream_options, and reads a JSON answer with tool calls and usage', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'x',
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [
                  { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
                  { id: 'call_2', type: 'function', function: { name: 'search', arguments: { q: 'x' } } },
                ],
              },
              finish_reason: 'tool_calls',
            },
          ],
          usage: { prompt_tokens: 50, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 32 } },
        }),
      );
    });
    const result = await client(server.baseUrl).completeChat(chat);
    assert.deepEqual(result, {
      text: '',
      toolCalls: [
        { id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' },
        { id: 'call_2', name: 'search', arguments: '{"q":"x"}' },
      ],
      usage: { promptTokens: 50, completionTokens: 9, cachedTokens: 32 },
      finishReason: 'tool_calls',
    });
    const body = server.requests[0]!.json();
    assert.equal(body.stream, false);
    assert.equal('stream_options' in body, false);
    assert.deepEqual(body.provider, { channel: 'direct' });
  });

  it('aggregates an SSE answer when the server streams anyway', async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.end(
        sseStream([
          textChunk('Hel'),
          textChunk('lo'),
          toolChunk([{ index: 0, id: 'c1', name: 'f', arguments: '{"a"' }]),
          toolChunk([{ index: 0, arguments: ':1}' }]),
          finishChunk('tool_calls'),
          usageChunk(4, 5, 1),
        ]),
      );
    });
    assert.deepEqual(await client(server.baseUrl).completeChat(chat), {
      text: 'Hello',
      toolCalls: [{ id: 'c1', name: 'f', arguments: '{"a":1}' }],
      usage: { promptTokens: 4, completionTokens: 5, cachedTokens: 1 },
      finishReason: 'tool_calls',
    });
  });

  it('content given as an array of text parts is joined; no usage means undefined', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [
            {
              message: {
                content: [
                  { type: 'text', text: 'a' },
                  { type: 'text', text: 'b' },
                ],
              },
              finish_reason: 'stop',
            },
          ],
        }),
      );
    });
    const result = await client(server.baseUrl).completeChat(chat);
    assert.equal(result.text, 'ab');
    assert.equal(result.usage, undefined);
  });

  it('a JSON answer without choices is a protocol error; an SSE answer cut short is retried then network', async () => {
    const empty = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [] }));
    });
    await expectGatewayError(client(empty.baseUrl).completeChat(chat), 'protocol');
    const cut = await startServer((_req, res) => {
      sseHead(res);
      res.end(sseStream([textChunk('par')], { done: false }));
    });
    await expectGatewayError(client(cut.baseUrl).completeChat(chat), 'network');
    assert.equal(cut.requests.length, 3, 'nothing was shown yet, so a cut answer is retried');
  });
});

describe('core/client: bodies are capped before they are parsed', () => {
  /** A fetch whose body is `total` bytes of `unit` in 16 KB pieces; counts the bytes pulled. */
  function endlessPage(unit: string, total: number, contentType: string): { fetch: typeof globalThis.fetch; pulled: () => number } {
    let pulled = 0;
    const piece = new TextEncoder().encode(unit.repeat(Math.ceil(16384 / unit.length)).slice(0, 16384));
    const fetchImpl = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled >= total) return controller.close();
            pulled += piece.byteLength;
            controller.enqueue(piece);
          },
        }),
        { status: 200, headers: { 'content-type': contentType } },
      )) as typeof globalThis.fetch;
    return { fetch: fetchImpl, pulled: () => pulled };
  }

  for (const contentType of ['text/html', 'application/json']) {
    it(`GET /models answering 200 ${contentType} with 512 KB of \`<a\`: an HTML error, read no further than 64 KB (and a bit)`, async () => {
      const page = endlessPage('<a', 512 * 1024, contentType);
      const error = await expectGatewayError(client('http://127.0.0.1:9/v1', { fetch: page.fetch }).listModels(), 'protocol');
      assert.match(error.message, /HTML page instead of an answer/);
      assert.ok(page.pulled() <= 128 * 1024, `${page.pulled()} bytes read`);
    });
  }

  it('an image answer that is an HTML page is read no further than 64 KB (and a bit)', async () => {
    const page = endlessPage('<a', 8 * 1024 * 1024, 'text/html');
    const error = await expectGatewayError(
      client('http://127.0.0.1:9/v1', { fetch: page.fetch }).generateImages({ model: 'image-small', prompt: 'x' }),
      'protocol',
    );
    assert.match(error.message, /HTML page instead of an answer/);
    assert.ok(page.pulled() <= 128 * 1024, `${page.pulled()} bytes read`);
  });

  it('a model list larger than MAX_MODEL_LIST_BYTES is refused without reading the rest', async () => {
    const page = endlessPage('[', 64 * 1024 * 1024, 'application/json');
    const error = await expectGatewayError(client('http://127.0.0.1:9/v1', { fetch: page.fetch }).listModels(), 'protocol');
    assert.match(error.message, /larger than 8 MB/);
    assert.ok(page.pulled() <= MAX_MODEL_LIST_BYTES + 256 * 1024, `${page.pulled()} bytes read`);
  });

  /** Runs `body` while counting JSON.parse calls on texts of `minLength` or more. */
  async function countingBigParses<T>(minLength: number, body: () => Promise<T>): Promise<{ result: T; parses: number }> {
    const parse = JSON.parse;
    let parses = 0;
    JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      if (typeof text === 'string' && text.length >= minLength) parses++;
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      return { result: await body(), parses };
    } finally {
      JSON.parse = parse;
    }
  }

  it('a model list of 4 MB of `{}` objects is refused before JSON.parse sees it (seconds of the host thread otherwise)', async () => {
    const list = `[${'{},'.repeat(1_400_000)}{}]`;
    const wrapped: typeof globalThis.fetch = async () => new Response(list, { status: 200, headers: { 'content-type': 'application/json' } });
    const { result: error, parses } = await countingBigParses(1024 * 1024, () =>
      expectGatewayError(client('http://127.0.0.1:9/v1', { fetch: wrapped }).listModels(), 'protocol'),
    );
    assert.match(error.message, /more than 200,000 JSON objects and arrays/);
    assert.equal(parses, 0, 'the body never reached JSON.parse');
  });

  it('an image answer of 2 MB of `[]` is refused before JSON.parse; one with a large base64 image is read', async () => {
    const nested = JSON.stringify({ created: 1, data: [{ b64_json: 'AAAA' }], junk: Array.from({ length: 700_000 }, () => []) });
    const junk: typeof globalThis.fetch = async () => new Response(nested, { status: 200, headers: { 'content-type': 'application/json' } });
    const { result: error, parses } = await countingBigParses(1024 * 1024, () =>
      expectGatewayError(client('http://127.0.0.1:9/v1', { fetch: junk }).generateImages({ model: 'image-small', prompt: 'x' }), 'protocol'),
    );
    assert.match(error.message, /more than 10,000 JSON objects and arrays/);
    assert.equal(parses, 0);
    const png = 'A'.repeat(6 * 1024 * 1024);
    const big: typeof globalThis.fetch = async () =>
      new Response(JSON.stringify({ created: 1, data: [{ b64_json: png }] }), { status: 200, headers: { 'content-type': 'application/json' } });
    const images = await client('http://127.0.0.1:9/v1', { fetch: big }).generateImages({ model: 'image-small', prompt: 'x' });
    assert.equal(images.data[0]!.b64_json!.length, png.length);
  });

  it('an image answer may take what n images at the size limit need, and no more than the overall cap', () => {
    const mb = 1024 * 1024;
    assert.equal(imageAnswerBytes(undefined, 3 * mb), 4 * mb + mb);
    assert.equal(imageAnswerBytes(4, 3 * mb), 16 * mb + mb);
    assert.equal(imageAnswerBytes(0, 3 * mb), 5 * mb, 'at least one image');
    assert.equal(imageAnswerBytes(1000, 25 * mb), 128 * mb);
  });

  it('countContainers counts `{` and `[` and stops once past its limit', () => {
    assert.equal(countContainers('{"a":[1,{"b":"[x"}]}', 100), 4);
    assert.equal(countContainers('['.repeat(1000), 10), 11);
    assert.ok(MAX_MODEL_LIST_CONTAINERS >= 100_000);
  });
});
