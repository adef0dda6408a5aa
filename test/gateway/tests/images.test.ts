import * as assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { startGateway } from '../index';
import { crc32, PADDING_CHUNK, PNG_SIGNATURE } from '../png';
import { images, KEY, useGateway } from './helpers';

interface ImageBody {
  created: number;
  data: { url?: string; b64_json?: string; revised_prompt?: string }[];
}

/** Checks the PNG structure (signature, chunk CRCs, IHDR, decodable IDAT) and returns its size. */
function inspectPng(bytes: Buffer): { width: number; height: number } {
  assert.deepEqual(bytes.subarray(0, 8), PNG_SIGNATURE);
  let offset = 8;
  const types: string[] = [];
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.subarray(offset + 4, offset + 8).toString('ascii');
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    assert.equal(bytes.readUInt32BE(offset + 8 + length), crc32(bytes.subarray(offset + 4, offset + 8), data), `CRC of ${type}`);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.deepEqual([...data.subarray(8)], [8, 2, 0, 0, 0]);
    }
    if (type === 'IDAT') idat.push(data);
    types.push(type);
    offset += 12 + length;
  }
  assert.deepEqual([types[0], types[types.length - 1]], ['IHDR', 'IEND']);
  assert.equal(inflateSync(Buffer.concat(idat)).length, (width * 3 + 1) * height);
  return { width, height };
}

describe('gateway simulator: images', function () {
  // Generous: the machine may be busy; no test asserts on timing.
  this.timeout(30_000);
  const ctx = useGateway();

  it('answers with a URL on the separate image host, and a revised prompt on the restricted model', async () => {
    const res = await images(ctx.gw, { size: '1024x1792', style: 'natural' });
    assert.equal(res.status, 200);
    const body = (await res.json()) as ImageBody;
    assert.ok(Number.isInteger(body.created) && body.created > 1_600_000_000);
    assert.equal(body.data.length, 1);
    const item = body.data[0]!;
    assert.equal(item.b64_json, undefined);
    assert.ok(item.url!.startsWith(`${ctx.gw.imageHostUrl}/img/`));
    assert.match(item.revised_prompt!, /a lighthouse at dusk/);

    const before = ctx.gw.requests.length;
    const img = await fetch(item.url!);
    assert.equal(img.status, 200);
    assert.equal(img.headers.get('content-type'), 'image/png');
    assert.deepEqual(inspectPng(Buffer.from(await img.arrayBuffer())), { width: 1024, height: 1792 });
    const rec = ctx.gw.requests[before]!;
    assert.equal(rec.server, 'images');
    assert.equal(rec.method, 'GET');
    assert.equal(rec.headers.authorization, undefined);
  });

  it('answers response_format b64_json with only b64_json', async () => {
    const body = (await (await images(ctx.gw, { model: 'image-small', size: '512x512', n: 2, response_format: 'b64_json' })).json()) as ImageBody;
    assert.equal(body.data.length, 2);
    for (const item of body.data) {
      assert.deepEqual(Object.keys(item), ['b64_json']);
      assert.deepEqual(inspectPng(Buffer.from(item.b64_json!, 'base64')), { width: 512, height: 512 });
    }
    assert.notEqual(body.data[0]!.b64_json, body.data[1]!.b64_json, 'n images differ');
  });

  it('gives the small model URLs without revised_prompt, in each of its sizes', async () => {
    for (const size of ['256x256', '512x512', '1024x1024']) {
      const body = (await (await images(ctx.gw, { model: 'image-small', size })).json()) as ImageBody;
      assert.deepEqual(Object.keys(body.data[0]!), ['url']);
      const png = Buffer.from(await (await fetch(body.data[0]!.url!)).arrayBuffer());
      const [w, h] = size.split('x').map(Number);
      assert.deepEqual(inspectPng(png), { width: w, height: h });
    }
  });

  it('makes the same picture for the same prompt and a different one for another', async () => {
    const a = ((await (await images(ctx.gw, { response_format: 'b64_json' })).json()) as ImageBody).data[0]!.b64_json;
    const b = ((await (await images(ctx.gw, { response_format: 'b64_json' })).json()) as ImageBody).data[0]!.b64_json;
    const c = ((await (await images(ctx.gw, { prompt: 'a forest', response_format: 'b64_json' })).json()) as ImageBody).data[0]!.b64_json;
    assert.equal(a, b);
    assert.notEqual(a, c);
  });

  it('[[imageMb:N]] pads every image to N MiB with a chunk readers skip: valid PNG, same picture (crash tests)', async () => {
    const plain = (
      (await (await images(ctx.gw, { model: 'image-small', size: '256x256', n: 2, prompt: 'a kite', response_format: 'b64_json' })).json()) as ImageBody
    ).data;
    const padded = (
      (await (
        await images(ctx.gw, { model: 'image-small', size: '256x256', n: 2, prompt: 'a kite [[imageMb:3]]', response_format: 'b64_json' })
      ).json()) as ImageBody
    ).data;
    assert.equal(padded.length, 2);
    for (const [i, item] of padded.entries()) {
      const bytes = Buffer.from(item.b64_json!, 'base64');
      assert.equal(bytes.length, 3 * 1024 * 1024);
      assert.deepEqual(inspectPng(bytes), { width: 256, height: 256 });
      const unpadded = Buffer.from(plain[i]!.b64_json!, 'base64');
      // the same picture (the marker is not part of the prompt it is drawn from), plus one chunk before IEND
      assert.deepEqual(bytes.subarray(0, unpadded.length - 12), unpadded.subarray(0, unpadded.length - 12));
      assert.equal(bytes.subarray(unpadded.length - 8, unpadded.length - 4).toString('ascii'), PADDING_CHUNK);
    }
  });

  it('serves nothing else on the image host', async () => {
    assert.equal((await fetch(`${ctx.gw.imageHostUrl}/img/unknown.png`)).status, 404);
    assert.equal((await fetch(`${ctx.gw.imageHostUrl}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } })).status, 404);
  });

  it('expires image URLs after imageUrlTtlMs', async () => {
    const gw = await startGateway({ imageUrlTtlMs: 50 });
    try {
      const body = (await (await images(gw, { model: 'image-small', size: '256x256' })).json()) as ImageBody;
      const url = body.data[0]!.url!;
      await new Promise((r) => setTimeout(r, 80));
      const res = await fetch(url);
      assert.equal(res.status, 404);
      assert.doesNotMatch(res.headers.get('content-type') ?? '', /image/);
    } finally {
      await gw.close();
    }
  });
});
