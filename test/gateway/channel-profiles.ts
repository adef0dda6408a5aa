// How the three channels (spec 2.4) differ besides price: latency and reliability.
// `direct` is a direct upstream connection (fast first token, occasional 502 from the
// upstream), `stable` is routed for reliability, `economical` for price (slow, fails more).
import type { Channel } from '../../src/core/types';
import type { Rng } from './rng';

export interface ChannelProfile {
  /** time to first token on a tiny prompt */
  firstTokenMs: number;
  /** extra time to first token per 1K uncached prompt tokens (spec 8: it grows with input length) */
  perKiloPromptTokenMs: number;
  /** pause between streamed chunks */
  perChunkMs: number;
  /** time to make one image */
  imageMs: number;
  /** share of requests that fail when failures are on */
  failureRate: number;
  failureStatus: 502 | 503;
  /** line ending of the SSE stream: some proxies re-frame streams with CRLF */
  lineEnding: '\n' | '\r\n';
}

export const CHANNEL_PROFILES: Record<Channel, ChannelProfile> = {
  direct: { firstTokenMs: 250, perKiloPromptTokenMs: 2, perChunkMs: 18, imageMs: 2500, failureRate: 0.03, failureStatus: 502, lineEnding: '\n' },
  stable: { firstTokenMs: 600, perKiloPromptTokenMs: 3, perChunkMs: 30, imageMs: 4000, failureRate: 0.01, failureStatus: 503, lineEnding: '\n' },
  economical: { firstTokenMs: 1500, perKiloPromptTokenMs: 5, perChunkMs: 55, imageMs: 7000, failureRate: 0.1, failureStatus: 503, lineEnding: '\r\n' },
};

export interface Pacing {
  firstByteMs: number;
  chunkMs: () => number;
}

const NO_DELAY: Pacing = { firstByteMs: 0, chunkMs: () => 0 };

/** ±30% jitter from the seeded generator. */
const jitter = (rng: Rng, ms: number): number => Math.round(ms * (0.7 + 0.6 * rng()));

export function chatPacing(realistic: boolean, channel: Channel, uncachedPromptTokens: number, rng: Rng): Pacing {
  if (!realistic) return NO_DELAY;
  const p = CHANNEL_PROFILES[channel];
  return {
    firstByteMs: jitter(rng, p.firstTokenMs) + Math.round((uncachedPromptTokens / 1000) * p.perKiloPromptTokenMs),
    chunkMs: () => jitter(rng, p.perChunkMs),
  };
}

export function imageDelayMs(realistic: boolean, channel: Channel, n: number, rng: Rng): number {
  if (!realistic) return 0;
  return jitter(rng, CHANNEL_PROFILES[channel].imageMs) * Math.max(1, Math.ceil(n / 4));
}

/** Draws whether this request fails; `undefined` = it goes through. */
export function drawFailure(enabled: boolean, channel: Channel, rng: Rng): { status: 502 | 503 } | undefined {
  if (!enabled) return undefined;
  const p = CHANNEL_PROFILES[channel];
  return rng() < p.failureRate ? { status: p.failureStatus } : undefined;
}
