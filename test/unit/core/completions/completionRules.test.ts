// When nothing is sent: the document's rules (language off, excluded, secret by name as the
// workspace tools judge it, too large), the cursor's (selection, middle of a word, minified line),
// secrets inside the text; and what costs and money decide (estimate per hour, today's spend,
// budgets and the daily cap); and what an error during completions does (shown once, back-off).
import * as assert from 'node:assert/strict';
import { cursorSkip, documentSkip, hasSecretInside, MAX_FILE_CHARS, MAX_LINE_CHARS } from '../../../../src/core/completions/completionRules';
import { excludeGlobs, languageSwitches } from '../../../../src/core/completions/completionSettings';
import { completionSpendToday, completionStop, hourlyCostEstimate, TYPING_HOUR } from '../../../../src/core/completions/completionCost';
import { CompletionBackoff, MAX_BACKOFF_MS, TROUBLE_ACTION, troubleOf } from '../../../../src/core/completions/completionTrouble';
import { GatewayError } from '../../../../src/core/client/gatewayError';
import { addSpend, emptySpend, localDay, summarize, type SpendEntry } from '../../../../src/core/spend/spendBook';
import { budgetStatuses } from '../../../../src/core/spend/budget';

const doc = (over: Partial<Parameters<typeof documentSkip>[0]> = {}) => ({
  names: ['src/app.ts', 'proj/src/app.ts'],
  languageId: 'typescript',
  chars: 1000,
  languages: {},
  excluded: false,
  ...over,
});

describe('completion rules', () => {
  it('sends for an ordinary source file', () => {
    assert.equal(documentSkip(doc()), undefined);
  });

  it('sends nothing for the files the workspace tools treat as secret, by any of their names', () => {
    for (const name of ['.env', 'app/.env.local', 'id_rsa', 'certs/server.key', '.npmrc', 'infra/prod.tfvars', '.aws/credentials', 'service-account.json']) {
      assert.equal(documentSkip(doc({ names: [name] })), 'secretFile', name);
    }
    // reached through a link, or a workspace opened inside ~/.ssh
    assert.equal(documentSkip(doc({ names: ['notes.txt', '.ssh/notes.txt'] })), 'secretFile');
    assert.equal(documentSkip(doc({ names: ['.env.example'] })), undefined, 'a template is not a secret');
  });

  it('sends nothing for a secret inside the text: a private key block, a service-account key, an auth token line', () => {
    assert.ok(hasSecretInside('const k = `\n-----BEGIN RSA PRIVATE KEY-----\nMIIE...'));
    assert.ok(hasSecretInside('{"type": "service_account", "private_key": "-----'));
    assert.ok(hasSecretInside('//registry.npmjs.org/:_authToken=abc'));
    assert.ok(!hasSecretInside('const token = getToken();'));
  });

  it('honours the per-language switch and the exclude globs', () => {
    assert.equal(documentSkip(doc({ languageId: 'markdown', languages: { markdown: false } })), 'languageOff');
    assert.equal(documentSkip(doc({ languageId: 'markdown', languages: { markdown: true } })), undefined);
    assert.equal(documentSkip(doc({ excluded: true })), 'excluded');
  });

  it('sends nothing for a file over the size limit', () => {
    assert.equal(documentSkip(doc({ chars: MAX_FILE_CHARS })), undefined);
    assert.equal(documentSkip(doc({ chars: MAX_FILE_CHARS + 1 })), 'tooLarge');
  });

  it('sends nothing while text is selected, in the middle of a word, or on a minified line', () => {
    assert.equal(cursorSkip({ selectionEmpty: false, lineText: 'abc', character: 3 }), 'selection');
    assert.equal(cursorSkip({ selectionEmpty: true, lineText: 'const total', character: 8 }), 'midWord');
    assert.equal(cursorSkip({ selectionEmpty: true, lineText: 'naïve', character: 2 }), 'midWord');
    assert.equal(cursorSkip({ selectionEmpty: true, lineText: 'x'.repeat(MAX_LINE_CHARS + 1), character: 3 }), 'longLine');
  });

  it('sends at the end of a word, before punctuation or a closing bracket, and on an empty line', () => {
    for (const [lineText, character] of [
      ['const total', 11],
      ['foo()', 4],
      ['foo.bar', 3],
      ['  ', 2],
      ['', 0],
      ['x = ;', 4],
    ] as const) {
      assert.equal(cursorSkip({ selectionEmpty: true, lineText, character }), undefined, `${lineText}|${character}`);
    }
  });

  it('reads the exclude and language settings defensively', () => {
    assert.deepEqual(excludeGlobs(undefined), { globs: [] });
    assert.deepEqual(excludeGlobs([' **/*.md ', '**/*.md', '', 'docs/**']).globs, ['**/*.md', 'docs/**']);
    assert.match(excludeGlobs(['a', 3]).problem!, /not glob strings/);
    assert.match(excludeGlobs('**/*.md').problem!, /must be a list/);
    assert.deepEqual(languageSwitches({ markdown: false, python: 'no', '': true }), { markdown: false });
    assert.deepEqual(languageSwitches([false]), {});
  });
});

const entry = (over: Partial<SpendEntry>): SpendEntry => ({
  at: Date.now(),
  source: 'completions',
  model: 'flagship-text',
  channel: 'economical',
  promptTokens: 1500,
  cachedTokens: 0,
  completionTokens: 20,
  images: 0,
  cost: 0.001,
  ...over,
});

describe('completion cost', () => {
  it('estimates an hour of typing from the price, with cached tokens at the cache price', () => {
    const price = { input: 1, output: 4, cacheRead: 0.25 };
    const perRequest =
      (TYPING_HOUR.promptTokens * (1 - TYPING_HOUR.cachedShare) * 1 +
        TYPING_HOUR.promptTokens * TYPING_HOUR.cachedShare * 0.25 +
        TYPING_HOUR.completionTokens * 4) /
      1e6;
    assert.ok(Math.abs(hourlyCostEstimate(price)! - TYPING_HOUR.requests * perRequest) < 1e-9);
    assert.equal(hourlyCostEstimate(undefined), undefined);
  });

  it("counts today's completion requests only, folded days included", () => {
    const now = Date.now();
    let state = emptySpend();
    state = addSpend(state, entry({ at: now - 1000, cost: 0.002 }));
    state = addSpend(state, entry({ at: now - 2000, cost: undefined }));
    state = addSpend(state, entry({ at: now - 3000, source: 'panel', cost: 5 }));
    state = addSpend(state, entry({ at: now - 3 * 86_400_000, cost: 7 }));
    // fold everything but the newest entry into day aggregates
    state = addSpend(state, entry({ at: now - 500, cost: 0.001 }), 1);
    const today = completionSpendToday(state, now);
    assert.equal(today.requests, 3);
    assert.equal(today.unpriced, 1);
    assert.ok(Math.abs(today.cost - 0.003) < 1e-12);
    assert.ok(summarize(state, 0, now + 1).bySource.some((r) => r.key === 'completions as you type'));
    assert.ok(state.days.some((d) => d.source === 'completions' && d.day === localDay(now)));
  });

  it('stops completions silently when a budget is used up, the daily cap is reached, or a cap cannot count them', () => {
    const now = Date.now();
    const spent = addSpend(emptySpend(), entry({ at: now - 1000, source: 'panel', cost: 2 }));
    const facts = { budgets: [], cap: undefined, spentToday: 0, model: 'm', priced: true };
    assert.equal(completionStop(facts), undefined);
    assert.equal(completionStop({ ...facts, budgets: budgetStatuses({ dailyUsd: 1 }, spent, now) })?.kind, 'budget');
    assert.equal(completionStop({ ...facts, budgets: budgetStatuses({ dailyUsd: 3 }, spent, now) }), undefined);
    assert.deepEqual(completionStop({ ...facts, cap: 0.5, spentToday: 0.5 }), { kind: 'dailyCap', cap: 0.5, spent: 0.5 });
    assert.equal(completionStop({ ...facts, cap: 0.5, spentToday: 0.49 }), undefined);
    assert.deepEqual(completionStop({ ...facts, priced: false, cap: 1 }), { kind: 'unpriced', model: 'm' });
    assert.equal(completionStop({ ...facts, priced: false }), undefined, 'no budget, no cap: an unpriced model may complete');
  });
});

describe('completion trouble', () => {
  const err = (kind: GatewayError['kind'], status?: number, retryAfterMs?: number) =>
    new GatewayError(kind, `${kind} happened`, { ...(status ? { status } : {}), ...(retryAfterMs ? { retryAfterMs } : {}) });

  it('maps each error to its kind of trouble and one action; a cancelled request is none', () => {
    assert.equal(troubleOf(err('auth', 401)), 'key');
    assert.equal(troubleOf(err('balance', 402)), 'balance');
    assert.equal(troubleOf(err('rate_limit', 429)), 'rateLimit');
    assert.equal(troubleOf(err('server', 503)), 'server');
    assert.equal(troubleOf(err('network')), 'network');
    assert.equal(troubleOf(err('not_found', 404)), 'request');
    assert.equal(troubleOf(err('aborted')), undefined);
    assert.deepEqual(Object.values(TROUBLE_ACTION).length, 6);
  });

  it('shows each trouble once, backs off longer on each failure, and starts over after a success', () => {
    const b = new CompletionBackoff();
    const first = b.fail(err('server', 503), 0);
    assert.equal(first?.kind, 'server');
    b.markShown();
    assert.ok(b.blocked(14_000) && !b.blocked(15_000));
    assert.equal(b.fail(err('server', 502), 15_000), undefined, 'the same trouble is not shown again');
    assert.ok(b.blocked(15_000 + 29_000) && !b.blocked(15_000 + 30_000), 'twice as long');
    for (let i = 0; i < 10; i++) b.fail(err('server', 500), 0);
    assert.equal(b.trouble!.until, MAX_BACKOFF_MS, 'capped');
    b.clear();
    assert.equal(b.blocked(0), false);
    assert.equal(b.fail(err('server', 500), 0)?.kind, 'server', 'shown again after a success');
  });

  it('waits for the key after a 401, honours Retry-After after a 429, and tries again 10 minutes after a 402', () => {
    const b = new CompletionBackoff();
    b.fail(err('auth', 401), 0);
    assert.ok(b.blocked(1e12));
    b.clear(['balance']);
    assert.ok(b.blocked(1e12), 'only a new key ends it');
    b.clear(['key']);
    assert.ok(!b.blocked(0));
    b.fail(err('rate_limit', 429, 7000), 0);
    assert.ok(b.blocked(6999) && !b.blocked(7000));
    b.fail(err('balance', 402), 0);
    assert.ok(b.blocked(599_999) && !b.blocked(600_000));
    assert.equal(b.fail(err('aborted'), 0), undefined);
  });
});
