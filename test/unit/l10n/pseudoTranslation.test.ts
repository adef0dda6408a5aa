// A pseudo translation of the generated bundle (every message wrapped in ⟦…⟧, placeholders kept)
// loaded through src/core's translator the way vscode.l10n.t loads a real one: proves the core
// messages are routed (a message built outside l10n.t, or missing from the bundle, comes out
// without its brackets) and that their arguments are filled into the translated text.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../harness/paths';
import { setTranslator } from '../../../src/core/l10n';
import { errorFromHttp, waitTooLongError } from '../../../src/core/client/errorMessages';
import { markAfterContent, timeoutError } from '../../../src/core/client/gatewayError';
import { CHANNEL_INFO } from '../../../src/core/catalogue/modelCatalogue';
import { checkBaseUrl } from '../../../src/core/client/baseUrl';
import { parseFallbackChannels } from '../../../src/core/channels/channelFailover';
import { budgetMessage } from '../../../src/core/spend/budget';
import { addSpend, emptySpend, summarize, type SpendEntry } from '../../../src/core/spend/spendBook';
import { spendCsv } from '../../../src/core/spend/spendCsv';

const english = JSON.parse(readFileSync(join(repoRoot(), 'media', 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
const pseudo: Record<string, string> = Object.fromEntries(Object.keys(english).map((k) => [k, `⟦${k}⟧`]));

/** vscode.l10n.t's behaviour with a loaded bundle: look the message up, then fill {n}. */
function pseudoT(message: string, ...args: Array<string | number | boolean>): string {
  const text = Object.prototype.hasOwnProperty.call(pseudo, message) ? pseudo[message]! : message;
  return text.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

/** The text outside every ⟦…⟧ (nested ones included): only spaces when all of it was translated. */
function untranslated(text: string): string {
  let depth = 0;
  let out = '';
  for (const ch of text) {
    if (ch === '⟦') depth++;
    else if (ch === '⟧') depth--;
    else if (depth === 0) out += ch;
  }
  assert.equal(depth, 0, `unbalanced brackets in ${text}`);
  return out.trim();
}

const json = (status: number, body: unknown, statusText = '') => ({ status, statusText, contentType: 'application/json', body: JSON.stringify(body) });

describe('l10n: a pseudo translation reaches the core messages', () => {
  before(() => setTranslator(pseudoT));
  after(() => setTranslator(undefined));

  it('gateway errors: each sentence translated, status and the server words filled in', () => {
    const auth = errorFromHttp(json(401, { error: { message: 'Invalid key' } })).message;
    assert.equal(auth, '⟦Gateway rejected the API key (401): Invalid key.⟧ ⟦Set a new key with “Modelgate: Set API Key”.⟧');
    const server = errorFromHttp({ status: 503, statusText: 'Service Unavailable', contentType: 'text/plain', body: '' }).message;
    assert.equal(server, '⟦The gateway had a problem (⟦503 Service Unavailable, no message⟧).⟧ ⟦Try again in a moment.⟧');
    const limited = errorFromHttp({ ...json(429, { error: { message: 'slow down' } }), retryAfterMs: 45_000 }).message;
    assert.equal(limited, '⟦The gateway is limiting requests (429): slow down.⟧ ⟦Try again in 45 s.⟧');
    const model = errorFromHttp(json(404, { error: { message: 'model not found' } }), { model: 'm-1' }).message;
    assert.equal(model, '⟦Model “m-1” is not available on the gateway (404): model not found.⟧ ⟦Pick another model.⟧');
    const rejected = errorFromHttp(json(400, { error: { message: 'bad temperature' } }), { operation: 'chat' }).message;
    assert.equal(rejected, '⟦The gateway rejected the chat request (400): bad temperature.⟧');
    const wait = waitTooLongError(errorFromHttp(json(503, { error: { message: 'busy' } })), 5 * 60_000).message;
    assert.equal(wait, '⟦The gateway asked to wait before the next request (503): busy.⟧ ⟦Try again in 5 min.⟧');
    const cut = markAfterContent(timeoutError(30_000)).message;
    assert.equal(
      cut,
      '⟦⟦Nothing arrived from the gateway for 30 s, so the request was stopped. Try again, or raise “modelgate.requestTimeoutSeconds”.⟧ The answer above is incomplete.⟧',
    );
    for (const m of [auth, server, limited, model, rejected, wait, cut]) assert.equal(untranslated(m), '', m);
  });

  it('channel labels and details, settings problems and budget texts', () => {
    assert.equal(CHANNEL_INFO.economical.label, '⟦Economical⟧');
    assert.equal(CHANNEL_INFO.default.detail, '⟦The gateway picks the channel (no provider field is sent).⟧');
    const base = checkBaseUrl('http://gateway.example.com/v1');
    assert.equal(base.ok, false);
    assert.match(!base.ok ? base.message : '', /^⟦The gateway base URL uses plain http to gateway\.example\.com: /);
    const failover = parseFallbackChannels(['stable', 'fast']).problem ?? '';
    assert.equal(
      failover,
      '⟦"modelgate.fallbackChannels" has "fast", which is not a channel; allowed: direct, stable, economical.⟧ ⟦Using {0}.⟧'.replace('{0}', 'stable'),
    );
    const budget = budgetMessage({ kind: 'daily', limit: 1, spent: 1.02, unpriced: 2, ratio: 1.02, periodKey: 'daily:2026-11-23' });
    assert.equal(budget, '⟦Daily budget of $1.00 (modelgate.budget.dailyUsd) reached: ⟦$1.02 spent today⟧ ⟦(+ 2 requests without a price, not counted)⟧.⟧');
    for (const m of [CHANNEL_INFO.economical.label, base.ok ? '' : base.message, failover, budget]) assert.equal(untranslated(m), '', m);
  });

  it('the spending page names its sources in the user language; the CSV export stays English', () => {
    const at = Date.UTC(2026, 10, 23, 12);
    const entry = (source: SpendEntry['source'], requester?: string): SpendEntry => ({
      at,
      source,
      requester,
      model: 'm',
      channel: 'stable',
      promptTokens: 1,
      cachedTokens: 0,
      completionTokens: 1,
      images: 0,
      cost: 0.01,
    });
    let state = emptySpend();
    for (const e of [entry('panel'), entry('image'), entry('lm'), entry('lm', 'core'), entry('lm', 'pub.ext')]) state = addSpend(state, e);
    const keys = summarize(state, at - 1, at + 1)
      .bySource.map((r) => r.key)
      .sort();
    assert.deepEqual(keys, ['⟦chat panel⟧', '⟦image command⟧', '⟦vscode.lm (caller not reported)⟧', '⟦vscode.lm: VS Code chat⟧', '⟦vscode.lm: pub.ext⟧']);
    const csv = spendCsv(state);
    assert.ok(!csv.includes('⟦'), csv);
    assert.match(csv, /chat panel/);
  });

  it('a message outside l10n.t (or missing from the bundle) comes out bare', () => {
    assert.equal(pseudoT('Some sentence nobody routed.'), 'Some sentence nobody routed.');
    assert.notEqual(untranslated(`${pseudoT('Try again.')} Some sentence nobody routed.`), '');
  });
});
