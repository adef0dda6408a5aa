// completeChat: sends stream: false, reads a JSON answer or (the spec says streaming is on by
// default) an SSE one, and returns one ChatCompletion.
import * as assert from 'node:assert/strict';
import { MAX_MODEL_LIST_BYTES } from '../../../../src/core/client/chatResponse';
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

describe('core/client: bodies are capped before they are parsed (issue 21)', () => {
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
    assert.match(error.message, /larger than 16 MB/);
    assert.ok(page.pulled() <= MAX_MODEL_LIST_BYTES + 256 * 1024, `${page.pulled()} bytes read`);
  });
});
