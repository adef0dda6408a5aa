// A minimal PNG encoder (8-bit RGB, no interlace) so the simulator returns real image files
// without an image library: the format is a signature plus CRC-checked chunks around a zlib
// stream of filtered scanlines, which node:zlib provides.
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { hash32, seededRng } from './rng';

const deflateAsync = promisify(deflate);

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (the PNG/zlib one) of the concatenation of `parts`. */
export function crc32(...parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const bytes of parts) {
    for (let i = 0; i < bytes.length; i++) c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(head.subarray(4, 8), data), 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes RGB pixels (width*height*3 bytes, rows top to bottom). */
export async function encodePng(width: number, height: number, rgb: Uint8Array): Promise<Buffer> {
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1);
    raw[row] = 1; // filter "Sub": each byte minus the one to its left; gradients compress well
    for (let x = 0; x < stride; x++) {
      const v = rgb[y * stride + x] as number;
      const left = x >= 3 ? (rgb[y * stride + x - 3] as number) : 0;
      raw[row + 1 + x] = (v - left) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // adaptive filtering
  ihdr[12] = 0; // no interlace
  // Level 1: several times faster than the default, and the file stays the size of a real image.
  const idat = await deflateAsync(raw, { level: 1 });
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** Chunk type of the padding: ancillary, private, safe to copy (readers skip it; the picture is unchanged). */
export const PADDING_CHUNK = 'paDd';

/**
 * `png` grown to `totalBytes` (when it is smaller) by one padding chunk before IEND, filled with
 * seeded noise: a real, valid PNG of the size a test needs (a save that takes a while to write).
 */
export function padPng(png: Buffer, totalBytes: number, seed = 1): Buffer {
  const room = totalBytes - png.length - 12;
  if (room <= 0) return png;
  const data = Buffer.allocUnsafe(room);
  let x = seed | 1;
  let i = 0;
  for (; i + 4 <= room; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data.writeInt32LE(x, i);
  }
  data.fill(0, i);
  const iend = png.length - 12; // IEND is always the last 12 bytes of what encodePng makes
  return Buffer.concat([png.subarray(0, iend), chunk(PADDING_CHUNK, data), png.subarray(iend)]);
}

/**
 * A picture derived from the prompt: a two-colour diagonal gradient with rings around a
 * hash-placed centre and a little grain, so each prompt looks different and the file has the
 * size of a real image rather than a few hundred bytes.
 */
export function renderPromptPixels(prompt: string, width: number, height: number, variant = 0): Uint8Array {
  const rng = seededRng(hash32(`${variant}:${prompt}`));
  const a = [rng() * 255, rng() * 255, rng() * 255];
  const b = [rng() * 255, rng() * 255, rng() * 255];
  const cx = width * (0.2 + 0.6 * rng());
  const cy = height * (0.2 + 0.6 * rng());
  const ringPeriod = 24 + rng() * 64;
  const out = new Uint8Array(width * height * 3);
  let grain = hash32(prompt) | 1;
  const diag = width + height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x + y) / diag;
      const dx = x - cx;
      const dy = y - cy;
      const ring = Math.cos(Math.sqrt(dx * dx + dy * dy) / ringPeriod) * 28;
      grain ^= grain << 13;
      grain ^= grain >>> 17;
      grain ^= grain << 5;
      const noise = (grain & 7) - 3;
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const v = (a[c] as number) * (1 - t) + (b[c] as number) * t + ring + noise;
        out[i + c] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  }
  return out;
}
