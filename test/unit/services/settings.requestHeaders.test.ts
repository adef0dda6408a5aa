// `modelgate.requestHeaders` comes from user settings only: a workspace's value is
// never used, not when it adds a header, not when it changes one, not when it is the only value;
// it is reported once as ignored. Read by the real readSettings() (a `vscode` stand-in supplies
// the setting's scopes) and sent by the real GatewayService to the simulator.
import * as assert from 'node:assert/strict';
import type { KeyStore } from '../../../src/services/keyStore';
import { startGateway } from '../../gateway/index';
import { installVscodeStub, stubState } from '../vscodeStub';

const KEY = 'sk-headers-ws-test-6d1f';

describe('services/settings: a workspace’s modelgate.requestHeaders is never used', function () {
  this.timeout(30_000);
  let settings: typeof import('../../../src/services/settings');
  let service: typeof import('../../../src/services/gatewayService');
  before(async () => {
    installVscodeStub();
    settings = await import('../../../src/services/settings');
    service = await import('../../../src/services/gatewayService');
  });
  beforeEach(() => stubState.settings.clear());

  it('reads the user’s headers only and says the workspace’s are ignored', () => {
    stubState.settings.set('requestHeaders', { globalValue: { 'X-Route': 'mine' }, workspaceValue: { 'X-Route': 'theirs', 'X-Extra': 'theirs' } });
    const s = settings.readSettings();
    assert.deepEqual(s.requestHeaders, { 'X-Route': 'mine' });
    assert.equal(s.problems.filter((p) => p.includes('"modelgate.requestHeaders" in this workspace')).length, 1);
    stubState.settings.set('requestHeaders', { workspaceFolderValue: { 'X-Extra': 'theirs' } });
    assert.deepEqual(settings.readSettings().requestHeaders, {}, 'a folder value alone gives no headers');
  });

  it('sends the user’s header and never the workspace’s, on the model list and on chat', async () => {
    const gw = await startGateway({ keys: { [KEY]: { balance: 10 } } });
    try {
      stubState.settings.set('baseUrl', { globalValue: gw.baseUrl });
      stubState.settings.set('requestHeaders', { globalValue: { 'X-Route': 'mine' }, workspaceValue: { 'X-Route': 'theirs', 'X-Workspace-Token': 'theirs' } });
      const store = { get: async () => KEY, secretHeaders: async () => ({}) } as unknown as KeyStore;
      const gateway = new service.GatewayService(() => settings.readSettings(), store);
      await gateway.client().listModels();
      for await (const e of gateway.client().streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: '[[words:3]]' }] })) void e;
      const sent = gw.requests.filter((r) => r.server === 'api');
      assert.equal(sent.length, 2);
      for (const r of sent) {
        assert.equal(r.headers['x-route'], 'mine', r.path);
        assert.equal(r.headers['x-workspace-token'], undefined, r.path);
      }
    } finally {
      await gw.close();
    }
  });
});
