// How the three channels differ: latency (time to first token), throughput (pause
// between streamed chunks), reliability (error rate), price and context window ("direct is a
// direct upstream connection: native behavior and the full context window"). `direct` is fast
// with an occasional 502 from the upstream, `stable` is routed for reliability, `economical`
// for price (slow, fails more). A channel can refuse a model. Tests change all of it while the
// simulator runs (`setChannel()`, `POST /__sim/channel`), and the simulator keeps its own record
// of what each model × channel did (`channelRecord()`, `GET /__sim/channels`) to compare with.
import { z } from 'zod';
import type { Channel } from '../../src/core/client/types';
import type { ChatPrice } from './prices';
import type { Rng } from './rng';

export interface ChannelProfile {
  /** time to first token on a tiny prompt */
  firstTokenMs: number;
  /** extra time to first token per 1K uncached prompt tokens (the interface: it grows with input length) */
  perKiloPromptTokenMs: number;
  /** pause between streamed chunks (throughput) */
  perChunkMs: number;
  /** time to make one image */
  imageMs: number;
  /** share of requests that fail (with the simulator's `failures` on, or `failing`) */
  failureRate: number;
  failureStatus: 502 | 503;
  /** line ending of the SSE stream: some proxies re-frame streams with CRLF */
  lineEnding: '\n' | '\r\n';
  /** share of each model's context window this channel offers; only `direct` gives all of it */
  contextShare: number;
  /** model ids this channel does not serve: a 400 `unsupported_channel` */
  refuses: string[];
  /** USD per 1M tokens by model, replacing the price card's entry for this channel */
  prices: Record<string, ChatPrice>;
  /** latency applies even with the simulator's `latency: 'none'` */
  paced: boolean;
  /** the error rate applies even with the simulator's `failures: false` */
  failing: boolean;
}

export type ChannelProfiles = Record<Channel, ChannelProfile>;

const base = { refuses: [] as string[], prices: {} as Record<string, ChatPrice>, paced: false, failing: false };

/** The defaults; the simulator works on a copy (`defaultChannelProfiles()`). */
export const CHANNEL_PROFILES: Readonly<ChannelProfiles> = {
  direct: {
    ...base,
    firstTokenMs: 250,
    perKiloPromptTokenMs: 2,
    perChunkMs: 18,
    imageMs: 2500,
    failureRate: 0.03,
    failureStatus: 502,
    lineEnding: '\n',
    contextShare: 1,
  },
  stable: {
    ...base,
    firstTokenMs: 600,
    perKiloPromptTokenMs: 3,
    perChunkMs: 30,
    imageMs: 4000,
    failureRate: 0.01,
    failureStatus: 503,
    lineEnding: '\n',
    contextShare: 0.75,
  },
  economical: {
    ...base,
    firstTokenMs: 1500,
    perKiloPromptTokenMs: 5,
    perChunkMs: 55,
    imageMs: 7000,
    failureRate: 0.1,
    failureStatus: 503,
    lineEnding: '\r\n',
    contextShare: 0.5,
  },
};

export function defaultChannelProfiles(): ChannelProfiles {
  const copy = (p: ChannelProfile): ChannelProfile => ({ ...p, refuses: [...p.refuses], prices: { ...p.prices } });
  return { direct: copy(CHANNEL_PROFILES.direct), stable: copy(CHANNEL_PROFILES.stable), economical: copy(CHANNEL_PROFILES.economical) };
}

const ms = z.number().int().nonnegative().max(600_000);
const price = z.object({ input: z.number().nonnegative(), output: z.number().nonnegative(), cacheRead: z.number().nonnegative().optional() });

/** A change to one channel's profile; what is left out stays as it is. */
export const channelPatchSchema = z.strictObject({
  firstTokenMs: ms.optional(),
  perKiloPromptTokenMs: ms.optional(),
  perChunkMs: ms.optional(),
  imageMs: ms.optional(),
  failureRate: z.number().min(0).max(1).optional(),
  failureStatus: z.union([z.literal(502), z.literal(503)]).optional(),
  lineEnding: z.enum(['\n', '\r\n']).optional(),
  contextShare: z.number().gt(0).max(1).optional(),
  refuses: z.array(z.string().min(1)).optional(),
  prices: z.record(z.string().min(1), price).optional(),
  paced: z.boolean().optional(),
  failing: z.boolean().optional(),
});
export type ChannelPatch = z.infer<typeof channelPatchSchema>;

export const channelRequestSchema = channelPatchSchema.extend({ channel: z.enum(['direct', 'stable', 'economical']) });

/**
 * Applies a patch. Setting a latency switches `paced` on, setting an error rate `failing`, unless
 * the patch says otherwise: a test that sets one channel's behaviour wants to see it without
 * turning on the random profile of every channel.
 */
export function applyChannelPatch(profile: ChannelProfile, patch: ChannelPatch): void {
  const parsed = channelPatchSchema.parse(patch);
  const latency = ['firstTokenMs', 'perKiloPromptTokenMs', 'perChunkMs', 'imageMs'].some((k) => k in parsed);
  Object.assign(profile, parsed);
  if (parsed.refuses) profile.refuses = [...parsed.refuses];
  if (parsed.prices) profile.prices = { ...profile.prices, ...parsed.prices };
  if (latency && parsed.paced === undefined) profile.paced = true;
  if (parsed.failureRate !== undefined && parsed.failing === undefined) profile.failing = true;
}

export interface Pacing {
  firstByteMs: number;
  chunkMs: () => number;
}

const NO_DELAY: Pacing = { firstByteMs: 0, chunkMs: () => 0 };

/** ±30% jitter from the seeded generator. */
const jitter = (rng: Rng, ms: number): number => Math.round(ms * (0.7 + 0.6 * rng()));

const profileOf = (p: Channel | ChannelProfile): ChannelProfile => (typeof p === 'string' ? CHANNEL_PROFILES[p] : p);

export function chatPacing(realistic: boolean, channel: Channel | ChannelProfile, uncachedPromptTokens: number, rng: Rng): Pacing {
  const p = profileOf(channel);
  if (!realistic && !p.paced) return NO_DELAY;
  return {
    firstByteMs: jitter(rng, p.firstTokenMs) + Math.round((uncachedPromptTokens / 1000) * p.perKiloPromptTokenMs),
    chunkMs: () => jitter(rng, p.perChunkMs),
  };
}

export function imageDelayMs(realistic: boolean, channel: Channel | ChannelProfile, n: number, rng: Rng): number {
  const p = profileOf(channel);
  if (!realistic && !p.paced) return 0;
  return jitter(rng, p.imageMs) * Math.max(1, Math.ceil(n / 4));
}

/** Draws whether this request fails; `undefined` = it goes through. */
export function drawFailure(enabled: boolean, channel: Channel | ChannelProfile, rng: Rng): { status: 502 | 503 } | undefined {
  const p = profileOf(channel);
  if (!enabled && !p.failing) return undefined;
  if (p.failureRate <= 0) return undefined;
  return rng() < p.failureRate ? { status: p.failureStatus } : undefined;
}

/** The context window a model has on a channel. */
export function channelContextWindow(modelWindow: number, profile: ChannelProfile): number {
  return Math.floor(modelWindow * profile.contextShare);
}

/** What the simulator did on one model × channel: its own record, for tests to compare with. */
export interface ChannelRecord {
  model: string;
  channel: Channel;
  /** generation requests that reached the channel (after validation and the balance check) */
  requests: number;
  /** of those, failed by the channel's error rate (status 502/503) */
  failures: number;
  /** refused because the channel does not serve the model */
  refusals: number;
  /** the delay before the first byte of each answered request, as planned (ms) */
  firstTokenMs: number[];
  /** the pauses between chunks summed, per answered request (ms) */
  streamMs: number[];
  completionTokens: number;
}

export class ChannelLedger {
  private readonly records = new Map<string, ChannelRecord>();

  entry(model: string, channel: Channel): ChannelRecord {
    const k = `${model}\u0000${channel}`;
    let r = this.records.get(k);
    if (!r) {
      r = { model, channel, requests: 0, failures: 0, refusals: 0, firstTokenMs: [], streamMs: [], completionTokens: 0 };
      this.records.set(k, r);
    }
    return r;
  }

  all(): ChannelRecord[] {
    return [...this.records.values()].map((r) => ({ ...r, firstTokenMs: [...r.firstTokenMs], streamMs: [...r.streamMs] }));
  }

  clear(): void {
    this.records.clear();
  }
}
