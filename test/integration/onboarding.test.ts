// First run inside a real VS Code: "Set API Key" checks the key with GET /models against the
// simulator and reports accepted / rejected (401) / could not be checked, storing a rejected or
// unchecked key only on request; a base URL given with the key is validated and lands in USER
// settings; the walkthrough's context keys follow the base URL and key.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../gateway';
import type { ModelgateApi } from '../../src/extension';
import { freePort } from '../harness/processes';

const EXT_ID = 'modelgate.modelgate';
const cfg = () => vscode.workspace.getConfiguration('modelgate');

interface SetKeyResult {
  check: 'accepted' | 'rejected' | 'unchecked';
  stored: boolean;
  message: string;
}

const setKey = (arg: { key: string; baseUrl?: string; storeAnyway?: boolean }) => vscode.commands.executeCommand<SetKeyResult>('modelgate.setApiKey', arg);

describe('onboarding: the key check and the base URL first (real VS Code)', function () {
  this.timeout(60_000);
  let api: ModelgateApi;
  let gw: RunningGateway;
  let previousBaseUrl: string | undefined;

  before(async () => {
    gw = await startGateway({ keys: { 'sk-onboarding-good': { balance: 10 } } });
    api = await vscode.extensions.getExtension<ModelgateApi>(EXT_ID)!.activate();
    previousBaseUrl = cfg().inspect<string>('baseUrl')?.globalValue;
  });

  after(async () => {
    await vscode.commands.executeCommand('modelgate.clearApiKey');
    await cfg().update('baseUrl', previousBaseUrl, vscode.ConfigurationTarget.Global);
    await gw?.close();
  });

  it('a good key is accepted and stored; the base URL given with it goes to user settings', async () => {
    const r = await setKey({ key: 'sk-onboarding-good', baseUrl: gw.baseUrl });
    assert.equal(r.check, 'accepted');
    assert.equal(r.stored, true);
    assert.match(r.message, /accepted/);
    assert.equal(cfg().inspect<string>('baseUrl')?.globalValue, gw.baseUrl);
    assert.equal(await api.hasKey(), true);
    const models = gw.requests.filter((q) => q.path.endsWith('/models'));
    assert.ok(
      models.some((q) => q.headers['authorization'] === 'Bearer sk-onboarding-good'),
      'the key went to GET /models',
    );
  });

  it('a key the gateway rejects (401) is reported and not stored, unless asked', async () => {
    await vscode.commands.executeCommand('modelgate.clearApiKey');
    const r = await setKey({ key: 'sk-onboarding-wrong' });
    assert.equal(r.check, 'rejected');
    assert.equal(r.stored, false);
    assert.match(r.message, /rejected this API key \(401\)/);
    assert.doesNotMatch(r.message, /sk-onboarding-wrong/, 'the key is never echoed');
    assert.equal(await api.hasKey(), false);
    const forced = await setKey({ key: 'sk-onboarding-wrong', storeAnyway: true });
    assert.equal(forced.check, 'rejected');
    assert.equal(forced.stored, true);
    assert.equal(await api.hasKey(), true);
  });

  it('a gateway that does not answer: "could not be checked", stored only on request', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    const r = await setKey({ key: 'sk-onboarding-good', baseUrl: closed });
    assert.equal(r.check, 'unchecked');
    assert.equal(r.stored, false);
    assert.match(r.message, /could not be checked/);
    assert.equal(await api.hasKey(), false, 'no key for the new gateway');
    const forced = await setKey({ key: 'sk-onboarding-good', storeAnyway: true });
    assert.equal(forced.stored, true);
    assert.equal(await api.hasKey(), true);
  });

  it('an invalid base URL is refused with the reason, and nothing is stored', async () => {
    await cfg().update('baseUrl', gw.baseUrl, vscode.ConfigurationTarget.Global);
    await assert.rejects(() => Promise.resolve(setKey({ key: 'sk-onboarding-good', baseUrl: 'http://gateway.example.com/v1' })), /plain http/);
    assert.equal(cfg().inspect<string>('baseUrl')?.globalValue, gw.baseUrl);
  });
});
