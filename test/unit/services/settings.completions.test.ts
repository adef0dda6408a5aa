// `modelgate.completions.*`: whether completions are on, their model, channel and daily cap come
// from user settings only (a repository can neither turn them on nor make them cost more), while a
// workspace may only make them send less: its exclude globs are added, its `false` languages too.
import * as assert from 'node:assert/strict';
import { installVscodeStub, stubState } from '../vscodeStub';

describe('services/settings: completions as you type', () => {
  let settings: typeof import('../../../src/services/settings');
  before(async () => {
    installVscodeStub();
    settings = await import('../../../src/services/settings');
  });
  beforeEach(() => stubState.settings.clear());

  it('is off by default, on the chat model and the economical channel, with no cap', () => {
    stubState.settings.set('chat.model', { globalValue: 'long-context-tools' });
    const c = settings.readSettings().completions;
    assert.deepEqual(c, { enabled: false, model: 'long-context-tools', channel: 'economical', dailyUsd: undefined, languages: {}, exclude: [] });
  });

  it("takes the user's model, channel and cap", () => {
    stubState.settings.set('completions.enabled', { globalValue: true });
    stubState.settings.set('completions.model', { globalValue: 'flagship-text' });
    stubState.settings.set('completions.channel', { globalValue: 'direct' });
    stubState.settings.set('completions.dailyUsd', { globalValue: 0.5 });
    const c = settings.readSettings().completions;
    assert.equal(c.enabled, true);
    assert.equal(c.model, 'flagship-text');
    assert.equal(c.channel, 'direct');
    assert.equal(c.dailyUsd, 0.5);
  });

  it('never lets a workspace turn completions on, pick their model or channel, or lift the cap, and says so', () => {
    for (const key of ['completions.enabled', 'completions.model', 'completions.channel', 'completions.dailyUsd']) {
      stubState.settings.clear();
      const value = key === 'completions.enabled' ? true : key === 'completions.dailyUsd' ? 1000 : key === 'completions.channel' ? 'direct' : 'pricey-model';
      stubState.settings.set(key, { workspaceValue: value });
      const s = settings.readSettings();
      assert.deepEqual(s.completions, { enabled: false, model: 'flagship-text', channel: 'economical', dailyUsd: undefined, languages: {}, exclude: [] }, key);
      assert.equal(s.problems.filter((p) => p.includes(`"modelgate.${key}" in this workspace's settings is ignored`)).length, 1, key);
    }
  });

  it('adds a workspace’s exclude globs and switched-off languages to the user’s, and ignores its switched-on ones', () => {
    stubState.settings.set('completions.exclude', { globalValue: ['**/*.md'], workspaceValue: ['secrets/**', '**/*.md'], workspaceFolderValue: ['vendor/**'] });
    stubState.settings.set('completions.languages', { globalValue: { markdown: false, python: true }, workspaceValue: { python: false, rust: true } });
    const c = settings.readSettings().completions;
    assert.deepEqual(c.exclude, ['**/*.md', 'secrets/**', 'vendor/**']);
    assert.deepEqual(c.languages, { markdown: false, python: false });
  });

  it('reports a bad channel, a bad cap and a bad exclude list, and uses the safe values', () => {
    stubState.settings.set('completions.channel', { globalValue: 'fastest' });
    stubState.settings.set('completions.dailyUsd', { globalValue: -1 });
    stubState.settings.set('completions.exclude', { globalValue: '**/*.md' });
    const s = settings.readSettings();
    assert.equal(s.completions.channel, 'economical');
    assert.equal(s.completions.dailyUsd, undefined);
    assert.deepEqual(s.completions.exclude, []);
    assert.ok(s.problems.some((p) => p.includes('"modelgate.completions.channel" is "fastest"')));
    assert.ok(s.problems.some((p) => p.includes('"modelgate.completions.dailyUsd" must be a positive amount')));
    assert.ok(s.problems.some((p) => p.includes('"modelgate.completions.exclude" must be a list')));
  });
});
