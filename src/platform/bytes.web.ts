// Platform seam, web build: base64 with atob/btoa, UTF-8 with TextEncoder. Same results as bytes.ts
// (unit test: test/unit/platform/bytes.test.ts runs both).

const CHUNK = 0x8000;

export function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(bin);
}

export function fromBase64(base64: string): Uint8Array {
  // Buffer ignores characters outside the alphabet and tolerates missing padding; atob does not.
  let clean = base64.replace(/[^A-Za-z0-9+/]/g, '');
  clean = clean.slice(0, clean.length - (clean.length % 4 === 1 ? 1 : 0));
  while (clean.length % 4) clean += '=';
  const bin = atob(clean);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const encoder = new TextEncoder();

export function utf8ByteLength(s: string): number {
  return encoder.encode(s).length;
}

export function utf8Encode(s: string): Uint8Array {
  return encoder.encode(s);
}
