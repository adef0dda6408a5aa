// The one place the extension host makes a GatewayClient. The client is recreated when the
// base URL or timeout changes; the key is read per request through the key store (which keeps
// what SecretStorage last said until SecretStorage says it changed, so a key set in another
// window is used at once) and only ever goes to the configured base URL.
import { createGatewayClient, GatewayError, type GatewayClient } from '../core';
import { l10n } from '../core/l10n';
import { mergeHeaders } from '../core/client/requestHeaders';
import { CHANNEL_CHOICES, type ChannelChoice, type ModelCatalogue } from '../core/catalogue/modelCatalogue';
import type { ChannelHealthStore } from './channelHealthStore';
import type { Settings } from './settings';
import { connectHint } from '../platform/net';
import type { KeyStore } from './keyStore';
import type { Gateway } from './serviceContainer';

export class GatewayService implements Gateway {
  private cached: { key: string; client: GatewayClient } | undefined;

  constructor(
    private readonly settings: () => Settings,
    private readonly keys: KeyStore,
    private readonly fetchImpl?: typeof globalThis.fetch,
  ) {}

  /** The catalogue (per-model request parameters); set by connect() once the catalogue exists. */
  private catalogue: (() => ModelCatalogue) | undefined;
  /** The p90 of a model's measured first-token times on a channel (channel health). */
  private firstTokenP90: ((model: string, channel: string | undefined) => number | undefined) | undefined;

  /** Wires the services made after this one: the catalogue (request parameters) and channel health (first-token bound). */
  connect(catalogue: () => ModelCatalogue, health: Pick<ChannelHealthStore, 'summary'>): void {
    this.catalogue = catalogue;
    this.firstTokenP90 = (model, channel) => {
      const c: ChannelChoice = channel && (CHANNEL_CHOICES as readonly string[]).includes(channel) ? (channel as ChannelChoice) : 'default';
      return health.summary(model, c).p90FirstTokenMs;
    };
  }

  client(): GatewayClient {
    const s = this.settings();
    if (!s.baseUrl) {
      throw new GatewayError('bad_request', s.baseUrlProblem ?? l10n.t('The gateway base URL is not configured.'), {
        retryable: false,
        code: 'invalid_base_url',
      });
    }
    const cacheKey = `${s.baseUrl}|${s.requestTimeoutMs}`;
    if (this.cached?.key !== cacheKey) {
      const origin = s.baseUrlOrigin;
      this.cached = {
        key: cacheKey,
        client: createGatewayClient({
          baseUrl: s.baseUrl,
          // The key of this client's own gateway: a retry still running after the address was
          // changed must not carry the new gateway's key to the old one.
          apiKey: () => (origin ? this.keys.get(origin) : Promise.resolve(undefined)),
          timeoutMs: s.requestTimeoutMs,
          // The gateway's own headers: settings, then the secret ones of this origin (read per request).
          requestHeaders: async () => mergeHeaders(this.settings().requestHeaders, origin ? await this.keys.secretHeaders(origin) : {}),
          modelParams: (model) => this.catalogue?.().chatModel(model)?.params,
          firstTokenP90Ms: (model, channel) => this.firstTokenP90?.(model, channel),
          fetch: origin ? this.noticingKeyAnswers(origin) : this.fetchImpl,
          connectHint: connectHint(),
        }),
      };
    }
    return this.cached.client;
  }

  /**
   * fetch, noting how the gateway at `origin` answers a request that carried its key: 401 marks
   * the stored key rejected (the status bar says so), a success clears that (KeyStore.rejected).
   */
  private noticingKeyAnswers(origin: string): typeof globalThis.fetch {
    const base = this.fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
    return async (input, init) => {
      const response = await base(input, init);
      const keyed = !!init?.headers && new Headers(init.headers).has('authorization');
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (keyed && typeof this.keys.noteAnswer === 'function' && sameOrigin(url, origin)) {
        if (response.status === 401) this.keys.noteAnswer(origin, true);
        else if (response.ok) this.keys.noteAnswer(origin, false);
      }
      return response;
    };
  }

  async ensureKey(): Promise<string | undefined> {
    return (await this.keys.get()) ?? (await this.keys.prompt(l10n.t('Modelgate needs an API key to reach the gateway.')));
  }
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
