// Modelgate's image tool for every other agent: `modelgate_generate_image`, called the
// way a second extension calls it, through vscode.lm.invokeTool (this suite runs in the test
// runner's extension, not in Modelgate). Outside a chat VS Code shows the tool's confirmation as a
// modal dialog the extension host cannot click, so the suite turns on VS Code's own auto-approval
// for the run (the `chat.tools.global.autoApprove` setting and the context key VS Code's tests use
// in place of its opt-in dialog); VS Code still asks the tool for its confirmation first, and the
// suite reads what the tool returned. The simulator prices image-small through modelgate.models.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatUsd } from '../../src/core/spend/cost';
import { readPngChunks } from '../../src/images/pngText';
import { PRICE_CARD } from '../gateway/prices';
import { config, until, useModelgate } from './helpers';

const TOOL = 'modelgate_generate_image';
const FOLDER = 'mg-image-tool-it';
const EACH = PRICE_CARD.image['image-small']!.standard!['256x256']!;
const AUTO_APPROVE = 'chat.tools.global.autoApprove';
const AUTO_APPROVE_TEST_MODE = 'vscode.chat.tools.global.autoApprove.testMode';

describe('image tool: modelgate_generate_image through vscode.lm.invokeTool (real VS Code)', function () {
  this.timeout(60_000);
  const mg = useModelgate({
    gateway: { keys: { 'sk-image-tool-7d1e': { balance: 100 } } },
    key: 'sk-image-tool-7d1e',
    settings: {
      models: { 'image-small': { kind: 'image', prices: { standard: PRICE_CARD.image['image-small']!.standard } } },
      'image.model': 'image-small',
      'image.folder': FOLDER,
    },
    restores: ['budget.dailyUsd', 'budget.monthlyUsd'],
    ready: (api) => api.catalogue().imageCost('image-small', '256x256', 1) !== undefined,
    requires: () => typeof vscode.lm?.invokeTool === 'function',
  });
  let dir: string;
  let autoApproveBefore: unknown;
  const generations = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/images/generations')).length;
  const invoke = (input: object) =>
    Promise.resolve(vscode.lm.invokeTool(TOOL, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token));

  before(async () => {
    dir = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, FOLDER);
    await fs.rm(dir, { recursive: true, force: true });
    const chat = vscode.workspace.getConfiguration('chat');
    autoApproveBefore = chat.inspect(AUTO_APPROVE.slice(5))?.globalValue;
    await chat.update(AUTO_APPROVE.slice(5), true, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('setContext', AUTO_APPROVE_TEST_MODE, true);
  });

  after(async () => {
    await vscode.commands.executeCommand('setContext', AUTO_APPROVE_TEST_MODE, false);
    await vscode.workspace.getConfiguration('chat').update(AUTO_APPROVE.slice(5), autoApproveBefore, vscode.ConfigurationTarget.Global);
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('is listed in vscode.lm.tools with its input schema', async () => {
    const tool = await until(() => vscode.lm.tools.find((t) => t.name === TOOL), `${TOOL} in vscode.lm.tools`);
    assert.deepEqual((tool.inputSchema as { required?: string[] }).required, ['prompt']);
  });

  it('confirms with prompt, size, count, model, folder and price; saves the PNGs in the workspace; the ledger has the cost; the result lists the paths', async () => {
    const result = await invoke({ prompt: 'A red fox in snow', size: '256x256', count: 2 });
    // what VS Code got from prepareInvocation before it ran the tool
    const confirmation = mg.api.imageTool()?.lastConfirmation;
    assert.ok(confirmation, 'VS Code asked the tool for its confirmation');
    assert.match(String(confirmation.title), /Generate 2 images with Modelgate/);
    const message = typeof confirmation.message === 'string' ? confirmation.message : confirmation.message.value;
    for (const part of ['A red fox in snow', '256x256', 'image-small', FOLDER, formatUsd(2 * EACH)])
      assert.ok(message.includes(part), `the confirmation shows ${part}: ${message}`);
    assert.match(message, /\*\*Count:\*\* 2/);

    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    const listed = [...text.matchAll(/^- (.+)$/gm)].map((m) => m[1]!);
    assert.equal(listed.length, 2, `two workspace paths in the result: ${text}`);
    assert.ok(text.includes(formatUsd(2 * EACH)), 'the result names the cost');
    const files = (await fs.readdir(dir)).sort();
    assert.deepEqual(listed.map((p) => path.posix.basename(p)).sort(), files);
    for (const p of listed) {
      assert.ok(p.startsWith(`${FOLDER}/`), `a workspace path: ${p}`);
      readPngChunks(await fs.readFile(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, p))); // a valid PNG
    }
    const last = mg.api.lastUsage();
    assert.equal(last?.source, 'image');
    assert.equal(last?.images, 2);
    assert.equal(last?.cost, 2 * EACH, 'the ledger has the cost');
  });

  it("another extension's images are booked under its name, and the confirmation shows what the budget leaves", async function () {
    if (typeof vscode.lm?.selectChatModels !== 'function') this.skip();
    // this suite is another extension to Modelgate: an agent of it asks a model, then calls the tool
    const [model] = await vscode.lm.selectChatModels({ vendor: 'modelgate', id: 'flagship-text' });
    assert.ok(model, 'vscode.lm lists flagship-text');
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('draw a plan [[words:3]]')], {}, new vscode.CancellationTokenSource().token);
    for await (const _ of response.stream) void _;
    const caller = mg.api.lastUsage()?.requester;
    const spent = mg.api.spend.summary('day').cost;
    await config().update('budget.dailyUsd', spent + 1, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().budgets.dailyUsd === spent + 1, 'the daily budget');
    // earlier suites of the session may have used the image command today: its row must not grow
    const imageCommand = () => mg.api.spend.summary('day').bySource.find((r) => r.key === 'image command')?.cost ?? 0;
    const commandBefore = imageCommand();
    try {
      await invoke({ prompt: 'A blue heron', size: '256x256' });
      const message = mg.api.imageTool()!.lastConfirmation!.message;
      const text = typeof message === 'string' ? message : message.value;
      assert.match(text, /Daily budget: \$[\d.]+ left of \$[\d.]+/, `the confirmation shows the budget: ${text}`);
      const last = mg.api.lastUsage();
      assert.equal(last?.via, 'imageTool');
      assert.equal(last?.requester, caller, 'booked under the extension that asked');
      const label = caller ? (caller === 'core' ? 'image tool: VS Code chat' : `image tool: ${caller}`) : 'image tool (caller not reported)';
      const sources = mg.api.spend.summary('day').bySource.map((r) => r.key);
      assert.ok(sources.includes(label), `${label} in ${sources.join(', ')}`);
      assert.equal(imageCommand(), commandBefore, 'never booked as the image command');
    } finally {
      await config().update('budget.dailyUsd', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('is refused over budget with the budget named, and nothing is sent', async () => {
    const spent = mg.api.spend.summary('day').cost;
    assert.ok(spent > 0);
    await config().update('budget.dailyUsd', spent / 2, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().budgets.dailyUsd === spent / 2, 'the daily budget');
    const before = generations();
    await assert.rejects(invoke({ prompt: 'one more fox', size: '256x256' }), (err: Error) => {
      assert.match(err.message, /Daily budget of \$[\d.]+ \(modelgate\.budget\.dailyUsd\) reached/);
      return true;
    });
    assert.equal(generations(), before, 'no image request reached the gateway');
    // refused before VS Code asks: no confirmation with a Yes that would then fail
    assert.equal(mg.api.imageTool()!.lastConfirmation, undefined, 'no confirmation was shown');
    assert.match(mg.api.imageTool()!.lastRefusal ?? '', /Daily budget of \$[\d.]+ \(modelgate\.budget\.dailyUsd\) reached/);
  });

  it('refuses input a model may not send (a folder) before anything is spent', async () => {
    const before = generations();
    await assert.rejects(invoke({ prompt: 'escape', folder: '../../tmp' }), /folder/);
    assert.equal(generations(), before);
  });
});
