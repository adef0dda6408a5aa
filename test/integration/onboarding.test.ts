// First run inside a real VS Code: "Set API Key" checks the key with GET /models against the
// simulator and reports accepted / rejected (401) / could not be checked, storing a rejected or
// unchecked key only on request; a base URL given with the key is validated and lands in USER
// settings; the walkthrough's context keys follow the base URL and key.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { freePort } from '../harness/processes';
import { config as cfg, until, useModelgate } from './helpers';
import { askBudget, RAISE_BUDGET, SEND_ONCE, SET_PRICE } from '../../src/services/budgetGuard';
import { promptSensitiveRead } from '../../src/agentTools/sensitiveAccess';
import { setApiKeyCommand } from '../../src/onboarding/setKeyFlow';
import type { Services } from '../../src/services/serviceContainer';
import type { BudgetStatus } from '../../src/core/spend/budget';

type Window = typeof vscode.window;
type Shown = { method: string; message: string; buttons: string[]; modal: boolean };

/**
 * Answers this bundle's vscode.window dialogs the way Enter does in VS Code 1.139: a modal's or a
 * notification's first button is its primary (focused) one, so Enter takes it; a close
 * affordance is not a button of its own. Records what was asked. (The code under test runs in
 * this bundle, with this bundle's vscode API; the installed extension's is not touched.)
 */
function pressEnterOnDialogs(inputs: (string | undefined)[] = []): { shown: Shown[]; restore: () => void } {
  const w = vscode.window as unknown as Record<string, unknown>;
  const saved = new Map<string, unknown>();
  const shown: Shown[] = [];
  const stub = (name: keyof Window, fn: (...args: never[]) => unknown) => {
    saved.set(name, w[name]);
    w[name] = fn;
    assert.equal(w[name], fn, `vscode.window.${name} can be answered by the test`);
  };
  for (const method of ['showWarningMessage', 'showErrorMessage', 'showInformationMessage'] as const) {
    stub(method, (async (message: string, ...rest: unknown[]) => {
      const modal = typeof rest[0] === 'object' && rest[0] !== null && 'modal' in rest[0] && (rest[0] as { modal?: boolean }).modal === true;
      const items = rest.filter((r) => typeof r === 'string' || (typeof r === 'object' && r !== null && 'title' in r)) as (string | vscode.MessageItem)[];
      const buttons = items.filter((i) => typeof i === 'string' || !i.isCloseAffordance);
      shown.push({ method, message, buttons: buttons.map((b) => (typeof b === 'string' ? b : b.title)), modal });
      return buttons[0];
    }) as never);
  }
  stub('showInputBox', (async () => inputs.shift()) as never);
  stub('withProgress', ((_o: unknown, task: (p: unknown, t: vscode.CancellationToken) => unknown) =>
    task({ report: () => undefined }, new vscode.CancellationTokenSource().token)) as never);
  return {
    shown,
    restore: () => {
      for (const [k, v] of saved) w[k] = v;
    },
  };
}

interface SetKeyResult {
  check: 'accepted' | 'rejected' | 'unchecked';
  stored: boolean;
  message: string;
}

const setKey = (arg: { key: string; baseUrl?: string; storeAnyway?: boolean }) => vscode.commands.executeCommand<SetKeyResult>('modelgate.setApiKey', arg);

describe('onboarding: the key check and the base URL first (real VS Code)', function () {
  this.timeout(60_000);
  // No base URL yet: the first test gives it with the key.
  const mg = useModelgate({ gateway: { keys: { 'sk-onboarding-good': { balance: 10 } } }, settings: { baseUrl: undefined }, clearKey: true });

  it('a good key is accepted and stored; the base URL given with it goes to user settings', async () => {
    const r = await setKey({ key: 'sk-onboarding-good', baseUrl: mg.gw.baseUrl });
    assert.equal(r.check, 'accepted');
    assert.equal(r.stored, true);
    assert.match(r.message, /accepted/);
    assert.equal(cfg().inspect<string>('baseUrl')?.globalValue, mg.gw.baseUrl);
    assert.equal(await mg.api.hasKey(), true);
    const models = mg.gw.requests.filter((q) => q.path.endsWith('/models'));
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
    assert.equal(await mg.api.hasKey(), false);
    const forced = await setKey({ key: 'sk-onboarding-wrong', storeAnyway: true });
    assert.equal(forced.check, 'rejected');
    assert.equal(forced.stored, true);
    assert.equal(await mg.api.hasKey(), true);
  });

  it('a gateway that does not answer: "could not be checked", stored only on request', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    const r = await setKey({ key: 'sk-onboarding-good', baseUrl: closed });
    assert.equal(r.check, 'unchecked');
    assert.equal(r.stored, false);
    assert.match(r.message, /could not be checked/);
    assert.equal(await mg.api.hasKey(), false, 'no key for the new gateway');
    const forced = await setKey({ key: 'sk-onboarding-good', storeAnyway: true });
    assert.equal(forced.stored, true);
    assert.equal(await mg.api.hasKey(), true);
  });

  it('an invalid base URL is refused with the reason, and nothing is stored', async () => {
    await cfg().update('baseUrl', mg.gw.baseUrl, vscode.ConfigurationTarget.Global);
    await assert.rejects(() => Promise.resolve(setKey({ key: 'sk-onboarding-good', baseUrl: 'http://gateway.example.com/v1' })), /plain http/);
    assert.equal(cfg().inspect<string>('baseUrl')?.globalValue, mg.gw.baseUrl);
  });

  it('a stored key the gateway rejected shows in the status bar until one works', async () => {
    await cfg().update('baseUrl', mg.gw.baseUrl, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().baseUrl === mg.gw.baseUrl, 'the base URL applied');
    await setKey({ key: 'sk-onboarding-good' });
    await until(() => mg.api.statusBarText().includes('$(sparkle)'), 'no warning with a good key');
    const forced = await setKey({ key: 'sk-onboarding-wrong', storeAnyway: true });
    assert.equal(forced.stored, true);
    await until(() => mg.api.statusBarText().includes('$(warning)'), 'the status bar warns about the stored, rejected key');
    assert.match(mg.api.statusBarTooltip(), /rejected the stored API key/);
    await setKey({ key: 'sk-onboarding-good' });
    await until(() => mg.api.statusBarText().includes('$(sparkle)'), 'the warning leaves once a key works');
    // A key stored without a check: the model list the extension then fetches is answered 401.
    await vscode.commands.executeCommand('modelgate.setApiKey', 'sk-onboarding-wrong');
    await until(() => /rejected the stored API key/.test(mg.api.statusBarTooltip()), 'a 401 to a request marks the stored key rejected');
    await setKey({ key: 'sk-onboarding-good' });
    await until(() => mg.api.statusBarText().includes('$(sparkle)'), 'and a working key clears it');
  });

  describe('Enter on a guarded dialog takes the safe path', () => {
    let dialogs: ReturnType<typeof pressEnterOnDialogs> | undefined;
    afterEach(() => dialogs?.restore());

    it('Set API Key: Enter after a 401 asks for another key, never "Store Rejected Key"', async () => {
      const stored: string[] = [];
      const s = mg.api.settings();
      const services = {
        settings: () => s,
        keys: {
          set: async (k: string) => void stored.push(k),
          secretHeaders: async () => ({}),
          noteAnswer: () => undefined,
        },
      } as unknown as Services;
      // the wrong key, then Enter on the error (the first button), then Escape on the second key prompt
      dialogs = pressEnterOnDialogs(['sk-onboarding-wrong', undefined]);
      assert.equal(await setApiKeyCommand(services), false);
      const asked = dialogs.shown.filter((d) => d.method === 'showErrorMessage');
      assert.equal(asked.length, 1, JSON.stringify(dialogs.shown));
      assert.match(asked[0]!.message, /rejected this API key \(401\)/);
      assert.deepEqual(asked[0]!.buttons, ['Enter Another Key', 'Store Rejected Key'], 'the safe choice first (primary), the risky one second');
      assert.deepEqual(stored, [], 'nothing stored');
    });

    it('Set API Key with the gateway down: the button to store says it is for that, and Enter does not store', async () => {
      const stored: string[] = [];
      // a loopback port nothing listens on: the connection is refused
      const s = { ...mg.api.settings(), baseUrl: 'http://127.0.0.1:9/v1', baseUrlOrigin: 'http://127.0.0.1:9' };
      const services = {
        settings: () => s,
        keys: { set: async (k: string) => void stored.push(k), secretHeaders: async () => ({}), noteAnswer: () => undefined },
      } as unknown as Services;
      dialogs = pressEnterOnDialogs(['sk-onboarding-down', undefined]);
      assert.equal(await setApiKeyCommand(services), false);
      const asked = dialogs.shown.filter((d) => d.method === 'showWarningMessage');
      assert.equal(asked.length, 1, JSON.stringify(dialogs.shown));
      assert.match(asked[0]!.message, /could not be checked/);
      assert.deepEqual(asked[0]!.buttons, ['Enter Another Key', 'Store While Gateway Is Down']);
      assert.deepEqual(stored, [], 'nothing stored');
    });

    it('a budget used up (or a request without a price): Enter never means "Send Once"', async () => {
      dialogs = pressEnterOnDialogs();
      const status: BudgetStatus = { kind: 'daily', limit: 1, spent: 1.2, unpriced: 0, ratio: 1.2, periodKey: 'daily:2026-11-26' };
      assert.equal(await askBudget(status, 'chat', 'usedUp'), RAISE_BUDGET);
      assert.equal(await askBudget(status, 'image', 'usedUp'), RAISE_BUDGET);
      assert.equal(await askBudget(status, 'chat', 'unpriced', 'mystery-model'), SET_PRICE);
      for (const d of dialogs.shown) {
        assert.equal(d.modal, true);
        assert.notEqual(d.buttons[0], SEND_ONCE);
        assert.ok(d.buttons.includes(SEND_ONCE), 'Send Once is still offered, as the second button');
      }
    });

    it('a tool that wants to read .env: Enter does not allow it', async () => {
      dialogs = pressEnterOnDialogs();
      assert.equal(await promptSensitiveRead('.env', { tool: 'read_file' }), false);
      assert.equal(dialogs.shown.length, 1);
      assert.equal(dialogs.shown[0]!.modal, true);
      assert.deepEqual(dialogs.shown[0]!.buttons, ["Don't Allow", 'Allow Once']);
    });
  });
});
