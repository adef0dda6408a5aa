// What other extensions get from activate(): the public API only, unless the
// extension host was started for Modelgate's tests.
import * as assert from 'node:assert/strict';
import { exportsFor, inTestMode, publicApiOf, type ModelgateApi, type ModelgatePublicApi } from '../../src/modelgateApi';

const TEST = 3; // vscode.ExtensionMode.Test
const PRODUCTION = 1;

function publicApi(): ModelgatePublicApi {
  return publicApiOf({
    settings: () => ({}) as never,
    keys: { get: async () => undefined } as never,
    usage: { last: () => undefined } as never,
    spend: { summary: () => undefined } as never,
    noteSimulatorDemo: () => undefined,
  });
}

describe('modelgateApi: exports', () => {
  it('outside test mode, exports only the public members, and never builds the test API', () => {
    let built = 0;
    const exported = exportsFor(false, publicApi(), () => {
      built++;
      return {} as ModelgateApi;
    });
    assert.deepEqual(Object.keys(exported).sort(), ['hasKey', 'lastUsage', 'noteSimulatorDemo', 'settings', 'spend', 'version']);
    assert.deepEqual(Object.keys(exported.spend), ['summary']);
    assert.ok(Object.isFrozen(exported) && Object.isFrozen(exported.spend));
    assert.equal(built, 0);
    for (const member of ['chat', 'spend.setBudgetAsk', 'publicApi', 'activationTiming']) {
      assert.equal(
        member.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], exported),
        undefined,
        member,
      );
    }
  });

  it('in test mode, exports the test API', () => {
    const testApi = { publicApi: publicApi() } as unknown as ModelgateApi;
    assert.equal(
      exportsFor(true, publicApi(), () => testApi),
      testApi,
    );
  });

  it('test mode: VS Code extension test mode, or MODELGATE_TEST_ENTRY in the environment the host started with', () => {
    const none = () => undefined;
    assert.equal(inTestMode({ extensionMode: TEST }, TEST as never, none), true);
    assert.equal(inTestMode({ extensionMode: PRODUCTION }, TEST as never, none), false);
    assert.equal(
      inTestMode({ extensionMode: PRODUCTION }, TEST as never, (n) => (n === 'MODELGATE_TEST_ENTRY' ? '/x/index.js' : undefined)),
      true,
    );
  });

  it('a variable another extension sets in the running host does not switch test mode on (Linux)', function () {
    if (process.platform !== 'linux') this.skip();
    process.env.MODELGATE_TEST_ENTRY = '/tmp/evil.js';
    try {
      assert.equal(inTestMode({ extensionMode: PRODUCTION }, TEST as never), false);
    } finally {
      delete process.env.MODELGATE_TEST_ENTRY;
    }
  });
});
