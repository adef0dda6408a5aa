// The one place the extension host makes a GatewayClient. The client is recreated when the
// base URL or timeout changes; the key is read from SecretStorage per request (so a key set in
// another window is used at once) and only ever goes to the configured base URL.
import { createGatewayClient, GatewayError, type GatewayClient } from '../core';
import { l10n } from '../core/l10n';
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
          fetch: this.fetchImpl,
          connectHint: connectHint(),
        }),
      };
    }
    return this.cached.client;
  }

  async ensureKey(): Promise<string | undefined> {
    return (await this.keys.get()) ?? (await this.keys.prompt(l10n.t('Modelgate needs an API key to reach the gateway.')));
  }
}
