// The key goes only to the gateway it belongs to: a client made for one base URL keeps reading
// that gateway's key, also after the user switched modelgate.baseUrl to another gateway (an
// answer's next tool round, or any request still made on the old client). Real HTTP against the
// simulator; KeyStore is replaced by a table of keys per origin (the same lookup it does).
import * as assert from 'node:assert/strict';
import type { Settings } from '../../../src/services/settings';
import { GatewayService } from '../../../src/services/gatewayService';
import type { KeyStore } from '../../../src/services/keyStore';
import { startGateway } from '../../gateway/index';

describe('gateway service: key routing', function () {
  this.timeout(30_000);

  it("a client made for gateway A sends A's key after the base URL changed to gateway B", async () => {
    const a = await startGateway({ keys: { 'sk-key-of-gateway-a': { balance: 10 } } });
    const b = await startGateway({ keys: { 'sk-key-of-gateway-b': { balance: 10 } } });
    try {
      const keys: Record<string, string> = {
        [new URL(a.baseUrl).origin]: 'sk-key-of-gateway-a',
        [new URL(b.baseUrl).origin]: 'sk-key-of-gateway-b',
      };
      let current = a.baseUrl;
      const settings = () => ({ baseUrl: current, baseUrlOrigin: new URL(current).origin, requestTimeoutMs: 10_000, requestHeaders: {} }) as Settings;
      // KeyStore.get(): the key of the configured gateway, or of the one at `origin`.
      const store = { get: async (origin?: string) => keys[origin ?? settings().baseUrlOrigin!], secretHeaders: async () => ({}) } as unknown as KeyStore;
      const service = new GatewayService(settings, store);
      const clientOfA = service.client();
      await clientOfA.listModels();
      current = b.baseUrl; // the user switches gateways while an answer is still running on clientOfA
      await clientOfA.listModels();
      const auth = a.requests.filter((r) => r.server === 'api').map((r) => r.headers.authorization);
      assert.deepEqual(auth, ['Bearer sk-key-of-gateway-a', 'Bearer sk-key-of-gateway-a'], "only gateway A's key reached gateway A");
      await service.client().listModels();
      assert.equal(b.requests.at(-1)?.headers.authorization, 'Bearer sk-key-of-gateway-b', "a new client goes to B with B's key");
    } finally {
      await a.close();
      await b.close();
    }
  });
});
