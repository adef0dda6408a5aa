// Deterministic randomness: the failure and latency profiles draw from a seeded generator so
// a run with the same seed fails the same requests; answers and images derive from hashes of
// their input so the same request always gets the same output.
import { createHash } from 'node:crypto';

export type Rng = () => number;

/** mulberry32: small, fast, good enough for jitter and failure draws. Returns [0, 1). */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Stable 32-bit hash of a string (first 4 bytes of its SHA-256). */
export function hash32(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

export function hashHex(text: string, length = 16): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/** Picks from a list by a hash-derived generator. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}
