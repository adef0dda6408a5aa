// The spend ledger in a real VS Code extension host against the gateway simulator:
// the spending view's totals equal the simulator's billing record (the key's balance
// it charged) to the cent, across panel chat, tool rounds, cached prompts, a vscode.lm request,
// images and a reload; they equal the sum of the usage lines; a request without a price is
// shown as unknown, never as $0; the CSV export has the same figures.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PRICE_CARD } from '../gateway/index';
import { config, until, useModelgate } from './helpers';

const KEY = 'sk-spend-suite-77a0f3';
const FLAG_PRICE = PRICE_CARD.chat['flagship-text']!.stable; // the simulator's default channel is stable
const LCT_PRICE = PRICE_CARD.chat['long-context-tools']!.stable;
const FIXTURE = 'mg-spend-fixture';

const cents = (usd: number) => Math.round(usd * 100);
/** micro-dollars: the figures must agree far below the cent, so a cent test is not luck */
const micro = (usd: number) => Math.round(usd * 1e6);

describe('spend ledger (real VS Code, gateway simulator)', function () {
  this.timeout(120_000);
  const prices = {
    'flagship-text': { prices: { default: FLAG_PRICE } },
    'long-context-tools': { prices: { default: LCT_PRICE } },
    'image-restricted': { kind: 'image', prices: { standard: PRICE_CARD.image['image-restricted']!.standard, hd: PRICE_CARD.image['image-restricted']!.hd } },
  };
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: { models: prices, channel: 'default' },
    restores: ['chat.model'],
    ready: (api) => !!api.catalogue().price('long-context-tools', 'default'),
    key: KEY,
    chat: true,
  });
  let ws: string;

  async function useModel(model: string): Promise<void> {
    await config().update('chat.model', model, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().chatModel === model, `chat.model = ${model}`);
  }

  /** the cost of every answer of the active conversation, as its usage lines show */
  async function usageLineSum(): Promise<number> {
    let sum = 0;
    for (const m of (await mg.api.chat.controller.conversation()).messages) {
      if (m.role !== 'assistant') continue;
      assert.ok(m.usage?.cost !== undefined, `every answer has a priced usage line: ${JSON.stringify(m.usage)}`);
      sum += m.usage.cost;
    }
    return sum;
  }

  before(() => {
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.mkdirSync(path.join(ws, FIXTURE), { recursive: true });
    fs.writeFileSync(path.join(ws, FIXTURE, 'notes.md'), '# notes\n');
  });

  after(() => {
    fs.rmSync(path.join(ws, FIXTURE), { recursive: true, force: true });
  });

  it('the spending view equals the billing record to the cent across chat, tool rounds, cached prompts, vscode.lm, images and a reload', async () => {
    const startBalance = mg.gw.balance(KEY);
    const start = mg.api.spend.summary('day');
    let usageLines = 0;

    // panel chat, plain
    await useModel('flagship-text');
    await mg.api.chat.controller.newChat();
    await mg.api.chat.controller.send('hello [[words:40]]');
    usageLines += await usageLineSum();

    // tool rounds (each round is a billed request; the answer's usage line sums them)
    await useModel('long-context-tools');
    await mg.api.chat.controller.newChat();
    const toolRequestsBefore = mg.gw.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    await mg.api.chat.controller.send(`[[rounds:2]] [[call:list_files {"path":"${FIXTURE}"}]]`);
    assert.ok(mg.gw.requests.filter((r) => r.path.endsWith('/chat/completions')).length >= toolRequestsBefore + 2, 'tool rounds were separate requests');
    usageLines += await usageLineSum();

    // cached prompts: a long first message, then follow-ups that repeat it as their prefix
    await mg.api.chat.controller.newChat();
    const long = Array.from({ length: 700 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join('\n');
    await mg.api.chat.controller.send(`${long}\nSummarize [[words:20]]`);
    await mg.api.chat.controller.send('Shorter [[words:10]]');
    const conv = await mg.api.chat.controller.conversation();
    const last = conv.messages.at(-1)!;
    assert.ok(last.role === 'assistant' && last.usage && last.usage.cachedTokens > 0, 'the follow-up read its prefix from cache');
    usageLines += await usageLineSum();

    // a request from another extension through vscode.lm
    if (typeof vscode.lm?.registerLanguageModelChatProvider === 'function') {
      const [m] = await vscode.lm.selectChatModels({ vendor: 'modelgate', id: 'flagship-text' });
      const response = await m!.sendRequest([vscode.LanguageModelChatMessage.User('hi [[words:15]]')], {}, new vscode.CancellationTokenSource().token);
      for await (const _ of response.stream) void _;
      await until(() => mg.api.lastUsage()?.via === 'lm', 'the lm request recorded');
      usageLines += mg.api.lastUsage()!.cost!;
    }

    // images: two at the standard 1024x1024 price
    const uris =
      (await vscode.commands.executeCommand<vscode.Uri[]>('modelgate.generateImage', {
        prompt: 'a red kite',
        model: 'image-restricted',
        n: 1,
        folder: FIXTURE,
        open: false,
      })) ?? [];
    assert.equal(uris.length, 1);
    const imageUsage = mg.api.lastUsage()!;
    assert.equal(imageUsage.source, 'image');
    assert.equal(imageUsage.cost, PRICE_CARD.image['image-restricted']!.standard!['1024x1024']);
    usageLines += imageUsage.cost!;

    const billed = startBalance - mg.gw.balance(KEY);
    assert.ok(billed > 0.04, `billed ${billed}`);
    await vscode.commands.executeCommand('modelgate.showSpending');
    const page = await until(() => mg.api.spend.view.lastPage, 'the spending view drawn');
    const spent = page.today.cost - start.cost;
    assert.equal(page.today.unpriced, start.unpriced, 'every request had a price');
    assert.equal(cents(spent), cents(billed), `view ${spent} vs billed ${billed}`);
    assert.equal(micro(spent), micro(billed), 'and far below the cent');
    assert.equal(micro(usageLines), micro(billed), 'the usage lines add up to the same');
    assert.ok(page.month.cost >= page.week.cost - 1e-9 || new Date().getDate() < 7, 'month holds the week (unless the week began last month)');
    const sources = page.today.bySource.map((r) => r.key);
    assert.ok(sources.includes('chat panel') && sources.includes('image command'), sources.join(', '));
    assert.ok(page.today.byModel.some((r) => r.key === 'image-restricted'));
    assert.match(mg.api.spend.view.lastHtml ?? '', /<svg width="120"/);

    // a reload reads the ledger back from the ledger files: the same figures
    await mg.api.spend.reload();
    const after = mg.api.spend.summary('day');
    assert.equal(micro(after.cost - start.cost), micro(billed));
    assert.equal(after.requests, page.today.requests);

    // the CSV export has the same figures
    const csvUri = vscode.Uri.file(path.join(ws, FIXTURE, 'spend.csv'));
    assert.ok(await mg.api.spend.view.exportCsv(csvUri));
    const rows = fs
      .readFileSync(csvUri.fsPath, 'utf8')
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(','));
    const csvToday = rows.filter((r) => r[0] && new Date(r[0]).getTime() >= after.start).reduce((s, r) => s + Number(r[10] || 0), 0);
    assert.equal(micro(csvToday), micro(after.cost), "CSV lines add up to today's total");
  });

  it('Show Spending has the conversations (title, total, share cached) and the last 30 days; the CSV names the conversation', async () => {
    await useModel('flagship-text');
    await mg.api.chat.controller.newChat();
    const long = Array.from({ length: 400 }, (_, i) => `row ${i}: a repeated prefix for the cache`).join('\n');
    await mg.api.chat.controller.send(`${long}\nFirst [[words:12]]`);
    await mg.api.chat.controller.send('Again [[words:8]]');
    const conv = await mg.api.chat.controller.conversation();
    assert.ok(await mg.api.chat.controller.renameConversation(conv.id, 'Cost of the <b>parser</b> task'));
    await mg.api.chat.controller.send('Once more [[words:5]]');
    const answers = (await mg.api.chat.controller.conversation()).messages.filter((m) => m.role === 'assistant');
    const total = answers.reduce((n, m) => n + (m.usage?.cost ?? 0), 0);
    const prompt = answers.reduce((n, m) => n + (m.usage?.promptTokens ?? 0), 0);
    const cached = answers.reduce((n, m) => n + (m.usage?.cachedTokens ?? 0), 0);
    assert.ok(cached > 0, 'the follow-ups read their prefix from the cache');
    await vscode.commands.executeCommand('modelgate.showSpending');
    const page = await until(() => {
      const p = mg.api.spend.view.lastPage;
      return p?.conversations.some((r) => r.conversation === conv.id && r.requests === 3) ? p : undefined;
    }, 'the page lists the conversation with its three requests');
    const row = page.conversations.find((r) => r.conversation === conv.id)!;
    assert.equal(row.title, 'Cost of the <b>parser</b> task', 'under the title it has now');
    assert.equal(micro(row.cost), micro(total), 'its total is the sum of its usage lines');
    assert.equal(Math.round((row.cachedTokens / row.promptTokens) * 100), Math.round((cached / prompt) * 100));
    assert.equal(page.days.length, 30);
    assert.ok(page.days.at(-1)!.cost >= total, 'today holds it');
    const html = mg.api.spend.view.lastHtml ?? '';
    assert.match(html, /<section id="days">/);
    assert.match(html, /<section id="conversations">.*Cost of the &lt;b&gt;parser&lt;\/b&gt; task/s);
    const csvUri = vscode.Uri.file(path.join(ws, FIXTURE, 'by-conversation.csv'));
    await mg.api.spend.view.exportCsv(csvUri);
    const lines = fs.readFileSync(csvUri.fsPath, 'utf8').trim().split('\r\n');
    assert.equal(lines.filter((l) => l.endsWith(`,Cost of the <b>parser</b> task,${conv.id}`)).length, 3, 'three lines under its title');
  });

  it('an answer stopped after it started, before the gateway reported usage, counts as a request of unknown cost', async () => {
    await useModel('flagship-text');
    await mg.api.chat.controller.newChat();
    const before = mg.api.spend.summary('day');
    const chats = () => mg.gw.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    const sentBefore = chats();
    const sent = mg.api.chat.controller.send('stop me [[words:20000]] [[fault:drip:1]]');
    await until(async () => {
      const last = (await mg.api.chat.controller.conversation()).messages.at(-1);
      return last?.role === 'assistant' && last.parts.some((p) => p.kind === 'text' && p.text.length > 0);
    }, 'the first streamed text');
    mg.api.chat.controller.stop();
    await sent;
    await mg.api.chat.controller.whenIdle();
    assert.equal(chats(), sentBefore + 1, 'one request reached the gateway');
    const last = (await mg.api.chat.controller.conversation()).messages.at(-1)!;
    assert.ok(
      last.role === 'assistant' && last.status === 'stopped' && !last.usage?.completionTokens,
      `stopped without usage: ${JSON.stringify(last).slice(-300)}`,
    );
    const after = await until(
      () => (mg.api.spend.summary('day').requests > before.requests ? mg.api.spend.summary('day') : undefined),
      'the stopped answer in the ledger',
    );
    assert.equal(after.requests, before.requests + 1, 'recorded once');
    assert.equal(after.unpriced, before.unpriced + 1, 'as a request of unknown cost');
    assert.equal(micro(after.cost), micro(before.cost), 'nothing added as $0 to the dollars');
  });

  it('a request without a price is shown as unknown, never as $0', async () => {
    await config().update('models', undefined, vscode.ConfigurationTarget.Global);
    await until(() => !mg.api.catalogue().price('flagship-text', 'default'), 'prices removed');
    try {
      const before = mg.api.spend.summary('day');
      await useModel('flagship-text');
      await mg.api.chat.controller.newChat();
      await mg.api.chat.controller.send('no price [[words:5]]');
      await vscode.commands.executeCommand('modelgate.showSpending');
      const page = await until(() => (mg.api.spend.view.lastPage?.today.requests ?? 0) > before.requests && mg.api.spend.view.lastPage, 'the view redrawn');
      assert.equal(page.today.unpriced, before.unpriced + 1);
      assert.equal(micro(page.today.cost), micro(before.cost), 'nothing added as $0 to the dollars');
      assert.match(mg.api.spend.view.lastHtml ?? '', /request(s)? without a price/);
    } finally {
      await config().update('models', prices, vscode.ConfigurationTarget.Global);
    }
  });

  it('the spending view redraws on a budget change and on a refusal; the CSV asks where to save and has no float noise', async () => {
    const view = mg.api.spend.view;
    await useModel('long-context-tools');
    await mg.api.chat.controller.newChat();
    await mg.api.chat.controller.send('spent today [[words:7]]');
    await vscode.commands.executeCommand('modelgate.showSpending');
    await until(() => /No budget set/.test(view.lastHtml ?? '') || undefined, 'the view drawn without a budget');
    const asked: string[] = [];
    try {
      // a budget set while the page is open: drawn at once, no new request needed
      await config().update('budget.dailyUsd', 0.000001, vscode.ConfigurationTarget.Global);
      await until(() => (view.lastPage?.budgets.length ?? 0) > 0 && !/No budget set/.test(view.lastHtml ?? ''), 'the view redrawn with the budget');
      // a send the budget refuses (Cancel) redraws it too
      const drawn = view.lastPage;
      mg.api.spend.setBudgetAsk(async (status) => (asked.push(status.kind), undefined));
      await mg.api.chat.controller.send('refused [[words:3]]');
      await until(() => asked.length > 0 && view.lastPage !== drawn, 'the view redrawn after the refusal');

      // Export CSV asks where (never straight into the workspace) and writes costs without float noise
      const target = vscode.Uri.file(path.join(ws, FIXTURE, 'asked.csv'));
      let dialog: vscode.SaveDialogOptions | undefined;
      view.saveDialog = async (options) => ((dialog = options), target);
      assert.equal((await view.exportCsv())?.toString(), target.toString());
      assert.ok(dialog, 'the save dialog was asked');
      assert.match(dialog.saveLabel ?? '', /Export/);
      assert.ok(!dialog.defaultUri || !dialog.defaultUri.fsPath.startsWith(ws), `no default inside the workspace: ${dialog.defaultUri?.fsPath}`);
      const costs = fs
        .readFileSync(target.fsPath, 'utf8')
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[10]!)
        .filter(Boolean);
      assert.ok(costs.length > 0);
      for (const c of costs) assert.match(c, /^\d+(\.\d{1,10})?$/, `a cost cell without float noise: ${c}`);
      // cancelling the dialog writes nothing
      view.saveDialog = async () => undefined;
      assert.equal(await view.exportCsv(), undefined);
    } finally {
      mg.api.spend.setBudgetAsk(undefined);
      view.saveDialog = (options) => vscode.window.showSaveDialog(options);
      await config().update('budget.dailyUsd', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
