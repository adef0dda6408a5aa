// Everything one running simulator remembers: keys and balances, the prompt cache, queued
// faults, recorded requests and published images. `reset()` puts it back to how it started.
import type { IncomingHttpHeaders } from 'node:http';
import { insufficientBalance, invalidApiKey } from './api-error';
import { applyChannelPatch, ChannelLedger, defaultChannelProfiles, type ChannelPatch, type ChannelProfiles } from './channel-profiles';
import { FaultQueue } from './faults';
import { ImageStore } from './image-store';
import { PromptCache } from './prompt-cache';
import { PrefixUnits } from './prompt-units';
import { seededRng, type Rng } from './rng';
import type { Channel } from '../../src/core/client/types';
import type { ModelsForm } from './models';

export interface RecordedRequest {
  server: 'api' | 'images';
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  at: number;
}

/** One chat stream as the simulator saw it (GET /__sim/streams): what was planned, sent and charged. */
export interface StreamRecord {
  id: string;
  model: string;
  channel: Channel;
  /** a fill-in-the-middle request (the completions mode): billed as streamed */
  fim: boolean;
  /** the request's `user` field, when it had one (tells requests apart) */
  user?: string;
  /** when the request arrived: performance.timeOrigin + performance.now() (ms, comparable across processes on one machine) */
  arrivedAt: number;
  /** when the stream ended or the client went, on the same clock */
  endedAt?: number;
  promptTokens: number;
  cachedTokens: number;
  /** completion tokens of the whole answer, and of what was sent before the stream ended */
  plannedTokens: number;
  sentTokens: number;
  /** content chunks of the answer, and how many were sent */
  contentChunks: number;
  sentChunks: number;
  /** the client closed the stream before its end: while the answer was still awaited, or while it streamed */
  closedEarly?: 'waiting' | 'streaming';
  /** USD charged for this request */
  charged: number;
}

export interface ResolvedOptions {
  keys: Record<string, { balance: number }>;
  latency: 'none' | 'realistic';
  failures: boolean;
  imageUrlTtlMs: number;
  rejectStreamOptions: boolean;
  /** GET /models answers after this many ms (a slow listing, as at start-up on a busy gateway) */
  modelsDelayMs: number;
  /** the metadata form of GET /models entries (models.ts) */
  modelsForm: ModelsForm;
  /** raw entries appended to GET /models */
  extraModels: unknown[];
  /** the simulator's own models this gateway lists and serves; undefined = all of them */
  servedModels: readonly string[] | undefined;
  seed: number;
  /** the demo's scripted answers about the sample workspace (demo-answers.ts) and its console page (`npm start`) */
  demo: boolean;
  /** per-channel changes to the default profiles, applied at start and on reset */
  channels: Partial<Record<Channel, ChannelPatch>>;
}

export class GatewayState {
  readonly balances = new Map<string, number>();
  /** what advanceClock() moved the simulator's clock past the real one (ms) */
  clockOffsetMs = 0;
  /** the simulator's clock: what prompt caches expire by (tests move it with advanceClock) */
  readonly now = (): number => Date.now() + this.clockOffsetMs;
  /** OpenAI-style prompt cache (prompt-cache.ts) */
  readonly cache = new PromptCache(this.now);
  /** DeepSeek-style cache prefix units (prompt-units.ts) */
  readonly units = new PrefixUnits(this.now);
  readonly faults = new FaultQueue();
  /** the same array for the simulator's whole life: tests may hold on to it */
  readonly requests: RecordedRequest[] = [];
  readonly images: ImageStore;
  /** aborted when the simulator closes, so stalled responses end */
  readonly live = new Set<AbortController>();
  rng: Rng;
  /** how each channel behaves now (tests change it while the simulator runs) */
  channels: ChannelProfiles = defaultChannelProfiles();
  /** what each model × channel did */
  readonly channelLedger = new ChannelLedger();
  imageHostUrl = '';
  /** set while GET /models is held (holdModelList); resolves on release */
  modelsHeld: Promise<void> | undefined;
  /** set while chat streams are held (holdStreams): each pauses after its first content chunk until release */
  streamsHeld: Promise<void> | undefined;
  /** every streamed chat answer, in order of arrival (the same array for the simulator's whole life) */
  readonly streams: StreamRecord[] = [];
  private sequence = 0;

  constructor(readonly options: ResolvedOptions) {
    this.images = new ImageStore(options.imageUrlTtlMs);
    this.rng = seededRng(options.seed);
    this.reset();
  }

  get realistic(): boolean {
    return this.options.latency === 'realistic';
  }

  reset(): void {
    this.balances.clear();
    for (const [key, { balance }] of Object.entries(this.options.keys)) this.balances.set(key, balance);
    this.cache.clear();
    this.units.clear();
    this.clockOffsetMs = 0;
    this.faults.clear();
    this.requests.length = 0;
    this.images.clear();
    this.rng = seededRng(this.options.seed);
    this.sequence = 0;
    this.channels = defaultChannelProfiles();
    for (const [channel, patch] of Object.entries(this.options.channels)) if (patch) applyChannelPatch(this.channels[channel as Channel], patch);
    this.channelLedger.clear();
    this.streams.length = 0;
  }

  nextId(): string {
    return `sim${(++this.sequence).toString(36).padStart(6, '0')}`;
  }

  /** The key of a request, or a 401. The key itself never appears in an error or a log. */
  authenticate(headers: IncomingHttpHeaders): string {
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.authorization ?? '');
    const key = m?.[1];
    if (key === undefined || !this.balances.has(key)) throw invalidApiKey();
    return key;
  }

  /** Prepaid: a key with nothing left gets a 402 before any work is done. */
  requireBalance(key: string): void {
    if ((this.balances.get(key) ?? 0) <= 0) throw insufficientBalance();
  }

  /** The last request may take a balance below zero, as with real prepaid gateways. */
  charge(key: string, usd: number): void {
    this.balances.set(key, (this.balances.get(key) ?? 0) - usd);
  }
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'api-key', 'x-api-key']);

/** Copy of a recorded request fit to leave the process: credentials replaced. */
export function redacted(request: RecordedRequest): RecordedRequest {
  const headers: RecordedRequest['headers'] = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = SECRET_HEADERS.has(name) && value !== undefined ? '<redacted>' : value;
  return { ...request, headers };
}
