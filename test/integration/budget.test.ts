// Budgets in a real VS Code extension host against the gateway simulator:
// a tiny daily budget with known prices; the next chat send asks (Cancel sends nothing and puts
// the text back; "Send Once" sends that one message), the image command asks likewise, a
// vscode.lm request from another extension (this suite runs in the test-runner extension) is
// refused with the budget named, and raising the budget lets both through. The modal cannot be
// clicked from the extension host, so the suite answers it through api.spend.setBudgetAsk.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { BudgetStatus } from '../../src/core/spend/budget';
import type { HostMessage } from '../../src/chat/protocol';
import { PRICE_CARD } from '../gateway/index';
import { config, until, useModelgate } from './helpers';

const KEY = 'sk-budget-suite-4be1c9';
const FLAG_PRICE = PRICE_CARD.chat['flagship-text']!.stable; // the simulator's default channel is stable

describe('budgets (real VS Code, gateway simulator)', function () {
  this.timeout(60_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: { models: { 'flagship-text': { prices: { default: FLAG_PRICE } } }, 'chat.model': 'flagship-text', channel: 'default' },
    restores: ['budget.dailyUsd', 'budget.monthlyUsd'],
    ready: (api) => !!api.catalogue().price('flagship-text', 'default'),
    key: KEY,
    chat: true,
  });
  let posts: HostMessage[] = [];
  let subscription: vscode.Disposable | undefined;
  let answer: string | undefined;
  const asked: { status: BudgetStatus; what: string }[] = [];
  const chatRequests = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions')).length;
  const imageRequests = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/images/generations')).length;

  async function setDaily(usd: number | undefined): Promise<void> {
    await config().update('budget.dailyUsd', usd, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().budgets.dailyUsd === usd, `budget.dailyUsd = ${usd}`);
  }

  /** a daily budget just above what was spent today: the next priced request uses it up */
  async function tinyBudget(): Promise<void> {
    await setDaily(mg.api.spend.summary('day').cost + 1e-7);
  }

  async function lmRequest(text: string): Promise<string> {
    const [m] = await vscode.lm.selectChatModels({ vendor: 'modelgate', id: 'flagship-text' });
    assert.ok(m, 'vscode.lm lists flagship-text');
    const response = await m.sendRequest([vscode.LanguageModelChatMessage.User(text)], {}, new vscode.CancellationTokenSource().token);
    let out = '';
    for await (const part of response.stream) if (part instanceof vscode.LanguageModelTextPart) out += part.value;
    return out;
  }

  before(() => {
    mg.api.spend.setBudgetAsk((status, what) => {
      asked.push({ status, what });
      return Promise.resolve(answer as never);
    });
  });

  beforeEach(async () => {
    asked.length = 0;
    answer = undefined;
    await mg.api.chat.controller.newChat();
    subscription?.dispose();
    posts = [];
    subscription = mg.api.chat.controller.onDidPost((m) => posts.push(m));
  });

  after(() => {
    subscription?.dispose();
    mg.api.spend.setBudgetAsk(undefined);
  });

  it('the chat panel asks before sending once the daily budget is used up; Cancel sends nothing and keeps the text', async () => {
    await tinyBudget();
    await mg.api.chat.controller.send('first [[words:20]]');
    assert.equal(asked.length, 0, 'not asked while the budget was not used up');
    const before = chatRequests();
    await mg.api.chat.controller.send('second, please');
    assert.equal(asked.length, 1, 'asked once');
    assert.equal(asked[0]!.what, 'chat');
    assert.equal(asked[0]!.status.kind, 'daily');
    assert.ok(asked[0]!.status.spent >= asked[0]!.status.limit);
    assert.equal(chatRequests(), before, 'nothing was sent');
    assert.ok(
      posts.some((p) => p.type === 'setDraft' && p.text === 'second, please'),
      'the text went back into the input',
    );
    const notice = posts.find((p): p is Extract<HostMessage, { type: 'notice' }> => p.type === 'notice');
    assert.match(notice?.message ?? '', /^Nothing was sent: Daily budget of \$[\d.]+ \(modelgate\.budget\.dailyUsd\) reached/);
  });

  it('a budget used up mid-answer stops before the next tool round and asks; Cancel runs no more tools', async () => {
    await tinyBudget();
    const before = chatRequests();
    await mg.api.chat.controller.send('[[rounds:3]] [[call:list_files {}]]');
    assert.equal(asked.length, 1, 'asked once, before the second round');
    assert.equal(chatRequests(), before + 1, 'only the first round was sent');
    const last = (await mg.api.chat.controller.conversation()).messages.at(-1)!;
    assert.ok(last.role === 'assistant');
    assert.deepEqual(
      last.parts.flatMap((p) => (p.kind === 'tool' ? [p.call.status] : [])),
      ['denied'],
    );
    assert.match(
      last.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''),
      /Stopped before the next round of tool calls: Nothing was sent: Daily budget/,
    );
  });

  it('"Send Once" sends that one message, and the next send asks again', async () => {
    await tinyBudget();
    await mg.api.chat.controller.send('use it up [[words:5]]');
    answer = 'Send Once';
    const before = chatRequests();
    await mg.api.chat.controller.send('once more [[words:5]]');
    assert.equal(asked.length, 1);
    assert.equal(chatRequests(), before + 1, 'sent after "Send Once"');
    answer = undefined;
    await mg.api.chat.controller.send('and again');
    assert.equal(asked.length, 2, 'asked again for the next message');
    assert.equal(chatRequests(), before + 1);
  });

  it('refuses a vscode.lm request from another extension with the budget named, and sends nothing', async function () {
    if (typeof vscode.lm?.registerLanguageModelChatProvider !== 'function') this.skip();
    await tinyBudget();
    await mg.api.chat.controller.send('use it up [[words:5]]');
    const before = chatRequests();
    await assert.rejects(lmRequest('hello [[words:3]]'), (err: Error) => {
      assert.match(err.message, /Daily budget of \$[\d.]+ \(modelgate\.budget\.dailyUsd\) reached/);
      assert.match(err.message, /raise "modelgate\.budget\.dailyUsd"/);
      return true;
    });
    assert.equal(asked.length, 0, "another extension is never asked on the user's behalf");
    assert.equal(chatRequests(), before, 'nothing reached the gateway');
  });

  it('the image command asks likewise; Cancel generates nothing', async () => {
    await tinyBudget();
    await mg.api.chat.controller.send('use it up [[words:5]]');
    const before = imageRequests();
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('modelgate.generateImage', { prompt: 'a lighthouse', folder: 'mg-budget-images', open: false })),
    );
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.what, 'image');
    assert.equal(imageRequests(), before, 'no image request was sent');
  });

  it('raising the budget lets the panel and vscode.lm through again; the lm request is recorded with its caller', async function () {
    await tinyBudget();
    await mg.api.chat.controller.send('use it up [[words:5]]');
    await setDaily(mg.api.spend.summary('day').cost + 100);
    const before = chatRequests();
    await mg.api.chat.controller.send('after the raise [[words:4]]');
    assert.equal(asked.length, 0);
    assert.equal(chatRequests(), before + 1);
    if (typeof vscode.lm?.registerLanguageModelChatProvider === 'function') {
      assert.equal((await lmRequest('hello [[words:3]]')).split(' ').length, 3);
      assert.equal(chatRequests(), before + 2);
      const sources = mg.api.spend.summary('day').bySource.map((r) => r.key);
      assert.ok(
        sources.some((k) => k.startsWith('vscode.lm: ') && !k.includes('not reported')),
        `the calling extension is named: ${sources.join(', ')}`,
      );
    }
  });

  it('an invalid budget setting is reported with a clear message and no budget applies', async () => {
    await config().update('budget.dailyUsd', -3, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().problems.some((p) => p.includes('modelgate.budget.dailyUsd')), 'the problem reported');
    assert.match(
      mg.api.settings().problems.find((p) => p.includes('budget'))!,
      /must be a positive amount in US dollars/,
    );
    assert.equal(mg.api.settings().budgets.dailyUsd, undefined);
    await setDaily(undefined);
  });
});
