import * as assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { crc32, insertPngText, InvalidPngError, readPngChunks, readPngText, textChunk } from '../../../src/images/pngText';

/** A real 2x2 RGBA PNG, built independently of the code under test (zlib's own crc32). */
function makePng(): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rows = Buffer.from([0, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 0, 255, 255, 1, 2, 3, 4]);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', zlib.deflateSync(rows)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** Independent structural check: every CRC by zlib, IHDR first, IEND last, pixels inflate back. */
function independentCheck(png: Uint8Array): { types: string[]; pixels: Buffer } {
  const buf = Buffer.from(png);
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const types: string[] = [];
  const idat: Buffer[] = [];
  let at = 8;
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    assert.equal(buf.readUInt32BE(at + 8 + len), zlib.crc32(buf.subarray(at + 4, at + 8 + len)), `CRC of ${type}`);
    if (type === 'IDAT') idat.push(buf.subarray(at + 8, at + 8 + len));
    types.push(type);
    at += 12 + len;
  }
  assert.equal(at, buf.length);
  assert.equal(types[0], 'IHDR');
  assert.equal(types[types.length - 1], 'IEND');
  return { types, pixels: zlib.inflateSync(Buffer.concat(idat)) };
}

describe('images: PNG text chunks', () => {
  it('computes the standard CRC-32', () => {
    assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
    assert.equal(crc32(new TextEncoder().encode('IEND')), 0xae426082);
  });

  it('inserts chunks after IHDR and the PNG stays valid with the same pixels', () => {
    const png = makePng();
    const before = independentCheck(png);
    const out = insertPngText(png, [
      ['Description', 'a sunset over mountains'],
      ['Model', 'image-restricted'],
    ]);
    const after = independentCheck(out);
    assert.deepEqual(after.types, ['IHDR', 'tEXt', 'tEXt', 'IDAT', 'IEND']);
    assert.deepEqual(after.pixels, before.pixels);
    assert.equal(out.length, png.length + 12 + 'Description'.length + 1 + 23 + 12 + 'Model'.length + 1 + 16);
  });

  it('reads back what it wrote, UTF-8 prompts included (as iTXt)', () => {
    const entries: Array<[string, string]> = [
      ['Description', 'Ein Sonnenuntergang über den Bergen, 夕焼け 🌄'],
      ['Revised Prompt', 'A vivid sunset.\nSecond line.'],
      ['Size', '1024x1024'],
    ];
    const out = insertPngText(makePng(), entries);
    assert.deepEqual(readPngText(out), entries);
    const types = readPngChunks(out).map((c) => c.type);
    assert.deepEqual(types, ['IHDR', 'iTXt', 'tEXt', 'tEXt', 'IDAT', 'IEND']);
  });

  it('skips empty texts', () => {
    const out = insertPngText(makePng(), [
      ['Revised Prompt', ''],
      ['Model', 'm'],
    ]);
    assert.deepEqual(readPngText(out), [['Model', 'm']]);
  });

  it('refuses broken PNGs instead of dressing them up', () => {
    const png = makePng();
    const flipped = png.slice();
    flipped[png.length - 20] ^= 0xff; // inside IDAT
    assert.throws(() => insertPngText(flipped, [['Model', 'm']]), InvalidPngError);
    assert.throws(() => insertPngText(png.subarray(0, png.length - 12), [['Model', 'm']]), /no IEND|truncated/);
    assert.throws(() => insertPngText(new TextEncoder().encode('<html>gone</html>'), [['Model', 'm']]), /signature/);
    const trailing = new Uint8Array([...png, 1, 2, 3]);
    assert.throws(() => readPngChunks(trailing), /after IEND/);
  });

  it('refuses invalid keywords', () => {
    assert.throws(() => textChunk('', 'x'), /keyword/);
    assert.throws(() => textChunk(' lead', 'x'), /keyword/);
    assert.throws(() => textChunk('two  spaces', 'x'), /keyword/);
    assert.throws(() => textChunk('k'.repeat(80), 'x'), /keyword/);
    assert.doesNotThrow(() => textChunk('Creation Time', 'x'));
  });
});
