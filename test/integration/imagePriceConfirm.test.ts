// "Generate Image Here" when nothing is left to choose, in a real VS Code against the simulator:
// the gateway lists one image model, and the user's catalogue gives it one size, one image per
// request and neither quality nor style. No option question is asked, so no row ever showed a
// price: before anything is spent the command shows what the request costs (or that no price is
// known) in one question whose default answer spends nothing, so Enter and Escape send nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ImageQuestionView } from '../../src/images';
import { config as cfg, revertAndCloseAllEditors, until, useModelgate } from './helpers';

const KEY = 'sk-image-price-confirm-5d1f0a';
const TEST_DIR = 'mg-image-price-it';
const ONE_SIZE = { kind: 'image', sizes: ['1024x1024'], maxN: 1, quality: false, style: false };

describe('images: the price of a request that asks no option (real VS Code)', function () {
  this.timeout(90_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } }, servedModels: ['flagship-text', 'image-restricted'] },
    settings: {
      'image.model': 'image-restricted',
      models: { 'image-restricted': { ...ONE_SIZE, prices: { standard: { '1024x1024': 0.04 } } } },
    },
    key: KEY,
    restores: ['models', 'image.model'],
  });
  let base: string;
  const generations = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path === '/v1/images/generations').length;

  before(async () => {
    base = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, TEST_DIR);
    await fs.rm(base, { recursive: true, force: true });
    await fs.mkdir(base, { recursive: true });
    await mg.api.refreshCatalogue();
    await until(
      () => mg.api.catalogue().imageModels().length === 1 && mg.api.catalogue().imageModel('image-restricted')?.sizes.length === 1,
      'one image model, one size',
    );
  });
  afterEach(() => revertAndCloseAllEditors());
  after(async () => {
    if (base) await fs.rm(base, { recursive: true, force: true });
  });

  /**
   * Starts the command from a Markdown editor whose selection is the prompt and accepts the
   * prompt; then `answer` is called with each question after the prompt (the questions seen are
   * returned with the command's result).
   */
  async function run(
    name: string,
    answer: (q: ImageQuestionView) => Thenable<unknown>,
  ): Promise<{ uris: vscode.Uri[] | undefined; seen: ImageQuestionView[] }> {
    const file = path.join(base, `${name}.md`);
    await fs.writeFile(file, 'A quiet harbour\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(0, 0, 0, 15);
    const seen: ImageQuestionView[] = [];
    let settled = false;
    const result = Promise.resolve(vscode.commands.executeCommand<vscode.Uri[] | undefined>('modelgate.generateImage', editor.document.uri)).finally(
      () => (settled = true),
    );
    const before = generations();
    const end = Date.now() + 40_000;
    const briefly = async (check: () => unknown, ms: number) => {
      for (const stop = Date.now() + ms; !check() && Date.now() < stop;) await new Promise((r) => setTimeout(r, 25));
    };
    while (!settled) {
      assert.ok(Date.now() < end, `the command to end (questions seen: ${seen.map((q) => q.title).join(' | ') || 'none'})`);
      const open = mg.api.imageQuestion();
      if (open) {
        assert.equal(generations(), before, `nothing was sent while "${open.title}" was open`);
        seen.push(open);
        await answer(open);
        await until(() => mg.api.imageQuestion() !== open || settled, 'the question answered');
      } else {
        // the prompt (an input box, prefilled with the selection); accepted again only when
        // nothing followed for a while (the first accept may come before the box is shown)
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        await briefly(() => mg.api.imageQuestion() || settled, 2_000);
      }
    }
    return { uris: await result, seen };
  }

  const texts = (q: ImageQuestionView) => [q.title, ...q.rows.flatMap((r) => [r.label, r.description ?? '', r.detail ?? ''])].join(' | ');

  it('shows the price before anything is spent; Enter takes the default, which spends nothing', async () => {
    const before = generations();
    const { uris, seen } = await run('enter', () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'));
    assert.equal(seen.length, 1, `one question after the prompt (seen: ${seen.map((q) => q.title).join(' | ') || 'none'})`);
    assert.match(texts(seen[0]), /\$0\.04/, 'the request’s price is shown');
    assert.equal(uris, undefined, 'the default answer generates nothing');
    assert.equal(generations(), before, 'nothing was sent');
  });

  it('Escape spends nothing', async () => {
    const before = generations();
    const { uris, seen } = await run('escape', () => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));
    assert.equal(seen.length, 1);
    assert.equal(uris, undefined);
    assert.equal(generations(), before);
  });

  it('the other answer, with the price on its row, generates once', async () => {
    const before = generations();
    const { uris, seen } = await run('generate', async () => {
      await vscode.commands.executeCommand('quickInput.next');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    });
    assert.equal(seen.length, 1);
    const spend = seen[0].rows.find((r) => /\$0\.04/.test(`${r.label} ${r.description ?? ''}`));
    assert.ok(spend, `a row that spends says what: ${JSON.stringify(seen[0].rows)}`);
    assert.equal(uris?.length, 1, 'one image saved');
    assert.equal(generations(), before + 1, 'one request');
  });

  it('a model without a price says so before anything is spent, never $0', async () => {
    await cfg().update('models', { 'image-restricted': ONE_SIZE }, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.catalogue().imageModel('image-restricted') && !mg.api.catalogue().imageModel('image-restricted')?.prices, 'the price removed');
    const before = generations();
    const { uris, seen } = await run('unpriced', () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'));
    assert.equal(seen.length, 1);
    assert.match(texts(seen[0]), /no price known/);
    assert.doesNotMatch(texts(seen[0]), /\$0(\.0+)?\b/);
    assert.equal(uris, undefined);
    assert.equal(generations(), before);
  });
});
