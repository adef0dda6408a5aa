// generateImages (validated response, same errors and retries) and imageBytes (strict base64,
// key never sent to an image URL, http(s) only, magic bytes, size cap, expired URLs).
import * as assert from 'node:assert/strict';
import { GatewayError } from '../../../../src/core';
import { decodeBase64Image } from '../../../../src/core/client/imageBytes';
import { client, expectGatewayError, JPEG_HEAD, KEY, PNG_1x1, startServer, WEBP_HEAD, writeInPieces } from './clientHarness';

function jsonServer(body: unknown, status = 200) {
  return startServer((_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

describe('core/images: generateImages', () => {
  it('POSTs the request to /images/generations with provider only when a channel is given', async () => {
    const server = await jsonServer({ created: 1700000000, data: [{ url: 'https://img.example/a.png', revised_prompt: 'a cat, photo' }] });
    const c = client(server.baseUrl);
    const result = await c.generateImages({ model: 'image-restricted', prompt: 'a cat', size: '1024x1024', n: 1, provider: { channel: 'stable' } });
    assert.deepEqual(result, { created: 1700000000, data: [{ url: 'https://img.example/a.png', revised_prompt: 'a cat, photo' }] });
    await c.generateImages({ model: 'image-restricted', prompt: 'a dog', provider: {}, style: undefined });
    const [first, second] = server.requests;
    assert.equal(first!.url, '/v1/images/generations');
    assert.equal(first!.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(first!.json(), { model: 'image-restricted', prompt: 'a cat', size: '1024x1024', n: 1, provider: { channel: 'stable' } });
    assert.deepEqual(second!.json(), { model: 'image-restricted', prompt: 'a dog' });
  });

  it('returns only the known fields, with b64_json images as given', async () => {
    const b64 = PNG_1x1.toString('base64');
    const server = await jsonServer({ created: 5, data: [{ b64_json: b64, extra: 1 }], usage: {} });
    assert.deepEqual(await client(server.baseUrl).generateImages({ model: 'i', prompt: 'p' }), { created: 5, data: [{ b64_json: b64 }] });
  });

  const invalid: [string, unknown][] = [
    ['created missing', { data: [{ url: 'https://x/y.png' }] }],
    ['created not a number', { created: 'today', data: [{ url: 'https://x/y.png' }] }],
    ['data not an array', { created: 1, data: { url: 'https://x/y.png' } }],
    ['an image with neither url nor b64_json', { created: 1, data: [{ revised_prompt: 'x' }] }],
    ['no images', { created: 1, data: [] }],
    ['not JSON', 'Internal things happened'],
  ];
  for (const [name, body] of invalid) {
    it(`a response with ${name} is a protocol error`, async () => {
      const server = await jsonServer(body);
      const error = await expectGatewayError(client(server.baseUrl).generateImages({ model: 'i', prompt: 'p' }), 'protocol');
      assert.equal(server.requests.length, 1, 'protocol errors are not retried');
      assert.match(error.message, /cannot read/);
    });
  }

  it('HTTP errors map as for chat (400 n not supported -> unsupported, 402 -> balance)', async () => {
    const unsupported = await jsonServer({ error: { message: 'n > 1 is not supported by this model', param: 'n' } }, 400);
    const e1 = await expectGatewayError(client(unsupported.baseUrl).generateImages({ model: 'image-restricted', prompt: 'p', n: 2 }), 'unsupported');
    assert.match(e1.message, /n > 1 is not supported by this model/);
    assert.equal(e1.param, 'n');
    const broke = await jsonServer({ error: { message: 'Insufficient balance' } }, 402);
    await expectGatewayError(client(broke.baseUrl).generateImages({ model: 'i', prompt: 'p' }), 'balance');
  });

  it('an {error} body with status 200 is an error, not a protocol failure', async () => {
    const server = await jsonServer({ error: { message: 'content policy violation', type: 'invalid_request_error' } });
    const error = await expectGatewayError(client(server.baseUrl).generateImages({ model: 'i', prompt: 'p' }), 'bad_request');
    assert.match(error.message, /content policy violation/);
  });
});

describe('core/images: imageBytes', () => {
  it('decodes b64_json (line breaks allowed) and checks it is an image', async () => {
    const c = client('http://127.0.0.1:9/v1');
    const b64 = PNG_1x1.toString('base64');
    assert.deepEqual(Buffer.from(await c.imageBytes({ b64_json: b64 })), PNG_1x1);
    const wrapped = b64.replace(/(.{20})/g, '$1\r\n');
    assert.deepEqual(Buffer.from(await c.imageBytes({ b64_json: wrapped })), PNG_1x1);
  });

  it('rejects invalid base64 strictly (bad characters, bad length, data: prefix)', async () => {
    const c = client('http://127.0.0.1:9/v1');
    const b64 = PNG_1x1.toString('base64');
    for (const bad of [`${b64.slice(0, 8)}*${b64.slice(9)}`, b64.slice(0, -1), `data:image/png;base64,${b64}`, `${b64} `, '=AAA']) {
      const error = await expectGatewayError(c.imageBytes({ b64_json: bad }), 'protocol');
      assert.match(error.message, /not valid base64/);
    }
  });

  it('rejects bytes that are not PNG, JPEG or WebP; accepts all three', async () => {
    const c = client('http://127.0.0.1:9/v1');
    const error = await expectGatewayError(c.imageBytes({ b64_json: Buffer.from('GIF89a-not-allowed').toString('base64') }), 'protocol');
    assert.match(error.message, /not a PNG, JPEG or WebP image \(starts with 47 49 46 38/);
    for (const head of [PNG_1x1, JPEG_HEAD, WEBP_HEAD]) {
      const padded = Buffer.concat([head, Buffer.alloc((3 - (head.length % 3)) % 3)]);
      assert.ok((await c.imageBytes({ b64_json: padded.toString('base64') })).byteLength > 0);
    }
  });

  it('downloads a URL on the SAME origin as the base URL without the Authorization header or cookies', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(PNG_1x1);
    });
    const bytes = await client(server.baseUrl).imageBytes({ url: `${server.origin}/v1/files/img.png?sig=abc` });
    assert.deepEqual(Buffer.from(bytes), PNG_1x1);
    const request = server.requests[0]!;
    assert.equal(request.method, 'GET');
    assert.equal(request.url, '/v1/files/img.png?sig=abc');
    assert.equal(request.headers.authorization, undefined);
    assert.equal(request.headers.cookie, undefined);
    assert.equal(JSON.stringify(request.headers).includes(KEY), false);
  });

  it('downloads from another host without the key, in any chunking', async () => {
    const imageHost = await startServer(async (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      await writeInPieces(res, PNG_1x1, 3);
      res.end();
    });
    const bytes = await client('http://127.0.0.1:9/v1').imageBytes({ url: `${imageHost.origin}/a.png` });
    assert.deepEqual(Buffer.from(bytes), PNG_1x1);
    assert.equal(imageHost.requests[0]!.headers.authorization, undefined);
  });

  it('only http and https URLs are fetched', async () => {
    let fetched = 0;
    const countingFetch = (async () => {
      fetched++;
      return new Response(PNG_1x1);
    }) as unknown as typeof fetch;
    const c = client('http://127.0.0.1:9/v1', { fetch: countingFetch });
    for (const url of ['data:image/png;base64,AAAA', 'file:///etc/passwd', 'javascript:alert(1)', 'ftp://host/x.png', 'not a url']) {
      await expectGatewayError(c.imageBytes({ url }), 'protocol');
    }
    assert.equal(fetched, 0);
  });

  for (const status of [403, 404, 410]) {
    it(`an expired URL (${status}) -> not_found "expired; generate again", not retried`, async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(status, { 'Content-Type': 'application/xml' });
        res.end('<Error><Code>AccessDenied</Code></Error>');
      });
      const error = await expectGatewayError(client(server.baseUrl).imageBytes({ url: `${server.origin}/img.png` }), 'not_found');
      assert.match(error.message, /^The image URL expired before it could be downloaded; generate again/);
      assert.equal(server.requests.length, 1);
    });
  }

  it('a 503 from the image host is retried', async () => {
    const server = await startServer((_req, res, _r, index) => {
      if (index === 0) {
        res.writeHead(503);
        return void res.end();
      }
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(PNG_1x1);
    });
    assert.deepEqual(Buffer.from(await client(server.baseUrl).imageBytes({ url: `${server.origin}/img.png` })), PNG_1x1);
    assert.equal(server.requests.length, 2);
  });

  it('an HTML page instead of an image is a protocol error that names the content type', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<html><body>login</body></html>');
    });
    const error = await expectGatewayError(client(server.baseUrl).imageBytes({ url: `${server.origin}/img.png` }), 'protocol');
    assert.match(error.message, /not a PNG, JPEG or WebP image .*content type text\/html/);
  });

  it('refuses an image over the cap by Content-Length, before reading it', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(64 * 1024) });
      res.end(Buffer.concat([PNG_1x1, Buffer.alloc(64 * 1024 - PNG_1x1.length)]));
    });
    const error = await expectGatewayError(client(server.baseUrl, { maxImageBytes: 1024 }).imageBytes({ url: `${server.origin}/big.png` }), 'protocol');
    assert.match(error.message, /larger than the 1 KB limit/);
  });

  it('stops reading a chunked image (no Content-Length) once it passes the cap; the connection is closed', async () => {
    let written = 0;
    const server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' }); // chunked, no length
      res.write(PNG_1x1);
      for (let i = 0; i < 400 && !res.destroyed; i++) {
        await new Promise<void>((r) => res.write(Buffer.alloc(16 * 1024), () => r()));
        written++;
      }
      res.end();
    });
    await expectGatewayError(client(server.baseUrl, { maxImageBytes: 100 * 1024 }).imageBytes({ url: `${server.origin}/endless.png` }), 'protocol');
    await server.requests[0]!.socketClosed;
    assert.ok(written < 400, `server wrote ${written} chunks; the client kept reading`);
  });

  it('the default cap is 25 MB', function () {
    this.timeout(30_000);
    const big = Buffer.concat([PNG_1x1, Buffer.alloc(25 * 1024 * 1024)]).toString('base64');
    assert.throws(
      () => decodeBase64Image(big),
      (e: unknown) => e instanceof GatewayError && /25 MB/.test(e.message),
    );
  });
});

describe('core/models: listModels', () => {
  it("accepts {data:[{id}]} and a bare array, and returns [{id}] with the entries' other fields (model facts)", async () => {
    const wrapped = await jsonServer({ object: 'list', data: [{ id: 'flagship-text', owned_by: 'x' }, { id: 'image-restricted' }] });
    assert.deepEqual(await client(wrapped.baseUrl).listModels(), [{ id: 'flagship-text', owned_by: 'x' }, { id: 'image-restricted' }]);
    assert.equal(wrapped.requests[0]!.method, 'GET');
    assert.equal(wrapped.requests[0]!.url, '/v1/models');
    assert.equal(wrapped.requests[0]!.headers.authorization, `Bearer ${KEY}`);
    const bare = await jsonServer([{ id: 'a' }, 'b']);
    assert.deepEqual(await client(bare.baseUrl).listModels(), [{ id: 'a' }, { id: 'b' }]);
  });

  it('a wrong shape is a protocol error; a 401 is auth', async () => {
    const wrong = await jsonServer({ data: [{ name: 'no id' }] });
    await expectGatewayError(client(wrong.baseUrl).listModels(), 'protocol');
    const denied = await jsonServer({ error: { message: 'bad key' } }, 401);
    await expectGatewayError(client(denied.baseUrl).listModels(), 'auth');
  });
});
