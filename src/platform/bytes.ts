// Platform seam: bytes <-> base64 and UTF-8. Node build: Buffer (fast, native). The browser build
// swaps in bytes.web.ts (esbuild.mjs, `platformSeam`).

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Decodes base64 (standard alphabet; whitespace and a missing padding tolerated, like Buffer). */
export function fromBase64(base64: string): Uint8Array {
  const b = Buffer.from(base64, 'base64');
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export function utf8ByteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

export function utf8Encode(s: string): Uint8Array {
  return Buffer.from(s, 'utf8');
}
