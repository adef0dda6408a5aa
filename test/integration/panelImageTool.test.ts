// The chat panel's generate_image tool (issue 19) in a real VS Code: the simulator's model calls it
// ([[call:generate_image {...}]]); the user is asked before anything is spent (the suite answers
// through the tool's approve hook: the modal cannot be clicked from the extension host), the
// folder is asked once per conversation when modelgate.image.folder is not set, the PNGs land
// there, their cost is in the ledger and on the answer's usage line, and a hostile prompt cannot
// put them outside the workspace.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostMessage } from '../../src/chat/protocol';
import type { ImageApproval } from '../../src/images/panelImageTool';
import { PRICE_CARD } from '../gateway/prices';
import { until, useModelgate } from './helpers';

const KEY = 'sk-panel-image-5a2c';
const FOLDER = 'mg-panel-images-it';
const EACH = PRICE_CARD.image['image-small']!.standard!['256x256']!;
const call = (args: object) => `[[call:generate_image ${JSON.stringify(args)}]]`;

describe('panel generate_image tool (real VS Code)', function () {
  this.timeout(60_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: {
      models: { 'image-small': { kind: 'image', prices: { standard: PRICE_CARD.image['image-small']!.standard } } },
      'image.model': 'image-small',
      'chat.model': 'flagship-text',
    },
    restores: ['image.folder'],
    ready: (api) => api.catalogue().imageCost('image-small', '256x256', 1) !== undefined,
    key: KEY,
    chat: true,
  });
  let ws: string;
  let outside: string;
  let posts: HostMessage[] = [];
  let sub: vscode.Disposable | undefined;
  const asked: string[] = [];
  let approval: ImageApproval = 'once';
  let folderAnswer: string | undefined = FOLDER;
  let folderQuestions = 0;
  const generations = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/images/generations')).length;
  const chatBodies = () =>
    mg.gw.requests
      .filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'))
      .map((r) => r.body as { messages: { role: string; content: unknown }[] });
  const lastToolMessage = () =>
    String(
      chatBodies()
        .at(-1)!
        .messages.filter((m) => m.role === 'tool')
        .at(-1)?.content ?? '',
    );
  const finished = () => posts.filter((m): m is Extract<HostMessage, { type: 'messageFinished' }> => m.type === 'messageFinished').at(-1);

  async function send(text: string): Promise<void> {
    await mg.api.chat.controller.send(text);
    await mg.api.chat.controller.whenIdle();
  }

  before(async () => {
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    outside = await fs.mkdtemp(path.join(os.tmpdir(), 'mg-panel-images-outside-'));
    await fs.rm(path.join(ws, FOLDER), { recursive: true, force: true });
    await vscode.workspace.getConfiguration('modelgate').update('image.folder', undefined, vscode.ConfigurationTarget.Global);
    // the tool is built with the panel's tool list; its questions are answered here
    await send('hello [[words:2]]');
    const tool = await until(() => mg.api.panelImageTool(), 'the panel image tool');
    tool.approve = (plan) => {
      asked.push(`${plan.job.prompt}|${plan.job.choices.size}|${plan.cost}`);
      return Promise.resolve(approval);
    };
    tool.askFolder = () => {
      folderQuestions++;
      return Promise.resolve(folderAnswer);
    };
  });

  beforeEach(async () => {
    await mg.api.chat.controller.newChat();
    sub?.dispose();
    posts = [];
    sub = mg.api.chat.controller.onDidPost((m) => posts.push(m));
    asked.length = 0;
    folderQuestions = 0;
  });

  after(async () => {
    sub?.dispose();
    await fs.rm(path.join(ws ?? '', FOLDER), { recursive: true, force: true });
    if (outside) await fs.rm(outside, { recursive: true, force: true });
  });

  it('is offered to the model; asks first, and the folder once per conversation; saves, costs and reports the PNGs', async () => {
    approval = 'conversation';
    const spentBefore = mg.api.spend.summary('day').cost;
    await send(`draw ${call({ prompt: 'a blue bird', size: '256x256' })}`);
    const offered = chatBodies().at(-2) as unknown as { tools?: { function: { name: string } }[] };
    assert.ok(
      offered.tools?.some((t) => t.function.name === 'generate_image'),
      'generate_image is offered',
    );
    assert.deepEqual(asked, [`a blue bird|256x256|${EACH}`], 'asked once, with prompt, size and price');
    assert.equal(folderQuestions, 1);
    const files = await fs.readdir(path.join(ws, FOLDER));
    assert.equal(files.length, 1);
    assert.ok(lastToolMessage().includes(`${FOLDER}/${files[0]}`), `the model got the workspace path: ${lastToolMessage()}`);
    assert.ok((finished()?.usage?.cost ?? 0) >= EACH, `the usage line has the image cost: ${JSON.stringify(finished()?.usage)}`);
    assert.ok(mg.api.spend.summary('day').cost >= spentBefore + EACH - 1e-12, 'the ledger has the image cost');
    // allowed for the conversation, same folder: no question the second time
    await send(`again ${call({ prompt: 'a red bird', size: '256x256' })}`);
    assert.equal(asked.length, 1, 'not asked again in this conversation');
    assert.equal(folderQuestions, 1, 'the folder is not asked again in this conversation');
    assert.equal((await fs.readdir(path.join(ws, FOLDER))).length, 2);
  });

  it('Skip generates nothing and tells the model', async () => {
    approval = undefined;
    const before = generations();
    await send(`draw ${call({ prompt: 'a skipped bird' })}`);
    assert.equal(asked.length, 1);
    assert.equal(generations(), before, 'nothing was sent');
    assert.match(lastToolMessage(), /skipped/);
  });

  it('a hostile prompt cannot choose a folder outside the workspace', async () => {
    approval = 'once';
    const before = generations();
    // the model's input has no folder: refused as a whole
    await send(`draw ${call({ prompt: 'escape', folder: outside })}`);
    assert.match(lastToolMessage(), /folder/);
    // an answer to the folder question that climbs out is refused too
    folderAnswer = `../${path.basename(outside)}`;
    await send(`draw ${call({ prompt: 'escape again' })}`);
    assert.match(lastToolMessage(), /\.\./);
    folderAnswer = outside;
    await send(`draw ${call({ prompt: 'escape absolute' })}`);
    assert.match(lastToolMessage(), /outside the workspace/);
    folderAnswer = FOLDER;
    assert.equal(generations(), before, 'no image request was sent');
    assert.deepEqual(await fs.readdir(outside), [], 'nothing was written outside the workspace');
  });
});
