// Spending under concurrency and through every public door, in a real VS Code extension host
// against the gateway simulator:
// - 8 vscode.lm requests at once, and the panel + 4 vscode.lm + an image at once: the ledger
//   equals the simulator's billing record (the key's balance it charged), also after the ledger
//   is read back from its files as a reload does (it lost 5 of 8 and 1 of 5 before);
// - a burst of 8 vscode.lm requests with $0.0005 left of the daily budget stays within the budget
//   plus one request's estimate (all 8 were sent, 33 % over);
// - while a budget is set, a request without a known price is refused for vscode.lm and asked
//   for in the panel (it never counted before);
// - the exports other extensions get hold nothing that reaches the gateway or changes the
//   budget; through them and vscode.lm and the image command, nothing passes a used-up budget.
// This suite runs in the test-runner extension: to Modelgate, another extension.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { BudgetStatus } from '../../src/core/spend/budget';
import { estimateCost, expectedOutputTokens } from '../../src/core/spend/reservations';
import { estimateRequestTokens } from '../../src/core/prompt/tokens';
import type { ModelgateApi } from '../../src/extension';
import type { BudgetReason } from '../../src/services/budgetGuard';
import { PRICE_CARD, startGateway, type RunningGateway } from '../gateway/index';
import { until } from './helpers';

const EXTENSION_ID = 'modelgate.modelgate';
const KEY = 'sk-spend-concurrency-5d2e81';
const FLAG_PRICE = PRICE_CARD.chat['flagship-text']!.stable; // the simulator's default channel is stable
const IMAGE_PRICE = PRICE_CARD.image['image-restricted']!.standard!['1024x1024']!;
const FOLDER = 'mg-spend-concurrency';
const micro = (usd: number) => Math.round(usd * 1e6);

describe('spend under concurrency and public doors (real VS Code, gateway simulator)', function () {
  this.timeout(180_000);
  let gw: RunningGateway;
  let api: ModelgateApi;
  let answer: string | undefined;
  const asked: { status: BudgetStatus; what: string; reason?: BudgetReason }[] = [];
  const config = () => vscode.workspace.getConfiguration('modelgate');
  const chatRequests = () => gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions')).length;
  const imageRequests = () => gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/images/generations')).length;
  const lmAvailable = () => typeof vscode.lm?.registerLanguageModelChatProvider === 'function';

  async function setDaily(usd: number | undefined): Promise<void> {
    await config().update('budget.dailyUsd', usd, vscode.ConfigurationTarget.Global);
    await until(() => api.settings().budgets.dailyUsd === usd, `budget.dailyUsd = ${usd}`);
  }

  async function lmRequest(text: string, model = 'flagship-text', maxTokens?: number): Promise<string> {
    const [m] = await vscode.lm.selectChatModels({ vendor: 'modelgate', id: model });
    assert.ok(m, `vscode.lm lists ${model}`);
    const options = maxTokens ? { modelOptions: { max_tokens: maxTokens } } : {};
    const response = await m.sendRequest([vscode.LanguageModelChatMessage.User(text)], options, new vscode.CancellationTokenSource().token);
    let out = '';
    for await (const part of response.stream) if (part instanceof vscode.LanguageModelTextPart) out += part.value;
    return out;
  }

  /** the ledger against the billing record: in this window, and read back from the ledger files */
  async function ledgerMatchesBilling(start: { cost: number; requests: number }, startBalance: number, requests: number): Promise<void> {
    const billed = startBalance - gw.balance(KEY);
    assert.ok(billed > 0, `billed ${billed}`);
    const now = api.spend.summary('day');
    assert.equal(now.requests - start.requests, requests, 'every request is in the ledger');
    assert.equal(micro(now.cost - start.cost), micro(billed), `ledger ${now.cost - start.cost} vs billed ${billed}`);
    await api.spend.whenWritten();
    // as after a reload: the ledger read from the files only
    const reread = await until(async () => {
      await api.spend.whenWritten();
      await api.spend.reload();
      const s = api.spend.summary('day');
      return s.requests - start.requests === requests && micro(s.cost - start.cost) === micro(billed) ? s : undefined;
    }, `the stored ledger holds the ${requests} requests and ${billed} USD`);
    assert.equal(reread.requests - start.requests, requests);
  }

  before(async () => {
    gw = await startGateway({ keys: { [KEY]: { balance: 100 } } });
    const ext = vscode.extensions.getExtension<ModelgateApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    await config().update('baseUrl', gw.baseUrl, vscode.ConfigurationTarget.Global);
    await config().update(
      'models',
      { 'flagship-text': { prices: { default: FLAG_PRICE } }, 'image-restricted': { kind: 'image', prices: { standard: { '1024x1024': IMAGE_PRICE } } } },
      vscode.ConfigurationTarget.Global,
    );
    await config().update('chat.model', 'flagship-text', vscode.ConfigurationTarget.Global);
    await config().update('channel', 'default', vscode.ConfigurationTarget.Global);
    await until(() => api.settings().baseUrl === gw.baseUrl && !!api.catalogue().price('flagship-text', 'default'), 'settings applied');
    await vscode.commands.executeCommand('modelgate.setApiKey', KEY);
    await api.chat.controller.ready;
    api.spend.setBudgetAsk((status, what, reason) => {
      asked.push({ status, what, reason });
      return Promise.resolve(answer as never);
    });
  });

  beforeEach(async () => {
    asked.length = 0;
    answer = undefined;
    await setDaily(undefined);
  });

  after(async () => {
    api.spend.setBudgetAsk(undefined);
    await api.chat.controller.whenIdle();
    for (const k of ['budget.dailyUsd', 'baseUrl', 'models', 'chat.model', 'channel']) await config().update(k, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('modelgate.clearApiKey');
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (ws) await vscode.workspace.fs.delete(vscode.Uri.joinPath(ws, FOLDER), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await gw.close();
  });

  it('8 vscode.lm requests at once: the ledger equals the billing record, also read back from the ledger files', async function () {
    if (!lmAvailable()) this.skip();
    const start = api.spend.summary('day');
    const startBalance = gw.balance(KEY);
    const sent = chatRequests();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => lmRequest(`burst ${i} [[words:${5 + i}]]`)));
    assert.equal(answers.length, 8);
    assert.equal(chatRequests(), sent + 8, '8 requests reached the gateway');
    await ledgerMatchesBilling(start, startBalance, 8);
  });

  it('the panel, 4 vscode.lm requests and an image at once: the ledger equals the billing record, also read back', async function () {
    if (!lmAvailable()) this.skip();
    await api.chat.controller.newChat();
    const start = api.spend.summary('day');
    const startBalance = gw.balance(KEY);
    await Promise.all([
      api.chat.controller.send('panel [[words:30]]'),
      ...Array.from({ length: 4 }, (_, i) => lmRequest(`mix ${i} [[words:${8 + i}]]`)),
      Promise.resolve(
        vscode.commands.executeCommand('modelgate.generateImage', { prompt: 'a kite', model: 'image-restricted', n: 1, folder: FOLDER, open: false }),
      ),
    ]);
    await api.chat.controller.whenIdle();
    assert.equal(asked.length, 0, 'no budget, nothing asked');
    await ledgerMatchesBilling(start, startBalance, 6);
  });

  it("a burst of 8 vscode.lm requests with $0.0005 left stays within the budget plus one request's estimate", async function () {
    if (!lmAvailable()) this.skip();
    const limit = api.spend.summary('day').cost + 0.0005;
    await setDaily(limit);
    const sent = chatRequests();
    // Each asks for at most 40 tokens, so its estimate is close to what it costs (20 words): the
    // bound below is tight enough that 8 requests sent together (the old behaviour) break it.
    const MAX_TOKENS = 40;
    const texts = Array.from({ length: 8 }, (_, i) => `over ${i} [[words:20]]`);
    const results = await Promise.allSettled(texts.map((t) => lmRequest(t, 'flagship-text', MAX_TOKENS)));
    const through = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    for (const r of refused) assert.match(String((r.reason as Error)?.message), /Daily budget of \$[\d.]+ \(modelgate\.budget\.dailyUsd\) reached/);
    assert.ok(through >= 1, 'the budget was not used up: the first request goes out');
    assert.equal(chatRequests(), sent + through, 'the refused ones never reached the gateway');
    await api.spend.whenWritten();
    const spent = api.spend.summary('day').cost;
    const model = api.catalogue().chatModel('flagship-text')!;
    const estimate = Math.max(
      ...texts.map((t) => estimateCost(estimateRequestTokens([{ role: 'user', content: t }]), expectedOutputTokens(MAX_TOKENS, model.maxOutput), FLAG_PRICE)),
    );
    const figures = `${through} of 8 sent, ${refused.length} refused; spent ${(spent - (limit - 0.0005)).toFixed(6)} of $0.0005 left (one estimate: ${estimate.toFixed(6)})`;
    console.log(`      burst: ${figures}`);
    // printed figures: test-results/spend-burst.json (this file runs from out/test/integration)
    const dir = path.resolve(__dirname, '..', '..', '..', 'test-results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'spend-burst.json'),
      `${JSON.stringify({ date: new Date().toISOString(), sent: through, refused: refused.length, spent: spent - (limit - 0.0005), left: 0.0005, estimate }, null, 2)}\n`,
    );
    assert.ok(spent <= limit + estimate, `past the budget plus one estimate: ${figures}`);
    assert.ok(through < 8, 'not all 8 were sent');
  });

  it('while a budget is set, a request without a known price is refused for vscode.lm and asked for in the panel', async function () {
    await setDaily(api.spend.summary('day').cost + 50);
    await config().update('chat.model', 'long-context-tools', vscode.ConfigurationTarget.Global); // no price configured
    await until(() => api.settings().chatModel === 'long-context-tools' && !api.catalogue().price('long-context-tools', 'default'), 'an unpriced chat model');
    try {
      const sent = chatRequests();
      if (lmAvailable()) {
        for (let i = 0; i < 3; i++) {
          await assert.rejects(lmRequest('no price [[words:3]]', 'long-context-tools'), (err: Error) => {
            assert.match(
              err.message,
              /No price is known for "long-context-tools", so this request cannot be counted against the daily budget of \$[\d.]+ \(modelgate\.budget\.dailyUsd\)/,
            );
            assert.match(err.message, /modelgate\.models/);
            return true;
          });
        }
        assert.equal(chatRequests(), sent, 'no unpriced vscode.lm request reached the gateway');
      }
      await api.chat.controller.newChat();
      await api.chat.controller.send('unpriced, cancel');
      assert.equal(asked.length, 1, 'the panel asks');
      assert.equal(asked[0]!.reason, 'unpriced');
      assert.equal(chatRequests(), sent, 'Cancel sends nothing');
      answer = 'Send Once';
      await api.chat.controller.send('unpriced, send once [[words:3]]');
      assert.equal(chatRequests(), sent + 1, '"Send Once" sends it');
      // without a budget, nothing is asked and vscode.lm is served
      await setDaily(undefined);
      asked.length = 0;
      await api.chat.controller.send('no budget [[words:3]]');
      assert.equal(asked.length, 0);
      if (lmAvailable()) await lmRequest('no budget [[words:3]]', 'long-context-tools');
      assert.equal(chatRequests(), sent + (lmAvailable() ? 3 : 2));
    } finally {
      await config().update('chat.model', 'flagship-text', vscode.ConfigurationTarget.Global);
      await until(() => api.settings().chatModel === 'flagship-text', 'chat.model restored');
    }
  });

  it('another extension gets only read-only copies through the exports, and cannot reach the gateway past a used-up budget', async function () {
    const pub = api.publicApi;
    // noteSimulatorDemo: the demo seeder's one call (a notice in the panel, loopback gateways only)
    assert.deepEqual(Object.keys(pub).sort(), ['hasKey', 'lastUsage', 'noteSimulatorDemo', 'settings', 'spend', 'version']);
    assert.deepEqual(Object.keys(pub.spend), ['summary']);
    for (const testOnly of ['chat', 'activationTiming', 'setBudgetAsk', 'receive', 'refreshCatalogue', 'catalogue']) {
      assert.ok(!(testOnly in pub) && !(testOnly in pub.spend), `${testOnly} is not exported`);
    }
    assert.ok(Object.isFrozen(pub) && Object.isFrozen(pub.spend));
    // use the budget up
    const budget = api.spend.summary('day').cost + 1e-7;
    await setDaily(budget);
    await api.chat.controller.newChat();
    await api.chat.controller.send('use it up [[words:5]]');
    asked.length = 0;
    const chats = chatRequests();
    const images = imageRequests();
    // changing what the exports return changes nothing in Modelgate
    const copy = pub.settings();
    copy.budgets.dailyUsd = 1e9;
    delete copy.budgets.dailyUsd;
    // the budget set above, whatever the session spent before it (over $1 once every suite ran)
    assert.equal(api.settings().budgets.dailyUsd, budget, 'the budget is unchanged');
    assert.equal(await pub.hasKey(), true);
    void pub.lastUsage();
    void pub.spend.summary('day');
    if (lmAvailable()) {
      await assert.rejects(lmRequest('past the budget [[words:3]]'), /Daily budget of \$[\d.]+ \(modelgate\.budget\.dailyUsd\) reached/);
    }
    // the image command is public too: it asks the user (the hook answers Cancel), sends nothing
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand('modelgate.generateImage', { prompt: 'a lighthouse', model: 'image-restricted', folder: FOLDER, open: false }),
      ),
    );
    assert.equal(asked.length, 1, 'the user was asked about the image');
    assert.equal(chatRequests(), chats, 'no chat request reached the gateway');
    assert.equal(imageRequests(), images, 'no image request reached the gateway');
  });
});
