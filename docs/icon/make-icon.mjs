#!/usr/bin/env node
// Draws media/icon.png (128 x 128 RGBA): a white gate (an arch on two pillars) on an indigo
// rounded square, with an amber four-pointed spark inside the gate. Only Node built-ins: the
// shapes are signed distances sampled 4 x 4 per pixel, the PNG bytes are written here.
// Run from the repository root: node docs/icon/make-icon.mjs [out.png] [size]
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const out = process.argv[2] ?? 'media/icon.png';
const size = Number(process.argv[3] ?? 128);
const k = size / 128; // the drawing is in 128-unit coordinates
const SS = 4; // samples per pixel along each axis

// The shapes, in 128-unit coordinates. Each test answers: is the point inside?
const inRoundedSquare = (x, y) => {
  const r = 26;
  const dx = Math.max(Math.abs(x - 64) - (64 - r), 0);
  const dy = Math.max(Math.abs(y - 64) - (64 - r), 0);
  return dx * dx + dy * dy <= r * r;
};
// Gate: an outer arch (half disc of radius 36 over a 72-wide block) minus the opening (radius 18).
const arch = { cx: 64, cy: 58, outer: 38, inner: 20, bottom: 106 };
const inArchShape = (x, y, r) =>
  y <= arch.bottom && Math.abs(x - arch.cx) <= r && (y >= arch.cy || (x - arch.cx) ** 2 + (y - arch.cy) ** 2 <= r * r);
const inGate = (x, y) => inArchShape(x, y, arch.outer) && !inArchShape(x, y, arch.inner);
// Spark: an astroid |x|^(2/3) + |y|^(2/3) <= r^(2/3), the classic four-pointed star.
const spark = { cx: 64, cy: 80, r: 19 };
const inSpark = (x, y) => {
  const p = 2 / 3;
  return Math.abs(x - spark.cx) ** p + Math.abs(y - spark.cy) ** p <= spark.r ** p;
};

const top = [79, 70, 229]; // #4f46e5
const bottom = [30, 27, 75]; // #1e1b4b
const white = [255, 255, 255];
const amber = [251, 191, 36]; // #fbbf24

const rgba = Buffer.alloc(size * size * 4);
for (let py = 0; py < size; py++) {
  for (let px = 0; px < size; px++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const x = (px + (sx + 0.5) / SS) / k;
        const y = (py + (sy + 0.5) / SS) / k;
        if (!inRoundedSquare(x, y)) continue;
        const t = y / 128;
        let c = top.map((v, i) => v + (bottom[i] - v) * t);
        if (inGate(x, y)) c = white;
        else if (inSpark(x, y)) c = amber;
        r += c[0]; g += c[1]; b += c[2]; a += 1;
      }
    }
    const o = (py * size + px) * 4;
    // Colour averaged over the covered samples (straight alpha), coverage as alpha.
    rgba[o] = a ? Math.round(r / a) : 0;
    rgba[o + 1] = a ? Math.round(g / a) : 0;
    rgba[o + 2] = a ? Math.round(b / a) : 0;
    rgba[o + 3] = Math.round((255 * a) / (SS * SS));
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let i = 0; i < 8; i++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(size, 0);
ihdr.writeUInt32BE(size, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
// compression, filter and interlace methods stay 0
const raw = Buffer.alloc(size * (size * 4 + 1));
for (let y = 0; y < size; y++) {
  raw[y * (size * 4 + 1)] = 0; // filter: none
  rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
}
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(out, png);
console.log(`${out}: ${size} x ${size}, ${png.length} bytes`);
