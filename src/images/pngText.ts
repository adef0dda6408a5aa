// PNG text chunks (tEXt / iTXt, PNG spec 11.3.4), so a saved image carries how it was made:
// the prompt, the revised prompt, the model, the size and the time. Image viewers and tools
// such as exiftool show these.
// Written by hand because the job is small (a chunk walk and CRC-32) and no maintained npm
// package does just this without pulling in a whole image codec. Pure.

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

let crcTable: Uint32Array | undefined;

/** CRC-32 (ISO-HDLC, polynomial 0xEDB88320), as every PNG chunk carries over its type and data. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export interface PngChunk {
  type: string;
  /** offset of the chunk's length field in the file */
  offset: number;
  /** total bytes of the chunk: length + type + data + crc */
  size: number;
  data: Uint8Array;
}

export class InvalidPngError extends Error {
  override name = 'InvalidPngError';
}

/**
 * Walks the chunks and checks the structure: signature, lengths inside the file, every CRC,
 * IHDR first, IEND last with nothing after it. Throws InvalidPngError otherwise.
 */
export function readPngChunks(png: Uint8Array): PngChunk[] {
  if (png.length < SIGNATURE.length || !SIGNATURE.every((b, i) => png[i] === b)) throw new InvalidPngError('not a PNG (bad signature)');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks: PngChunk[] = [];
  let offset = SIGNATURE.length;
  while (offset < png.length) {
    if (offset + 12 > png.length) throw new InvalidPngError(`truncated chunk at byte ${offset}`);
    const length = view.getUint32(offset);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > png.length) throw new InvalidPngError(`chunk at byte ${offset} runs past the end of the file`);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    if (!/^[A-Za-z]{4}$/.test(type)) throw new InvalidPngError(`bad chunk type at byte ${offset}`);
    const crc = view.getUint32(offset + 8 + length);
    if (crc !== crc32(png, offset + 4, offset + 8 + length)) throw new InvalidPngError(`CRC mismatch in ${type} chunk`);
    chunks.push({ type, offset, size: 12 + length, data: png.subarray(offset + 8, offset + 8 + length) });
    offset = end;
    if (type === 'IEND') break;
  }
  if (chunks[0]?.type !== 'IHDR') throw new InvalidPngError('the first chunk is not IHDR');
  if (chunks[chunks.length - 1].type !== 'IEND') throw new InvalidPngError('no IEND chunk');
  if (offset !== png.length) throw new InvalidPngError('bytes after IEND');
  if (!chunks.some((c) => c.type === 'IDAT')) throw new InvalidPngError('no image data (IDAT)');
  return chunks;
}

function encodeChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** Keywords: 1-79 printable Latin-1 characters, no leading, trailing or double spaces. */
function checkKeyword(keyword: string): void {
  if (!/^[\x21-\x7e\xa1-\xff](?:[\x21-\x7e\xa1-\xff]| (?! ))*$/.test(keyword) || keyword.length > 79 || keyword.endsWith(' ')) {
    throw new Error(`invalid PNG text keyword: ${JSON.stringify(keyword)}`);
  }
}

const latin1 = (s: string) => Uint8Array.from(s, (ch) => ch.charCodeAt(0));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/**
 * One text chunk: tEXt when the text is plain Latin-1 (readable by every tool), otherwise an
 * uncompressed iTXt, which holds UTF-8 (prompts may be in any language).
 */
export function textChunk(keyword: string, text: string): Uint8Array {
  checkKeyword(keyword);
  const zero = Uint8Array.of(0);
  // tEXt allows Latin-1 printable characters and newline (PNG spec 11.3.4.3).
  if (/^[\n\x20-\x7e\xa1-\xff]*$/.test(text)) return encodeChunk('tEXt', concat(latin1(keyword), zero, latin1(text)));
  // keyword, 0, compression flag 0, method 0, language tag "", 0, translated keyword "", 0, text
  return encodeChunk('iTXt', concat(latin1(keyword), zero, Uint8Array.of(0, 0), zero, zero, new TextEncoder().encode(text)));
}

/**
 * A copy of `png` with text chunks inserted right after IHDR (before the image data, where
 * readers look first). Validates the PNG first and throws InvalidPngError on a broken one, so
 * corrupt bytes are never written with a fresh, valid-looking header.
 */
export function insertPngText(png: Uint8Array, entries: ReadonlyArray<readonly [keyword: string, text: string]>): Uint8Array {
  const chunks = readPngChunks(png);
  const ihdrEnd = chunks[0].offset + chunks[0].size;
  const inserted = entries.filter(([, text]) => text !== '').map(([k, t]) => textChunk(k, t));
  return concat(png.subarray(0, ihdrEnd), ...inserted, png.subarray(ihdrEnd));
}

/** The tEXt and uncompressed iTXt entries of a PNG, in file order. */
export function readPngText(png: Uint8Array): Array<[keyword: string, text: string]> {
  const out: Array<[string, string]> = [];
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (const chunk of readPngChunks(png)) {
    const d = chunk.data;
    const nul = d.indexOf(0);
    if (nul < 0) continue;
    const keyword = String.fromCharCode(...d.subarray(0, nul));
    if (chunk.type === 'tEXt') {
      out.push([keyword, String.fromCharCode(...d.subarray(nul + 1))]);
    } else if (chunk.type === 'iTXt') {
      const compressed = d[nul + 1] === 1;
      const langEnd = d.indexOf(0, nul + 3);
      const translatedEnd = langEnd < 0 ? -1 : d.indexOf(0, langEnd + 1);
      if (compressed || translatedEnd < 0) continue;
      out.push([keyword, decoder.decode(d.subarray(translatedEnd + 1))]);
    }
  }
  return out;
}
