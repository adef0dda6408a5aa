// The spend ledger and the budgets across windows, in a real VS Code extension host against the
// gateway simulator. This window's Modelgate sends real vscode.lm requests and writes the folder
// with Node's fs, as every desktop and remote host does; a second window is a second ledger and
// budget guard on the same global storage folder through vscode.workspace.fs, as a host without
// direct access has them (its own window id, its own files), so the two ways of writing must
// agree; a third window's ledger reads the folder afterwards.
// - two windows each sending 8 and then 32 requests at once: the third reads every entry of both
//   (globalState, one stored object per extension written whole by the last window, lost 42 of 164);
// - with $0.0005 left, two windows x 32 requests at once: at most one request each goes out.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { estimateCost, expectedOutputTokens } from '../../src/core/spend/reservations';
import { estimateRequestTokens } from '../../src/core/prompt/tokens';
import type { ModelgateApi } from '../../src/extension';
import { BudgetGuard } from '../../src/services/budgetGuard';
import { SharedFolder } from '../../src/services/storageFiles';
import { LEDGER_POLL_MS, UsageLedger } from '../../src/services/usageLedger';
import { PRICE_CARD, startGateway, type RunningGateway } from '../gateway/index';
import { until } from './helpers';

const KEY = 'sk-spend-windows-41c9d0';
const FLAG_PRICE = PRICE_CARD.chat['flagship-text']!.stable;
const micro = (usd: number) => Math.round(usd * 1e6);

class MapMemento {
  private readonly map = new Map<string, unknown>();
  get = (k: string) => this.map.get(k);
  update = (k: string, v: unknown) => Promise.resolve(void this.map.set(k, v));
}

describe('spend ledger and budgets across windows (real VS Code file system, gateway simulator)', function () {
  this.timeout(240_000);
  let gw: RunningGateway;
  let api: ModelgateApi;
  let folder: vscode.Uri;
  const config = () => vscode.workspace.getConfiguration('modelgate');
  const lmAvailable = () => typeof vscode.lm?.registerLanguageModelChatProvider === 'function';
  const disposables: vscode.Disposable[] = [];

  async function lmRequest(text: string, maxTokens?: number): Promise<string> {
    const [m] = await vscode.lm.selectChatModels({ vendor: 'modelgate', id: 'flagship-text' });
    assert.ok(m, 'vscode.lm lists flagship-text');
    const response = await m.sendRequest(
      [vscode.LanguageModelChatMessage.User(text)],
      maxTokens ? { modelOptions: { max_tokens: maxTokens } } : {},
      new vscode.CancellationTokenSource().token,
    );
    let out = '';
    for await (const part of response.stream) if (part instanceof vscode.LanguageModelTextPart) out += part.value;
    return out;
  }

  /** a second window: its own ledger and budget guard on the same folder */
  function secondWindow() {
    const files = new SharedFolder(folder, LEDGER_POLL_MS, { throughVsCode: true });
    assert.equal(files.direct, false, 'the second window writes through vscode.workspace.fs');
    const ledger = new UsageLedger(undefined, files);
    const guard = new BudgetGuard(
      ledger,
      () => api.settings(),
      new MapMemento(),
      () => Promise.resolve(undefined),
    );
    disposables.push(ledger, guard);
    /** one request of that window, as its vscode.lm provider runs it (reserve, check across windows, answer, record) */
    const request = async (estimate: number, cost: number): Promise<boolean> => {
      let hold;
      try {
        hold = guard.reserveForLm('other.extension', 'flagship-text', estimate);
        await guard.checkAcrossWindows(hold, 'other.extension');
      } catch {
        return false;
      }
      await new Promise((r) => setTimeout(r, 30)); // the answer streams
      ledger.record({
        source: 'chat',
        via: 'lm',
        model: 'flagship-text',
        channel: 'stable',
        usage: { promptTokens: 20, completionTokens: 20, cachedTokens: 0 },
        cost,
      });
      hold.settle();
      return true;
    };
    return { ledger, request };
  }

  before(async () => {
    gw = await startGateway({ keys: { [KEY]: { balance: 100 } } });
    api = await vscode.extensions.getExtension<ModelgateApi>('modelgate.modelgate')!.activate();
    folder = vscode.Uri.joinPath(api.chat.storageUri, '..', 'spend');
    await config().update('baseUrl', gw.baseUrl, vscode.ConfigurationTarget.Global);
    await config().update('models', { 'flagship-text': { prices: { default: FLAG_PRICE } } }, vscode.ConfigurationTarget.Global);
    await config().update('channel', 'default', vscode.ConfigurationTarget.Global);
    await until(() => api.settings().baseUrl === gw.baseUrl && !!api.catalogue().price('flagship-text', 'default'), 'settings applied');
    await vscode.commands.executeCommand('modelgate.setApiKey', KEY);
  });

  after(async () => {
    for (const d of disposables) d.dispose();
    for (const k of ['budget.dailyUsd', 'baseUrl', 'models', 'channel']) await config().update(k, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('modelgate.clearApiKey');
    await gw.close();
  });

  it('two windows each sending 8 and then 32 requests at once: a third window reads every entry of both', async function () {
    if (!lmAvailable()) this.skip();
    const other = secondWindow();
    const startBalance = gw.balance(KEY);
    const mine = api.spend.summary('day');
    const t0 = Date.now();
    let otherCost = 0;
    for (const burst of [8, 32]) {
      await Promise.all([
        ...Array.from({ length: burst }, (_, i) => lmRequest(`window one ${burst}/${i} [[words:${4 + (i % 5)}]]`)),
        ...Array.from({ length: burst }, (_, i) => {
          otherCost += 0.0001 * (i + 1);
          return other.request(0.0001, 0.0001 * (i + 1));
        }),
      ]);
    }
    await api.spend.whenWritten();
    await other.ledger.whenWritten();
    const billed = startBalance - gw.balance(KEY);
    // this window: both windows' requests (it reads the other window's files when they change)
    await api.spend.reload();
    assert.equal(api.spend.summary('day').requests - mine.requests, 80);
    // a third window that opens now reads both windows' 80 requests
    const thirdFiles = new SharedFolder(folder, LEDGER_POLL_MS);
    assert.equal(thirdFiles.direct, true, "a folder on the Node host's disk is read with Node's fs");
    const third = new UsageLedger(undefined, thirdFiles);
    disposables.push(third);
    await third.refreshSpend();
    const byWindow = (w: string) => third.spend().entries.filter((e) => e.at >= t0 && e.id?.startsWith(`${w}-`));
    const fromMine = byWindow(api.spend.windowId);
    const fromOther = byWindow(other.ledger.windowId);
    assert.equal(fromMine.length, 40, "this window's 40 requests");
    assert.equal(fromOther.length, 40, "the other window's 40 requests");
    assert.equal(micro(fromMine.reduce((s, e) => s + (e.cost ?? 0), 0)), micro(billed), 'with their billed cost');
    assert.equal(micro(fromOther.reduce((s, e) => s + (e.cost ?? 0), 0)), micro(otherCost));
  });

  it('$0.0005 left and two windows x 32 requests at once: over the budget by at most one request each', async function () {
    if (!lmAvailable()) this.skip();
    const other = secondWindow();
    await api.spend.reload();
    const start = api.spend.summary('day').cost;
    const limit = start + 0.0005;
    await config().update('budget.dailyUsd', limit, vscode.ConfigurationTarget.Global);
    await until(() => api.settings().budgets.dailyUsd === limit, 'budget set');
    const MAX_TOKENS = 40;
    const text = (i: number) => `windows over ${i} [[words:20]]`;
    const model = api.catalogue().chatModel('flagship-text')!;
    const estimate = estimateCost(estimateRequestTokens([{ role: 'user', content: text(10) }]), expectedOutputTokens(MAX_TOKENS, model.maxOutput), FLAG_PRICE);
    const startBalance = gw.balance(KEY);
    await other.ledger.refreshSpend();
    const results = await Promise.allSettled([
      ...Array.from({ length: 32 }, (_, i) => lmRequest(text(i), MAX_TOKENS)),
      ...Array.from({ length: 32 }, () => other.request(estimate, estimate * 0.8).then((sent) => (sent ? 'sent' : Promise.reject(new Error('refused'))))),
    ]);
    const mineSent = results.slice(0, 32).filter((r) => r.status === 'fulfilled').length;
    const otherSent = results.slice(32).filter((r) => r.status === 'fulfilled').length;
    await api.spend.whenWritten();
    await other.ledger.whenWritten();
    await api.spend.reload();
    const spent = api.spend.summary('day').cost - start;
    const billed = startBalance - gw.balance(KEY);
    const figures = {
      date: new Date().toISOString(),
      left: 0.0005,
      estimate,
      sent: { thisWindow: mineSent, otherWindow: otherSent },
      spent,
      billedThisWindow: billed,
      over: Math.max(0, spent - 0.0005),
    };
    console.log(`      two windows x 32 with $0.0005 left: ${JSON.stringify(figures)}`);
    const dir = path.resolve(__dirname, '..', '..', '..', 'test-results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'spend-windows.json'), `${JSON.stringify(figures, null, 2)}\n`);
    assert.ok(
      mineSent + otherSent >= 1,
      `the budget was not used up: a request goes out (${JSON.stringify(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'sent')).slice(0, 2))})`,
    );
    for (const r of results)
      if (r.status === 'rejected')
        assert.match(String((r.reason as Error)?.message), /Daily budget of \$[\d.]+ \(modelgate\.budget\.dailyUsd\) reached|refused/);
    assert.ok(spent <= 0.0005 + 2 * estimate, `over by at most one request each: ${JSON.stringify(figures)}`);
    await config().update('budget.dailyUsd', undefined, vscode.ConfigurationTarget.Global);
  });
});
