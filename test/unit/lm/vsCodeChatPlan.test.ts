// "Modelgate: Use in VS Code Chat": which user settings it writes, from what VS Code reports.
import * as assert from 'node:assert/strict';
import { planDetail, planVsCodeChat, VS_CODE_CHAT_KEYS, type SettingState } from '../../../src/lm/vsCodeChatPlan';

/** VS Code 1.139's defaults (chat.allowAnonymousAccess false, byokUtilityModelDefault "copilot", disableAIFeatures false) */
function vscode139(user: Record<string, unknown> = {}, effective: Record<string, unknown> = {}) {
  const defaults: Record<string, unknown> = { 'chat.allowAnonymousAccess': false, 'chat.byokUtilityModelDefault': 'copilot', 'chat.disableAIFeatures': false };
  return (key: string): SettingState => ({
    globalValue: user[key],
    effective: key in effective ? effective[key] : (user[key] ?? defaults[key]),
    known: key in defaults,
  });
}

describe('onboarding: Use in VS Code Chat plan', () => {
  it('on a fresh profile: anonymous access and the picked model for utility flows, AI features left alone', () => {
    const plan = planVsCodeChat(vscode139());
    assert.deepEqual(
      plan.changes.map((c) => [c.key, c.value, c.previous]),
      [
        ['chat.allowAnonymousAccess', true, undefined],
        ['chat.byokUtilityModelDefault', 'mainAgent', undefined],
      ],
    );
    assert.deepEqual(plan.unknown, []);
  });

  it('turns AI features back on only when they are off', () => {
    const plan = planVsCodeChat(vscode139({ 'chat.disableAIFeatures': true }));
    assert.deepEqual(
      plan.changes.map((c) => [c.key, c.value, c.previous]),
      [
        ['chat.allowAnonymousAccess', true, undefined],
        ['chat.byokUtilityModelDefault', 'mainAgent', undefined],
        ['chat.disableAIFeatures', false, true],
      ],
    );
  });

  it('is idempotent: nothing to write once the user settings have the values', () => {
    const plan = planVsCodeChat(vscode139({ 'chat.allowAnonymousAccess': true, 'chat.byokUtilityModelDefault': 'mainAgent' }));
    assert.deepEqual(plan.changes, []);
  });

  it('remembers the previous user value for Undo', () => {
    const plan = planVsCodeChat(vscode139({ 'chat.byokUtilityModelDefault': 'none' }));
    assert.deepEqual(
      plan.changes.find((c) => c.key === 'chat.byokUtilityModelDefault'),
      { key: 'chat.byokUtilityModelDefault', value: 'mainAgent', previous: 'none', why: plan.changes[1]!.why },
    );
  });

  it('names the settings this VS Code does not register and writes none of them, except the one hidden from extensions', () => {
    // chat.allowAnonymousAccess is registered with `included: false`: the extension host never sees a default for it
    const plan = planVsCodeChat((key) => ({ globalValue: undefined, effective: undefined, known: key === 'chat.disableAIFeatures' }));
    assert.deepEqual(plan.unknown, ['chat.byokUtilityModelDefault']);
    assert.deepEqual(
      plan.changes.map((c) => c.key),
      ['chat.allowAnonymousAccess'],
    );
  });

  it('the modal lists every setting as it reads in settings.json, says user settings only and how to undo', () => {
    const detail = planDetail(planVsCodeChat(vscode139({ 'chat.disableAIFeatures': true })));
    for (const line of ['"chat.allowAnonymousAccess": true', '"chat.byokUtilityModelDefault": "mainAgent"', '"chat.disableAIFeatures": false'])
      assert.ok(detail.includes(line), `${line} in\n${detail}`);
    assert.match(detail, /user settings only, never to a workspace/);
    assert.match(detail, /To undo/);
    assert.deepEqual(VS_CODE_CHAT_KEYS, ['chat.allowAnonymousAccess', 'chat.byokUtilityModelDefault', 'chat.disableAIFeatures']);
  });
});
