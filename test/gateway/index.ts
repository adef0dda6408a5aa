// The gateway simulator: a real HTTP server on 127.0.0.1 that implements the hosted
// gateway's service interface plus the OpenAI-compatible details the interface leaves
// "not shown", with faults on demand. Used in-process by unit and integration tests and as a
// separate process (cli.ts) by end-to-end tests and the demo. Only Node built-ins and zod.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleApi } from './api-server';
import { applyCors, type CorsPolicy } from './cors';
import type { Fault } from './faults';
import { GatewayState, type RecordedRequest, type StreamRecord } from './gateway-state';
import { handleImageHost } from './image-host';
import { applyChannelPatch, type ChannelPatch, type ChannelProfile, type ChannelProfiles, type ChannelRecord } from './channel-profiles';
import type { Channel } from '../../src/core/client/types';

export type { Fault } from './faults';
export type { RecordedRequest, StreamRecord } from './gateway-state';
export type { ChannelPatch, ChannelProfile, ChannelProfiles, ChannelRecord } from './channel-profiles';
export { PRICE_CARD, chatCost, imageCost } from './prices';
export { DEFAULT_CHANNEL, SIM_CHAT_MODELS, SIM_IMAGE_MODELS, chatModelEntry, type ModelsForm } from './models';
import type { ModelsForm } from './models';

export interface GatewayOptions {
  port?: number; // default 0 (ephemeral); host is always 127.0.0.1
  imagePort?: number; // default 0
  keys?: Record<string, { balance: number }>; // USD; default { 'sk-test': { balance: 100 } }
  latency?: 'none' | 'realistic'; // default 'none' for tests; 'realistic' for the demo (per-channel profiles)
  failures?: boolean; // per-channel random failure profile on/off; default false
  imageUrlTtlMs?: number; // default 60_000; after that the image URL answers 404
  rejectStreamOptions?: boolean; // default false: when true, any chat request with `stream_options` gets 400
  modelsDelayMs?: number; // default 0: GET /models answers after this delay
  modelsForm?: ModelsForm; // default 'minimal': the metadata form of GET /models entries (OpenRouter, vLLM, LiteLLM; see models.ts)
  extraModels?: unknown[]; // raw entries appended to GET /models as given (other forms, bad values, a 500-model list)
  servedModels?: string[]; // default all: the simulator's own models this gateway lists and serves (a gateway without flagship-text)
  seed?: number;
  channels?: Partial<Record<Channel, ChannelPatch>>; // per-channel latency, throughput, error rate, prices, context share, refused models
  demo?: boolean; // default false: scripted answers about the demo's sample workspace (demo-answers.ts) and a console page (GET /console)
  cors?: CorsPolicy; // default 'loopback': any http://127.0.0.1:PORT / localhost origin (browser-hosted workbench); false = no CORS headers
}

export interface RunningGateway {
  baseUrl: string; // 'http://127.0.0.1:PORT/v1'
  imageHostUrl: string; // 'http://127.0.0.1:PORT2' — a SEPARATE origin that serves image URLs
  requests: RecordedRequest[]; // every request to both servers, in order (headers as received)
  injectFault(fault: Fault, times?: number): void; // applies to the next `times` (default 1) generation requests
  clearFaults(): void;
  setCors(policy: CorsPolicy): void; // from the next request on (a browser may still hold a cached preflight)
  setBalance(key: string, usd: number): void;
  setChannel(channel: Channel, patch: ChannelPatch): ChannelProfile; // from the next request on; reset() restores the options' profiles
  channelProfiles(): ChannelProfiles;
  channelRecord(): ChannelRecord[]; // the simulator's own record per model × channel
  streams(): StreamRecord[]; // every streamed chat answer: planned, sent and charged tokens, and whether the client closed it early
  closedStreams(): StreamRecord[]; // the streams the client closed before their end
  reset(): void; // also puts the clock back
  advanceClock(ms: number): number; // moves the simulator's clock (what prompt caches expire by) forward; returns now()
  now(): number; // the simulator's clock: Date.now() plus what advanceClock() added
  balance(key: string): number;
  holdModelList(): () => void; // GET /models answers only once the returned release() is called (a listing still in flight)
  holdStreams(): () => void; // every chat stream pauses after its first content chunk until the returned release() is called (streams surely in flight at once)
  close(): Promise<void>;
}

/** The only address the simulator ever listens on. */
const HOST = '127.0.0.1';

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startGateway(options: GatewayOptions = {}): Promise<RunningGateway> {
  const state = new GatewayState({
    keys: options.keys ?? { 'sk-test': { balance: 100 } },
    latency: options.latency ?? 'none',
    failures: options.failures ?? false,
    imageUrlTtlMs: options.imageUrlTtlMs ?? 60_000,
    rejectStreamOptions: options.rejectStreamOptions ?? false,
    modelsDelayMs: options.modelsDelayMs ?? 0,
    modelsForm: options.modelsForm ?? 'minimal',
    extraModels: options.extraModels ?? [],
    servedModels: options.servedModels,
    seed: options.seed ?? 1,
    channels: options.channels ?? {},
    demo: options.demo ?? false,
  });

  let baseUrl = '';
  let cors = options.cors ?? 'loopback';
  const api = createServer((req, res) => {
    if (!applyCors(cors, req, res)) void handleApi(state, baseUrl, req, res);
  });
  const images = createServer((req, res) => {
    if (!applyCors(cors, req, res)) handleImageHost(state, req, res);
  });
  const apiPort = await listen(api, options.port ?? 0);
  let imagePort: number;
  try {
    imagePort = await listen(images, options.imagePort ?? 0);
  } catch (e) {
    await closeServer(api);
    throw e;
  }
  baseUrl = `http://${HOST}:${apiPort}/v1`;
  state.imageHostUrl = `http://${HOST}:${imagePort}`;

  let closing: Promise<void> | undefined;
  const releaseOnClose: (() => void)[] = [];
  return {
    baseUrl,
    imageHostUrl: state.imageHostUrl,
    requests: state.requests,
    injectFault: (fault, times) => state.faults.push(fault, times),
    clearFaults: () => state.faults.clear(),
    setCors: (policy) => {
      cors = policy;
    },
    setBalance: (key, usd) => void state.balances.set(key, usd),
    setChannel: (channel, patch) => {
      applyChannelPatch(state.channels[channel], patch);
      return { ...state.channels[channel] };
    },
    channelProfiles: () => structuredClone(state.channels),
    channelRecord: () => state.channelLedger.all(),
    streams: () => state.streams.map((r) => ({ ...r })),
    closedStreams: () => state.streams.filter((r) => r.closedEarly).map((r) => ({ ...r })),
    reset: () => state.reset(),
    advanceClock: (ms) => {
      if (!(ms >= 0)) throw new Error('advanceClock(): the clock only moves forward');
      state.clockOffsetMs += ms;
      return state.now();
    },
    now: () => state.now(),
    balance: (key) => {
      const value = state.balances.get(key);
      if (value === undefined) throw new Error('balance(): no such key'); // the key itself is never put in a message
      return value;
    },
    holdModelList: () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      state.modelsHeld = held;
      return () => {
        if (state.modelsHeld === held) state.modelsHeld = undefined;
        release();
      };
    },
    holdStreams: () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      state.streamsHeld = held;
      const done = () => {
        if (state.streamsHeld === held) state.streamsHeld = undefined;
        release();
      };
      releaseOnClose.push(done);
      return done;
    },
    close: () => {
      closing ??= (async () => {
        for (const release of releaseOnClose.splice(0)) release();
        for (const c of state.live) c.abort();
        await Promise.all([closeServer(api), closeServer(images)]);
      })();
      return closing;
    },
  };
}
