// The gateway simulator on loopback and a client of it with fast retries, for the unit suites that
// run answers over real HTTP (answer loop, vscode.lm stream). Mocha hooks: the fields are set in
// `before` and the simulator closes in `after`. And the empty streaming answer those suites run into.
import type { AssistantRecord } from '../../src/chat/conversations/conversationTranscript';
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

/** An empty answer as the panel starts one (what runAnswer fills in). */
export function streamingRecord(model = 'flagship-text', channel = 'default'): AssistantRecord {
  return { id: 'a', role: 'assistant', parts: [], status: 'streaming', model, channel, createdAt: 0, wire: [] };
}
