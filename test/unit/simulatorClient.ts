// The gateway simulator on loopback and a client of it with fast retries, for the unit suites that
// run answers over real HTTP (answer loop, vscode.lm stream). Mocha hooks: the fields are set in
// `before` and the simulator closes in `after`.
import { createGatewayClient, type GatewayClient } from '../../src/core';
import { startGateway, type RunningGateway } from '../gateway/index';

export function useSimulatorClient(): { gw: RunningGateway; client: GatewayClient } {
  const sim = {} as { gw: RunningGateway; client: GatewayClient };
  before(async () => {
    sim.gw = await startGateway();
    sim.client = createGatewayClient({ baseUrl: sim.gw.baseUrl, apiKey: 'sk-test', retryBaseDelayMs: 1, retryMaxDelayMs: 2 });
  });
  after(() => sim.gw?.close());
  return sim;
}
