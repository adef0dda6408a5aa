// The chat panel's generate_image tool in a real VS Code: the simulator's model calls it
// ([[call:generate_image {...}]]). Before anything is spent the panel's approval card asks (the
// suite presses its buttons through the view's own message entry, as the webview does): Generate,
// Always allow in this conversation, or Skip, the default. The folder is asked once per
// conversation when modelgate.image.folder is not set (an input box: answered through the tool's
// hook). The PNGs land there, the answer shows them inline from the files (an `images` message with
// webview URIs under a local resource root added for their folder only, checked again after a
// reload, a deleted one shown as missing), their cost is on the answer's usage line and in the
// ledger, a used-up budget refuses with the budget named, and neither the model's arguments nor a
// hostile folder can put them outside the workspace.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalView, HostMessage, MessageView, ShownImage } from '../../src/chat/protocol';
import { WEBVIEW_RESOURCE_URL } from '../../src/core/webviewResource';
import { formatUsd } from '../../src/core/spend/cost';
import { PRICE_CARD } from '../gateway/prices';
import { config, until, useModelgate } from './helpers';

const KEY = 'sk-panel-image-5a2c';
const FOLDER = 'mg-panel-images-it';
const LINK = 'mg-panel-images-link-out';
const EACH = PRICE_CARD.image['image-small']!.standard!['256x256']!;
const call = (args: object) => `[[call:generate_image ${JSON.stringify(args)}]]`;

type ImagesMessage = Extract<HostMessage, { type: 'images' }>;

describe('panel generate_image tool (real VS Code)', function () {
  this.timeout(60_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: {
      models: { 'image-small': { kind: 'image', prices: { standard: PRICE_CARD.image['image-small']!.standard } } },
      'image.model': 'image-small',
      'chat.model': 'flagship-text',
    },
    restores: ['image.folder', 'budget.dailyUsd'],
    ready: (api) => api.catalogue().imageCost('image-small', '256x256', 1) !== undefined,
    key: KEY,
    chat: true,
  });
  let ws: string;
  let outside: string;
  let posts: HostMessage[] = [];
  let delivered: HostMessage[] = [];
  const subs: vscode.Disposable[] = [];
  let folderAnswer: string | undefined = FOLDER;
  let folderQuestions = 0;
  const generations = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/images/generations')).length;
  const chatBodies = () =>
    mg.gw.requests
      .filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'))
      .map((r) => r.body as { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] });
  const lastToolMessage = () =>
    String(
      chatBodies()
        .at(-1)!
        .messages.filter((m) => m.role === 'tool')
        .at(-1)?.content ?? '',
    );
  const finished = () => posts.filter((m): m is Extract<HostMessage, { type: 'messageFinished' }> => m.type === 'messageFinished').at(-1);
  const cards = () => posts.filter((p): p is Extract<HostMessage, { type: 'approvalRequest' }> => p.type === 'approvalRequest').map((p) => p.approval);
  const shownImages = () => delivered.filter((m): m is ImagesMessage => m.type === 'images');
  const answer = (card: ApprovalView, choiceId: string) => mg.api.chat.view.receive({ type: 'approvalAnswer', id: card.id, choiceId });
  const roots = () => (mg.api.chat.view.served?.options.localResourceRoots ?? []).map((u) => u.fsPath);
  const files = async () => (await fs.readdir(path.join(ws, FOLDER)).catch(() => [] as string[])).sort();

  /** Sends `text` and answers the cards as they come with `choices`, in order; resolves when the answer ended. */
  async function send(text: string, ...choices: string[]): Promise<ApprovalView[]> {
    const seen = cards().length;
    const sending = mg.api.chat.controller.send(text);
    const asked: ApprovalView[] = [];
    for (const choice of choices) {
      const card = await until(() => cards()[seen + asked.length], `approval card ${asked.length + 1}`);
      asked.push(card);
      answer(card, choice);
    }
    // the answer ends, or an unexpected card waits: that one is skipped and the test fails at once
    let ended = false;
    void sending.finally(() => (ended = true));
    const extra = await until<ApprovalView | 'ended'>(() => cards()[seen + asked.length] ?? (ended && 'ended'), 'the answer to end');
    if (extra !== 'ended') {
      answer(extra, 'skip');
      await sending;
      assert.fail(`an unexpected card: ${extra.title} ${extra.detail.join(' | ')}`);
    }
    await sending;
    await mg.api.chat.controller.whenIdle();
    return asked;
  }

  before(async () => {
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    outside = await fs.mkdtemp(path.join(os.tmpdir(), 'mg-panel-images-outside-'));
    await fs.rm(path.join(ws, FOLDER), { recursive: true, force: true });
    await fs.rm(path.join(ws, LINK), { force: true });
    await config().update('image.folder', undefined, vscode.ConfigurationTarget.Global);
    // the panel is open: the images are shown in it
    await vscode.commands.executeCommand('modelgate.openChat');
    await until(() => mg.api.chat.view.served?.html, 'the chat view to be resolved');
    subs.push(mg.api.chat.view.onDidDeliver((m) => delivered.push(m)));
    // the tool is built with the panel's tool list; its folder question is answered here
    await mg.api.chat.controller.send('hello [[words:2]]');
    await mg.api.chat.controller.whenIdle();
    const tool = await until(() => mg.api.panelImageTool(), 'the panel image tool');
    tool.askFolder = () => {
      folderQuestions++;
      return Promise.resolve(folderAnswer);
    };
  });

  beforeEach(async () => {
    await mg.api.chat.controller.newChat();
    for (const s of subs.splice(1)) s.dispose();
    posts = [];
    delivered = [];
    subs.push(mg.api.chat.controller.onDidPost((m) => posts.push(m)));
    folderQuestions = 0;
    folderAnswer = FOLDER;
  });

  after(async () => {
    // a conversation without images on screen: the view's roots are the extension's own again
    if (ws) {
      await mg.api.chat.controller.newChat();
      await until(() => roots().length === 2, 'the image folder to leave the local resource roots');
    }
    for (const s of subs.splice(0)) s.dispose();
    mg.api.spend.setBudgetAsk(undefined);
    await fs.rm(path.join(ws ?? '', FOLDER), { recursive: true, force: true });
    await fs.rm(path.join(ws ?? '', LINK), { force: true });
    if (outside) await fs.rm(outside, { recursive: true, force: true });
  });

  it('asks on the panel card with prompt, size, count, model, folder and price; Skip is the default and sends nothing', async () => {
    const before = generations();
    const [card] = await send(`draw ${call({ prompt: 'a skipped bird', size: '256x256' })}`, 'skip');
    assert.ok(
      chatBodies()
        .at(-2)!
        .tools?.some((t) => t.function.name === 'generate_image'),
      'generate_image is offered',
    );
    assert.match(card!.title, /Generate an image with Modelgate\?/);
    for (const part of ['a skipped bird', '256x256', 'Count: 1', 'image-small', `Folder: ${FOLDER}`, `Price: ${formatUsd(EACH)}`])
      assert.ok(
        card!.detail.some((line) => line.includes(part)),
        `the card shows ${part}: ${card!.detail.join(' | ')}`,
      );
    assert.deepEqual(
      card!.choices.map((c) => c.id),
      ['generate', 'always', 'skip'],
    );
    assert.equal(card!.safeChoiceId, 'skip', 'Skip is the default button');
    assert.equal(generations(), before, 'nothing was sent');
    assert.match(lastToolMessage(), /skipped/);
    assert.deepEqual(await files(), [], 'nothing was written');
  });

  it('Generate: saves the PNG, shows it inline from the file (its folder only becomes a resource root), and costs it on the usage line and in the ledger', async () => {
    const spentBefore = mg.api.spend.summary('day');
    const imageRowBefore = spentBefore.byModel.find((r) => r.key === 'image-small')?.cost ?? 0;
    await send(`draw ${call({ prompt: 'a blue bird', size: '256x256' })}`, 'generate');
    assert.equal(folderQuestions, 1, 'the folder is asked once');
    const saved = await files();
    assert.equal(saved.length, 1);
    assert.ok(lastToolMessage().includes(`${FOLDER}/${saved[0]}`), `the model got the workspace path: ${lastToolMessage()}`);

    // the image message: a webview resource URL of exactly that file, under a root added for its folder
    const shown = await until(() => shownImages().at(-1), 'the images message posted to the view');
    assert.equal(shown.images.length, 1);
    const image = shown.images[0]!;
    assert.equal(image.state, 'shown', JSON.stringify(image));
    const src = (image as Extract<ShownImage, { state: 'shown' }>).src;
    assert.match(src, WEBVIEW_RESOURCE_URL);
    const realFolder = await fs.realpath(path.join(ws, FOLDER));
    assert.equal(decodeURIComponent(new URL(src).pathname), vscode.Uri.file(path.join(realFolder, saved[0]!)).path, 'the URL is the saved file');
    assert.ok(roots().includes(realFolder), `the image folder is a resource root: ${roots().join(', ')}`);
    assert.ok(!roots().includes(ws) && !roots().includes(await fs.realpath(ws)), 'the workspace folder itself is not a root');
    assert.equal(roots().length, 3, 'dist, media and the image folder only');
    const part = (await finishedAnswer())?.parts.find((p) => p.kind === 'images');
    assert.deepEqual(part && part.kind === 'images' && part.paths, [`${FOLDER}/${saved[0]}`], 'the answer keeps the workspace path');

    // cost: the usage line has the image; the ledger has the answer and the image, the same total
    const usageCost = finished()?.usage?.cost ?? 0;
    assert.ok(usageCost >= EACH, `the usage line has the image cost: ${JSON.stringify(finished()?.usage)}`);
    await mg.api.spend.whenWritten();
    const spentAfter = mg.api.spend.summary('day');
    assert.ok(
      Math.abs(spentAfter.cost - spentBefore.cost - usageCost) < 1e-9,
      `the ledger grew by the usage line: ${spentAfter.cost - spentBefore.cost} vs ${usageCost}`,
    );
    assert.ok(
      Math.abs((spentAfter.byModel.find((r) => r.key === 'image-small')?.cost ?? 0) - imageRowBefore - EACH) < 1e-9,
      'the ledger has the image at its price',
    );
    assert.equal(spentAfter.images - spentBefore.images, 1);

    // Generate is for this request only: the next one asks again
    const again = await send(`again ${call({ prompt: 'a red bird', size: '256x256' })}`, 'generate');
    assert.equal(again.length, 1, 'asked again');
    assert.equal(folderQuestions, 1, 'the folder is not asked again in this conversation');
    assert.equal((await files()).length, 2);
  });

  it('Always allow in this conversation: not asked again in it, asked again in a new one', async () => {
    await send(`draw ${call({ prompt: 'a green bird', size: '256x256' })}`, 'always');
    const before = generations();
    const asked = await send(`again ${call({ prompt: 'a yellow bird', size: '256x256' })}`);
    assert.equal(asked.length, 0, 'not asked again in this conversation');
    assert.equal(generations(), before + 1, 'generated without a question');
    await mg.api.chat.controller.newChat();
    const fresh = await send(`new ${call({ prompt: 'a grey bird', size: '256x256' })}`, 'skip');
    assert.equal(fresh.length, 1, 'asked in a new conversation');
  });

  it('the shown images survive a reload; a deleted one is shown as missing, and a click opens the file', async () => {
    await send(`draw ${call({ prompt: 'a stored bird', size: '256x256' })}`, 'generate');
    const first = await until(() => shownImages().at(-1), 'the images message');
    const file = path.join(ws, FOLDER, path.posix.basename(first.images[0]!.path));
    delivered = [];
    await mg.api.chat.reload();
    const again = await until(() => shownImages().find((m) => m.partId === first.partId), 'the images message after the reload');
    assert.equal(again.images[0]!.state, 'shown', 'shown again from the stored path');

    // a click names the host's id, and the host opens the file it resolved
    const openId = (again.images[0] as Extract<ShownImage, { state: 'shown' }>).openId;
    mg.api.chat.view.receive({ type: 'openImage', openId });
    await until(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input as { uri?: vscode.Uri } | undefined;
      return input?.uri?.fsPath === file;
    }, 'the image opened in an editor');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    await fs.rm(file);
    delivered = [];
    await mg.api.chat.reload();
    const gone = await until(() => shownImages().find((m) => m.partId === first.partId), 'the images message after the file was deleted');
    assert.deepEqual(gone.images, [{ state: 'missing', path: first.images[0]!.path }], 'a deleted image is shown as missing');
  });

  it("turns only the tool's own files into images: a markdown image or a path in the model's text is never one", async () => {
    await send(`draw ${call({ prompt: 'a real bird', size: '256x256' })}`, 'generate');
    const saved = await files();
    await until(() => shownImages().length === 1, 'the one images message');
    delivered = [];
    await send(`look ![bird](${FOLDER}/${saved[0]}) and ![x](file:///etc/passwd) ${FOLDER}/${saved[0]} [[echo]]`);
    const last = await finishedAnswer();
    assert.ok(
      last?.parts.some((p) => p.kind === 'text' && p.text.includes('![bird]')),
      'the answer has the markdown image',
    );
    assert.ok(last && !last.parts.some((p) => p.kind === 'images'), 'no images part in an answer whose tools saved nothing');
    assert.ok(!shownImages().some((m) => m.messageId === last!.id), 'no images message for it');
  });

  it('a budget used up while the card waits refuses the request with the budget named, and nothing is sent', async () => {
    let asked = 0;
    mg.api.spend.setBudgetAsk(() => {
      asked++;
      return Promise.resolve(undefined); // Cancel: the safe answer
    });
    try {
      const before = generations();
      const seen = cards().length;
      const sending = mg.api.chat.controller.send(`draw ${call({ prompt: 'an expensive bird', size: '256x256' })}`);
      const card = await until(() => cards()[seen], 'the approval card');
      // the money runs out while the user reads the card
      await config().update('budget.dailyUsd', 0.000001, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().budgets.dailyUsd === 0.000001, 'the daily budget');
      answer(card, 'generate');
      await sending;
      await mg.api.chat.controller.whenIdle();
      assert.equal(asked, 1, 'the budget question was asked');
      assert.equal(generations(), before, 'no image request was sent');
      assert.match(lastToolMessage(), /Daily budget of .* \(modelgate\.budget\.dailyUsd\) reached/);
    } finally {
      mg.api.spend.setBudgetAsk(undefined);
      await config().update('budget.dailyUsd', undefined, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().budgets.dailyUsd === undefined, 'no daily budget');
    }
  });

  it('a hostile prompt cannot choose a folder outside the workspace', async () => {
    const before = generations();
    const vscodeDir = path.join(ws, '.vscode');
    const vscodeBefore = await fs.readdir(vscodeDir).catch(() => [] as string[]);
    await fs.symlink(outside, path.join(ws, LINK), 'dir');
    // the model's input has no folder or path: refused as a whole, before any question
    for (const args of [
      { prompt: 'escape', folder: '../outside' },
      { prompt: 'escape', folder: outside },
      { prompt: 'escape', path: `${outside}/x.png` },
      { prompt: 'escape', folder: '.vscode' },
      { prompt: 'escape', folder: LINK },
    ]) {
      await send(`draw ${call(args)}`);
      assert.match(lastToolMessage(), /folder|path/, JSON.stringify(args));
    }
    // an answer to the folder question that leaves the workspace is refused too, before the card
    for (const [answerText, why] of [
      [`../${path.basename(outside)}`, /\.\./],
      [outside, /outside the workspace/],
      ['.vscode', /\.vscode/],
      [LINK, /symbolic link/],
    ] as const) {
      folderAnswer = answerText;
      await send(`draw ${call({ prompt: 'escape again', size: '256x256' })}`);
      assert.match(lastToolMessage(), why, answerText);
      await mg.api.chat.controller.newChat(); // a refused folder is not kept: ask again in a new conversation
    }
    // and so is the same folder as the user's setting
    await config().update('image.folder', LINK, vscode.ConfigurationTarget.Global);
    try {
      await until(() => mg.api.settings().imageFolder === LINK, 'the image.folder setting');
      await send(`draw ${call({ prompt: 'escape by setting', size: '256x256' })}`);
      assert.match(lastToolMessage(), /symbolic link/);
    } finally {
      await config().update('image.folder', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.equal(generations(), before, 'no image request was sent');
    assert.deepEqual(await fs.readdir(outside), [], 'nothing was written outside the workspace');
    assert.deepEqual(await fs.readdir(vscodeDir).catch(() => [] as string[]), vscodeBefore, 'nothing was written into .vscode');
    assert.equal(cards().length, 0, 'no card asked to spend on any of them');

    // a prompt that names a path only names the image: the file lands in the user's folder
    folderAnswer = FOLDER;
    const inFolder = (await files()).length;
    await send(`draw ${call({ prompt: `../../${path.basename(outside)}/evil.png`, size: '256x256' })}`, 'generate');
    assert.equal((await files()).length, inFolder + 1, `saved in ${FOLDER}`);
    assert.deepEqual(await fs.readdir(outside), []);
  });

  async function finishedAnswer(): Promise<Extract<MessageView, { role: 'assistant' }> | undefined> {
    const c = await mg.api.chat.controller.conversation();
    return c.messages.filter((m): m is Extract<MessageView, { role: 'assistant' }> => m.role === 'assistant').at(-1);
  }
});
