// "Generate Image Here" inside a real VS Code extension host, against the gateway simulator
// started in this process. The command is driven the way other extensions drive it
// (executeCommand with an argument object); the interactive entry points are checked up to
// their first question (then cancelled, as Escape would); cancellation, name collisions and a
// failing write go through the job runner directly with a real CancellationTokenSource.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PRICE_CARD, startGateway, type RunningGateway } from '../gateway';
import { createGatewayClient, GatewayError } from '../../src/core';
import type { ImageModelInfo } from '../../src/core/catalogue/modelCatalogue';
import { runImageJob, type ImageJob } from '../../src/images/imageJob';
import type { SaverFileSystem } from '../../src/images/imageSaver';
import { configuredTarget, targetForResource } from '../../src/images/imageTarget';
import { readPngChunks, readPngText } from '../../src/images/pngText';
import { config as cfg, revertAndCloseAllEditors, staysFalse, until, useModelgate } from './helpers';

const CMD = 'modelgate.generateImage';
const TEST_DIR = 'mg-images-it';

const generate = (arg?: unknown): Promise<vscode.Uri[] | undefined> => Promise.resolve(vscode.commands.executeCommand<vscode.Uri[] | undefined>(CMD, arg));

function generations(gw: RunningGateway) {
  return gw.requests.filter((r) => r.server === 'api' && r.path === '/v1/images/generations');
}

async function filesIn(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).sort();
  } catch {
    return [];
  }
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}

function ihdrSize(png: Uint8Array): string {
  const ihdr = readPngChunks(png)[0];
  const view = new DataView(ihdr.data.buffer, ihdr.data.byteOffset, ihdr.data.byteLength);
  return `${view.getUint32(0)}x${view.getUint32(4)}`;
}

/** Runs the command while a question is expected to open, closing it the way Escape does. */
async function runAndDismissQuestions(arg?: unknown): Promise<vscode.Uri[] | undefined> {
  let settled = false;
  const run = generate(arg).finally(() => (settled = true));
  await until(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    return settled;
  }, 'the command to end after its question was dismissed');
  return run;
}

describe('images: Generate Image Here (real VS Code)', function () {
  this.timeout(60_000);
  const mg = useModelgate({ key: 'sk-test', restores: ['models', 'image.folder', 'image.model', 'endUserId'] });
  let ws: vscode.WorkspaceFolder;
  let base: string; // <workspace>/mg-images-it
  let outside: string; // a folder outside the workspace that must stay empty
  const sub = (...p: string[]) => path.join(base, ...p);
  const rel = (...p: string[]) => [TEST_DIR, ...p].join('/');

  before(async function () {
    ws = vscode.workspace.workspaceFolders![0];
    base = path.join(ws.uri.fsPath, TEST_DIR);
    await fs.rm(base, { recursive: true, force: true });
    await fs.mkdir(base, { recursive: true });
    outside = await fs.mkdtemp(path.join(os.tmpdir(), 'mg-images-outside-'));
    assert.equal(await mg.api.hasKey(), true);
  });

  afterEach(async () => {
    mg.gw.clearFaults();
    await revertAndCloseAllEditors();
  });

  after(async () => {
    if (base) await fs.rm(base, { recursive: true, force: true });
    if (outside) await fs.rm(outside, { recursive: true, force: true });
  });

  describe('programmatic calls', () => {
    it('returns the Uris of valid PNGs in a workspace-relative folder, with the provenance in PNG text chunks', async () => {
      const uris = await generate({ prompt: 'A sunset over mountains', folder: rel('relative'), open: false });
      assert.ok(Array.isArray(uris) && uris.length === 1, 'one Uri returned');
      assert.ok(uris[0] instanceof vscode.Uri);
      assert.equal(path.dirname(uris[0].fsPath), sub('relative'));
      assert.match(path.basename(uris[0].fsPath), /^a-sunset-over-mountains-\d{8}-\d{6}-1\.png$/);
      const bytes = await fs.readFile(uris[0].fsPath);
      readPngChunks(bytes); // throws on a broken PNG (signature, CRCs, IHDR..IEND)
      assert.equal(ihdrSize(bytes), '1024x1024');
      const text = Object.fromEntries(readPngText(bytes));
      assert.equal(text['Description'], 'A sunset over mountains');
      assert.equal(text['Model'], 'image-restricted');
      assert.equal(text['Size'], '1024x1024');
      assert.match(text['Revised Prompt'] ?? '', /illustration of A sunset over mountains/, 'the restricted model revises prompts');
      assert.ok(!Number.isNaN(Date.parse(text['Creation Time'] ?? '')));
      // what went over the wire: only the options the model has, n and size explicit
      const body = generations(mg.gw).at(-1)!.body as Record<string, unknown>;
      assert.deepEqual(body, { model: 'image-restricted', prompt: 'A sunset over mountains', n: 1, size: '1024x1024' });
      // the status-bar tooltip names a successful image run as one, not as a chat that stopped early
      const tooltip = mg.api.statusBarTooltip();
      assert.match(tooltip, /\*\*Last request:\*\* image-restricted · 1 image · (no price configured|\$[\d.]+)/, tooltip);
      assert.doesNotMatch(tooltip, /stopped before/);
    });

    it('downloads url answers without the Authorization header at the image host', async () => {
      const before = mg.gw.requests.filter((r) => r.server === 'images').length;
      await generate({ prompt: 'key check', folder: rel('keycheck'), model: 'image-small', size: '256x256', n: 2, format: 'url', open: false });
      const hits = mg.gw.requests.filter((r) => r.server === 'images').slice(before);
      assert.equal(hits.length, 2, 'both images were downloaded from the image host');
      for (const h of hits) {
        assert.equal(h.headers['authorization'], undefined);
        assert.ok(!JSON.stringify(h.headers).includes('sk-test'));
      }
      assert.equal(generations(mg.gw).at(-1)!.headers['authorization'], 'Bearer sk-test', 'the key went to the base URL only');
    });

    it('takes the folder as a Uri and writes n files for n > 1', async () => {
      const folder = vscode.Uri.file(sub('as-uri', 'nested'));
      const uris = await generate({ prompt: 'Three small icons', folder, model: 'image-small', size: '256x256', n: 3, open: false });
      assert.equal(uris?.length, 3);
      assert.deepEqual(await filesIn(sub('as-uri', 'nested')), uris!.map((u) => path.basename(u.fsPath)).sort());
      for (const [i, u] of uris!.entries()) {
        assert.match(path.basename(u.fsPath), new RegExp(`^three-small-icons-\\d{8}-\\d{6}-${i + 1}\\.png$`));
        const bytes = await fs.readFile(u.fsPath);
        assert.equal(ihdrSize(bytes), '256x256');
        assert.equal(Object.fromEntries(readPngText(bytes))['Model'], 'image-small');
      }
    });

    it('decodes b64_json answers (no download from the image host)', async () => {
      const hostBefore = mg.gw.requests.filter((r) => r.server === 'images').length;
      const uris = await generate({ prompt: 'base64 please', folder: rel('b64'), model: 'image-small', size: '512x512', format: 'b64_json', open: false });
      assert.equal(uris?.length, 1);
      assert.equal((generations(mg.gw).at(-1)!.body as { response_format?: string }).response_format, 'b64_json');
      assert.equal(mg.gw.requests.filter((r) => r.server === 'images').length, hostBefore);
      const bytes = await fs.readFile(uris![0].fsPath);
      assert.equal(ihdrSize(bytes), '512x512');
      assert.equal(Object.fromEntries(readPngText(bytes))['Description'], 'base64 please');
    });

    it('sends quality and style to the restricted model', async () => {
      const uris = await generate({ prompt: 'wide banner', folder: rel('wide'), size: '1792x1024', quality: 'hd', style: 'natural', open: false });
      assert.equal(ihdrSize(await fs.readFile(uris![0].fsPath)), '1792x1024');
      assert.deepEqual(generations(mg.gw).at(-1)!.body, {
        model: 'image-restricted',
        prompt: 'wide banner',
        n: 1,
        size: '1792x1024',
        quality: 'hd',
        style: 'natural',
      });
    });

    it('saves into modelgate.image.folder when no folder is given', async () => {
      await cfg().update('image.folder', rel('configured'), vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().imageFolder === rel('configured'), 'image.folder applied');
      try {
        const uris = await generate({ prompt: 'configured place', model: 'image-small', size: '256x256', open: false });
        assert.equal(path.dirname(uris![0].fsPath), sub('configured'));
      } finally {
        await cfg().update('image.folder', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    it('opens the image when asked to (the default)', async () => {
      const uris = await generate({ prompt: 'open me', folder: rel('open'), model: 'image-small', size: '256x256' });
      const open = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => (t.input as { uri?: vscode.Uri } | undefined)?.uri?.toString());
      assert.ok(open.includes(uris![0].toString()), `an editor shows ${uris![0].fsPath}; open: ${open.join(', ')}`);
    });
  });

  describe('size and model rules, checked against the catalogue before any request', () => {
    const rejected = async (args: Record<string, unknown>, message: RegExp) => {
      const before = generations(mg.gw).length;
      const folder = sub('rules');
      await assert.rejects(generate({ folder: rel('rules'), open: false, ...args }), message);
      assert.equal(generations(mg.gw).length, before, 'no request was sent');
      assert.deepEqual(await filesIn(folder), []);
    };

    it('restricted model: n = 2 is refused', () =>
      rejected({ prompt: 'two', model: 'image-restricted', n: 2 }, /n = 2 is not available for image-restricted \(allowed: only 1\)/));
    it('restricted model: 256x256 and 512x512 are refused', async () => {
      await rejected({ prompt: 'x', model: 'image-restricted', size: '256x256' }, /size “256x256”.*allowed: 1024x1024, 1792x1024, 1024x1792/);
      await rejected({ prompt: 'x', model: 'image-restricted', size: '512x512' }, /size “512x512”/);
    });
    it('small model: 1792x1024 is refused', () =>
      rejected(
        { prompt: 'x', model: 'image-small', size: '1792x1024' },
        /size “1792x1024” is not available for image-small \(allowed: 256x256, 512x512, 1024x1024\)/,
      ));
    it('small model: quality and style are refused', async () => {
      await rejected({ prompt: 'x', model: 'image-small', quality: 'hd' }, /quality is not supported by image-small/);
      await rejected({ prompt: 'x', model: 'image-small', style: 'vivid' }, /style is not supported by image-small/);
    });
    it('small model: n above 10 is refused', () => rejected({ prompt: 'x', model: 'image-small', n: 11 }, /allowed: 1 to 10/));
    it('unknown model, bad values and unknown keys are refused with what is allowed', async () => {
      await rejected({ prompt: 'x', model: 'flagship-text' }, /“flagship-text” is not an image model .*image-restricted, image-small/);
      await rejected({ prompt: 'x', quality: 'ultra' }, /allowed: standard, hd/);
      await rejected({ prompt: 'x', sizes: '256x256' }, /sizes/);
      await rejected({ prompt: '   ' }, /prompt: must not be empty/);
      await rejected({ prompt: 'x', format: 'jpeg' }, /format/);
    });

    it('names the option and what is allowed when the gateway still refuses one', async () => {
      // The catalogue is wrong on purpose: it claims image-small makes 1792x1024 pictures.
      await cfg().update(
        'models',
        { 'image-small': { kind: 'image', sizes: ['256x256', '1024x1024', '1792x1024'], maxN: 10 } },
        vscode.ConfigurationTarget.Global,
      );
      await until(() => !!mg.api.catalogue().imageModel('image-small')?.sizes.includes('1792x1024'), 'catalogue override applied');
      try {
        const before = generations(mg.gw).length;
        await assert.rejects(
          generate({ prompt: 'x', folder: rel('server-rules'), model: 'image-small', size: '1792x1024', open: false }),
          /rejected size “1792x1024” for image-small\..*allows size: 256x256, 1024x1024, 1792x1024/s,
        );
        assert.equal(generations(mg.gw).length, before + 1, 'the request went out and came back 400');
        assert.deepEqual(await filesIn(sub('server-rules')), []);
      } finally {
        await cfg().update('models', undefined, vscode.ConfigurationTarget.Global);
        await until(() => !mg.api.catalogue().imageModel('image-small')?.sizes.includes('1792x1024'), 'catalogue override removed');
      }
    });
  });

  describe('the first call after start-up', () => {
    it('a model the gateway lists works while GET /models is still in flight, with the options asked for', async () => {
      // As at start-up: a key is stored, the listing is in flight and the catalogue only has its
      // built-ins. The listing is held until the command is seen waiting for it.
      const slow = await startGateway();
      const release = slow.holdModelList();
      const listings = () => slow.requests.filter((r) => r.server === 'api' && r.path === '/v1/models').length;
      try {
        await mg.api.refreshCatalogue(); // nothing of the suite's own gateway is left in flight
        await cfg().update('baseUrl', slow.baseUrl, vscode.ConfigurationTarget.Global);
        await until(() => mg.api.settings().baseUrl === slow.baseUrl, 'switched to the slow gateway');
        // Stored keys are per gateway: storing this one starts the (held) listing, as activation does.
        await vscode.commands.executeCommand('modelgate.setApiKey', 'sk-test');
        await until(() => listings() > 0, 'the listing to be in flight');
        assert.equal(
          mg.api.catalogue().imageModel('image-gateway-only'),
          undefined,
          'not known before the listing lands (the previous gateway’s list was dropped)',
        );

        let settled = false;
        const run = generate({
          prompt: 'first call',
          folder: rel('first-call'),
          model: 'image-gateway-only',
          size: '512x512',
          n: 2,
          open: false,
          insertLink: false,
        }).finally(() => (settled = true));
        run.catch(() => undefined);
        // The command waits for the listing instead of refusing the model: give it every chance to
        // refuse (it would settle at once), then let the listing land. ('a model nobody lists is
        // still refused after the list landed' below shows the refusal when there is one.)
        await staysFalse(() => settled, { forMs: 1_000, what: 'the command waits for the listing in flight' });
        assert.equal(generations(slow).length, 0);
        release();

        const uris = await run;
        assert.equal(uris?.length, 2);
        assert.ok(mg.api.catalogue().imageModel('image-gateway-only')?.rulesUnknown, 'now listed, rules unknown');
        const sent = generations(slow).map((r) => r.body as Record<string, unknown>);
        assert.equal(sent.length, 1);
        assert.equal(sent[0].model, 'image-gateway-only');
        assert.equal(sent[0].n, 2, 'n as asked, not cut to 1');
        assert.equal(sent[0].size, '512x512', 'size as asked, not cut to 1024x1024');
        assert.equal(ihdrSize(await fs.readFile(uris![0].fsPath)), '512x512');
      } finally {
        release();
        await vscode.commands.executeCommand('modelgate.clearApiKey');
        await cfg().update('baseUrl', mg.gw.baseUrl, vscode.ConfigurationTarget.Global);
        await until(() => mg.api.settings().baseUrl === mg.gw.baseUrl, 'base URL restored');
        await slow.close();
      }
    });

    it('an unknown model with no key asks for the key (then waits for the list) instead of refusing the model', async () => {
      await vscode.commands.executeCommand('modelgate.clearApiKey');
      try {
        let settled = false;
        const run = generate({ prompt: 'no key yet', folder: rel('nokey-unknown'), model: 'image-not-listed', open: false }).finally(() => (settled = true));
        run.catch(() => undefined);
        await until(async () => {
          await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
          return settled;
        }, 'the key prompt was dismissed');
        await assert.rejects(run, /No Modelgate API key/);
      } finally {
        await vscode.commands.executeCommand('modelgate.setApiKey', 'sk-test');
      }
    });

    it('a model nobody lists is still refused after the list landed, naming the image models', async () => {
      await assert.rejects(
        generate({ prompt: 'nobody lists it', folder: rel('unlisted'), model: 'image-not-listed', open: false }),
        /“image-not-listed” is not an image model of the catalogue \(image models: .*image-gateway-only/,
      );
      assert.equal(await exists(sub('unlisted')), false);
    });
  });

  describe('the end-user id: modelgate.endUserId and the `user` argument', () => {
    const setEndUser = async (value: unknown) => {
      await cfg().update('endUserId', value, vscode.ConfigurationTarget.Global);
      await until(() => JSON.stringify(cfg().inspect('endUserId')?.globalValue) === JSON.stringify(value), 'endUserId applied');
      // the extension reads its settings on the change event: wait until it has
      await until(
        () =>
          value === undefined
            ? mg.api.settings().endUserId === undefined && !mg.api.settings().endUserIdProblem
            : mg.api.settings().endUserId !== undefined || !!mg.api.settings().endUserIdProblem,
        'the extension saw endUserId',
      );
    };
    const lastSent = () => generations(mg.gw).at(-1)?.body as Record<string, unknown>;
    afterEach(async () => setEndUser(undefined));

    it('unset by default: no `user` field is sent', async () => {
      assert.equal(cfg().inspect('endUserId')?.globalValue, undefined);
      assert.equal(mg.api.settings().endUserId, undefined);
      const before = generations(mg.gw).length;
      await generate({ prompt: 'nobody in particular', folder: rel('user-unset'), model: 'image-small', size: '256x256', open: false, insertLink: false });
      assert.equal(generations(mg.gw).length, before + 1);
      assert.equal('user' in lastSent(), false, 'no user field at all');
    });

    it('the setting arrives as `user`; a caller’s `user` replaces it', async () => {
      await setEndUser('  team-a/alice ');
      await generate({ prompt: 'for alice', folder: rel('user-set'), model: 'image-small', size: '256x256', open: false, insertLink: false });
      assert.equal(lastSent().user, 'team-a/alice', 'trimmed, as the gateway receives it');
      await generate({ prompt: 'for bob', folder: rel('user-arg'), model: 'image-small', size: '256x256', open: false, insertLink: false, user: 'bob-7' });
      assert.equal(lastSent().user, 'bob-7');
      // the simulator's own record (GET /__sim/requests), as another process would read it
      const res = await fetch(`${mg.gw.baseUrl.replace(/\/v1$/, '')}/__sim/requests`);
      const recorded = (await res.json()) as unknown;
      assert.match(JSON.stringify(recorded), /"user":"bob-7"/);
    });

    it('a bad setting: a clear message naming it, and nothing is sent', async () => {
      await setEndUser('alice\nbob');
      assert.match(mg.api.settings().endUserIdProblem ?? '', /line breaks/);
      const before = generations(mg.gw).length;
      await assert.rejects(generate({ prompt: 'bad id', folder: rel('user-bad'), model: 'image-small', size: '256x256', open: false }), (err: Error) => {
        assert.match(err.message, /"modelgate\.endUserId" contains line breaks or control characters.*Nothing was sent: fix or clear “modelgate\.endUserId”/);
        return true;
      });
      await setEndUser(12345);
      await assert.rejects(
        generate({ prompt: 'bad id', folder: rel('user-bad'), model: 'image-small', size: '256x256', open: false }),
        /"modelgate\.endUserId" must be a string/,
      );
      assert.equal(generations(mg.gw).length, before, 'refused before any request');
      assert.equal(await exists(sub('user-bad')), false);
    });

    it('a bad `user` argument, or the API key itself, is refused without echoing it', async () => {
      const before = generations(mg.gw).length;
      await assert.rejects(generate({ prompt: 'x', folder: rel('user-bad-arg'), model: 'image-small', open: false, user: 42 }), /user must be a string/);
      await assert.rejects(generate({ prompt: 'x', folder: rel('user-bad-arg'), model: 'image-small', open: false, user: 'x'.repeat(300) }), /at most 256/);
      await assert.rejects(generate({ prompt: 'x', folder: rel('user-bad-arg'), model: 'image-small', open: false, user: 'sk-test' }), (err: Error) => {
        assert.match(err.message, /user is your API key/);
        assert.equal(err.message.includes('sk-test'), false, 'the key is never in a message');
        return true;
      });
      await setEndUser('sk-test');
      await assert.rejects(generate({ prompt: 'x', folder: rel('user-bad-arg'), model: 'image-small', open: false }), (err: Error) => {
        assert.match(err.message, /"modelgate\.endUserId" is your API key/);
        assert.equal(err.message.includes('sk-test'), false, 'the key is never in a message');
        return true;
      });
      assert.equal(generations(mg.gw).length, before, 'refused before any request');
    });
  });

  describe('errors leave nothing behind', () => {
    it('an expired image URL: a clear error and no file', async () => {
      const shortLived = await startGateway({ imageUrlTtlMs: 0 });
      try {
        await cfg().update('baseUrl', shortLived.baseUrl, vscode.ConfigurationTarget.Global);
        await until(() => mg.api.settings().baseUrl === shortLived.baseUrl, 'switched to the short-lived gateway');
        await vscode.commands.executeCommand('modelgate.setApiKey', 'sk-test');
        await assert.rejects(
          generate({ prompt: 'gone soon', folder: rel('expired'), model: 'image-small', size: '256x256', n: 2, open: false }),
          (err: Error) => {
            assert.equal(err.name, 'ImageLinkExpiredError');
            assert.match(err.message, /image link expired before Modelgate could download it.*Nothing was saved/);
            return true;
          },
        );
        assert.ok(
          shortLived.requests.some((r) => r.server === 'images'),
          'the download was tried',
        );
        assert.equal(await exists(sub('expired')), false, 'not even the folder was created');
      } finally {
        await cfg().update('baseUrl', mg.gw.baseUrl, vscode.ConfigurationTarget.Global);
        await until(() => mg.api.settings().baseUrl === mg.gw.baseUrl, 'base URL restored');
        await shortLived.close();
      }
    });

    it('an empty balance: a balance error and no file', async () => {
      mg.gw.setBalance('sk-test', 0);
      try {
        await assert.rejects(generate({ prompt: 'no money', folder: rel('balance'), model: 'image-small', size: '256x256', open: false }), (err: Error) => {
          assert.ok(err instanceof GatewayError || err.name === 'GatewayError');
          assert.equal((err as GatewayError).kind, 'balance');
          assert.match(err.message, /balance/i);
          return true;
        });
        assert.equal(await exists(sub('balance')), false);
      } finally {
        mg.gw.setBalance('sk-test', 100);
      }
    });

    it('no API key: asks for one; dismissing it sends nothing and writes nothing', async () => {
      await vscode.commands.executeCommand('modelgate.clearApiKey');
      try {
        const before = generations(mg.gw).length;
        let settled = false;
        const run = generate({ prompt: 'no key', folder: rel('nokey'), model: 'image-small', open: false }).finally(() => (settled = true));
        run.catch(() => undefined);
        await until(async () => {
          await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
          return settled;
        }, 'the key prompt was dismissed');
        await assert.rejects(run, /No Modelgate API key/);
        assert.equal(generations(mg.gw).length, before);
        assert.equal(await exists(sub('nokey')), false);
      } finally {
        await vscode.commands.executeCommand('modelgate.setApiKey', 'sk-test');
      }
    });
  });

  describe('never outside the workspace', () => {
    const refused = async (folder: unknown, message: RegExp) => {
      const before = generations(mg.gw).length;
      await assert.rejects(generate({ prompt: 'escape', folder, model: 'image-small', size: '256x256', open: false }), message);
      assert.equal(generations(mg.gw).length, before, 'refused before any request');
      assert.deepEqual(await filesIn(outside), [], 'nothing appeared outside');
    };

    it('refuses ..', async () => {
      await refused('../outside', /contains “\.\.”/);
      await refused(`${TEST_DIR}/../../x`, /contains “\.\.”/);
      await refused(vscode.Uri.file(path.join(ws.uri.fsPath, '..', path.basename(outside))), /outside the workspace|contains “\.\.”/);
    });

    it('refuses absolute paths and Uris outside the workspace', async () => {
      await refused(outside, /outside the workspace/);
      await refused(vscode.Uri.file(outside), /outside the workspace/);
      await refused(vscode.Uri.file(path.join(outside, 'deeper')), /outside the workspace/);
    });

    it('accepts an absolute path inside the workspace', async () => {
      const uris = await generate({ prompt: 'absolute inside', folder: sub('absolute'), model: 'image-small', size: '256x256', open: false });
      assert.equal(path.dirname(uris![0].fsPath), sub('absolute'));
    });

    it('refuses a symlink inside the workspace that points outside', async function () {
      const link = sub('escape-link');
      try {
        await fs.symlink(outside, link, 'dir');
      } catch (err) {
        this.skip(); // no symlinks on this file system
      }
      await refused(rel('escape-link'), /symbolic link/);
      await refused(rel('escape-link', 'new-folder'), /symbolic link/);
      await refused(vscode.Uri.file(link), /symbolic link/);
    });
  });

  describe('links in the document the command started from', () => {
    async function openDoc(name: string, content: string, line: number, character: number): Promise<vscode.TextEditor> {
      const file = sub('links', name);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, content);
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
      editor.selection = new vscode.Selection(line, character, line, character);
      return editor;
    }

    it('inserts a Markdown image link at the cursor, relative, encoded and escaped', async () => {
      const editor = await openDoc('notes.md', '# Notes\n\nBefore\nAfter\n', 3, 0);
      assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), editor.document.uri.toString());
      const uris = await generate({ prompt: 'A [red] fox_in *snow*', folder: rel('links', 'img dir'), model: 'image-small', size: '256x256', open: false });
      const name = path.basename(uris![0].fsPath);
      assert.equal(editor.document.getText(), `# Notes\n\nBefore\n![A \\[red\\] fox\\_in \\*snow\\*](img%20dir/${name})After\n`);
      await editor.document.save();
    });

    it('inserts an HTML img tag with escaped attributes, one per image', async () => {
      const editor = await openDoc('page.html', '<body>\n\n</body>\n', 1, 0);
      const uris = await generate({ prompt: 'Cats & "dogs"', folder: rel('links', 'pics'), model: 'image-small', size: '256x256', n: 2, open: false });
      const [a, b] = uris!.map((u) => path.basename(u.fsPath));
      assert.equal(
        editor.document.getText(),
        `<body>\n<img src="pics/${a}" alt="Cats &amp; &quot;dogs&quot;">\n<img src="pics/${b}" alt="Cats &amp; &quot;dogs&quot;">\n</body>\n`,
      );
      await editor.document.save();
    });

    it('inserts a link that climbs out of the document folder when the image is elsewhere', async () => {
      const editor = await openDoc('deep.md', '', 0, 0);
      const uris = await generate({ prompt: 'elsewhere', folder: rel('assets'), model: 'image-small', size: '256x256', open: false });
      assert.equal(editor.document.getText(), `![elsewhere](../assets/${path.basename(uris![0].fsPath)})`);
      await editor.document.save();
    });

    it('leaves other documents alone', async () => {
      const editor = await openDoc('code.ts', 'const a = 1;\n', 0, 0);
      await generate({ prompt: 'not here', folder: rel('assets'), model: 'image-small', size: '256x256', open: false });
      assert.equal(editor.document.getText(), 'const a = 1;\n');
      assert.equal(editor.document.isDirty, false);
    });

    it('does not insert when insertLink is false', async () => {
      const editor = await openDoc('nolink.md', 'text\n', 0, 0);
      await generate({ prompt: 'no link', folder: rel('assets'), model: 'image-small', size: '256x256', open: false, insertLink: false });
      assert.equal(editor.document.getText(), 'text\n');
    });
  });

  describe('interactive entry points', () => {
    it('Explorer on a folder, Explorer on a file, editor menu and palette start with the prompt question; Escape cancels silently', async () => {
      const folder = vscode.Uri.file(sub('explorer'));
      await fs.mkdir(folder.fsPath, { recursive: true });
      const file = vscode.Uri.file(sub('explorer', 'readme.md'));
      await fs.writeFile(file.fsPath, '# hi\n');
      const before = generations(mg.gw).length;
      assert.equal(await runAndDismissQuestions(folder), undefined, 'Explorer folder: Uri is not mistaken for an argument object');
      assert.equal(await runAndDismissQuestions(file), undefined, 'Explorer file');
      await vscode.window.showTextDocument(file);
      assert.equal(await runAndDismissQuestions(file), undefined, 'editor title/context menu');
      assert.equal(await runAndDismissQuestions(undefined), undefined, 'palette');
      assert.equal(generations(mg.gw).length, before, 'nothing was sent');
      assert.deepEqual(await filesIn(folder.fsPath), ['readme.md'], 'nothing was written');
    });

    it('from a Markdown editor: the selection is the prompt; answering every question saves beside the document and links it', async () => {
      await cfg().update('image.model', 'image-small', vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().imageModel === 'image-small', 'image.model applied');
      try {
        const file = sub('interactive', 'story.md');
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(file, 'A tiny red kite\n');
        const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
        editor.selection = new vscode.Selection(0, 0, 0, 15);
        const before = generations(mg.gw).length;
        let settled = false;
        // The editor's title bar / context menu pass the document's Uri.
        const run = generate(editor.document.uri).finally(() => (settled = true));
        // Accept whatever each question offers: the prefilled prompt, then the pre-selected options.
        await until(
          async () => {
            await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
            return settled;
          },
          'every question answered and the image saved',
          40_000,
        );
        const uris = await run;
        assert.equal(uris?.length, 1);
        assert.equal(path.dirname(uris![0].fsPath), sub('interactive'), 'beside the document');
        const name = path.basename(uris![0].fsPath);
        assert.match(name, /^a-tiny-red-kite-\d{8}-\d{6}-1\.png$/);
        assert.equal(generations(mg.gw).length, before + 1);
        const body = generations(mg.gw).at(-1)!.body as Record<string, unknown>;
        assert.equal(body.model, 'image-small', 'the configured image model was pre-selected');
        assert.equal(body.prompt, 'A tiny red kite');
        assert.equal(body.quality, undefined, 'the small model is never asked for or sent quality');
        assert.equal(editor.document.getText(), `A tiny red kite![A tiny red kite](${name})\n`);
        readPngChunks(await fs.readFile(uris![0].fsPath));
        await editor.document.save();
      } finally {
        await cfg().update('image.model', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    it('every question shows what the choice costs before anything is spent, from the catalogue; a model without a price says so', async () => {
      await cfg().update(
        'models',
        { 'image-restricted': { kind: 'image', prices: PRICE_CARD.image['image-restricted'] }, 'image-small': { kind: 'image' } },
        vscode.ConfigurationTarget.Global,
      );
      await cfg().update('image.model', 'image-restricted', vscode.ConfigurationTarget.Global);
      await until(() => mg.api.catalogue().imageModel('image-restricted')?.prices?.hd?.['1792x1024'] === 0.12, 'the prices applied');
      try {
        const file = sub('priced', 'note.md');
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(file, 'A lighthouse\n');
        const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
        editor.selection = new vscode.Selection(0, 0, 0, 12);
        const before = generations(mg.gw).length;
        const seen: { title: string; rows: { label: string; description?: string; detail?: string }[] }[] = [];
        let settled = false;
        const run = generate(editor.document.uri).finally(() => (settled = true));
        await until(
          async () => {
            const open = mg.api.imageQuestion();
            if (open && seen.at(-1)?.title !== open.title) {
              // nothing is sent while a question is open
              assert.equal(generations(mg.gw).length, before, `nothing was sent before "${open.title}" was answered`);
              seen.push(open);
            }
            await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
            return settled;
          },
          'every question answered and the image saved',
          40_000,
        );
        assert.equal((await run)?.length, 1);
        const step = (what: RegExp) => {
          const found = seen.find((q) => what.test(q.title));
          assert.ok(found, `a question matching ${what} (seen: ${seen.map((q) => q.title).join(' | ')})`);
          return found;
        };
        const row = (q: { rows: { label: string; description?: string; detail?: string }[] }, label: RegExp) => {
          const found = q.rows.find((r) => label.test(r.label) || label.test(r.description ?? ''));
          assert.ok(found, `a row ${label} in ${JSON.stringify(q.rows)}`);
          return `${found.description ?? ''} | ${found.detail ?? ''}`;
        };
        const models = step(/Model/);
        assert.match(row(models, /^image-restricted$/), /\$0\.04–\$0\.12 per image/, 'the model row: its price range per image');
        assert.match(row(models, /^image-small$/), /no price known/, 'a model without a price says so, never $0');
        const sizes = step(/Size/);
        assert.match(row(sizes, /^1024x1024$/), /\$0\.04 standard · \$0\.08 hd per image/, 'a size row: per image, at each quality');
        assert.match(row(sizes, /^1792x1024$/), /\$0\.08 standard · \$0\.12 hd per image/);
        const qualities = step(/Quality/);
        assert.match(row(qualities, /^standard$/), /\$0\.04 per image/, 'a quality row: the whole request');
        assert.match(row(qualities, /^hd$/), /\$0\.08 per image/);
        assert.match(step(/Style/).title, /\$0\.04 per image/, 'the last question says what the request costs');
        assert.equal(generations(mg.gw).length, before + 1);
        await editor.document.save();
      } finally {
        await cfg().update('image.model', undefined, vscode.ConfigurationTarget.Global);
        await cfg().update('models', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    it('the count question of a model with several images per request shows the whole request’s price per count', async () => {
      await cfg().update('models', { 'image-small': { kind: 'image', prices: PRICE_CARD.image['image-small'] } }, vscode.ConfigurationTarget.Global);
      await cfg().update('image.model', 'image-small', vscode.ConfigurationTarget.Global);
      await until(() => mg.api.catalogue().imageModel('image-small')?.prices?.standard?.['1024x1024'] === 0.02, 'the prices applied');
      try {
        const file = sub('priced', 'count.md');
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(file, 'A kite\n');
        const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
        editor.selection = new vscode.Selection(0, 0, 0, 6);
        let count: { title: string; rows: { label: string; description?: string }[] } | undefined;
        let settled = false;
        const run = generate(editor.document.uri).finally(() => (settled = true));
        await until(
          async () => {
            const open = mg.api.imageQuestion();
            if (open && /Number of images/.test(open.title)) count = open;
            await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
            return settled;
          },
          'every question answered and the image saved',
          40_000,
        );
        await run;
        assert.ok(count, 'the count was asked');
        assert.match(count.rows.find((r) => r.label === '1')?.description ?? '', /^\$0\.02 per image$/);
        assert.match(count.rows.find((r) => r.label === '3')?.description ?? '', /^\$0\.06 for 3 images$/);
        await editor.document.save();
      } finally {
        await cfg().update('image.model', undefined, vscode.ConfigurationTarget.Global);
        await cfg().update('models', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    it('saves in the clicked folder, beside a clicked file, and in the configured folder from the palette', async () => {
      const folder = vscode.Uri.file(sub('explorer'));
      await fs.mkdir(folder.fsPath, { recursive: true });
      const file = vscode.Uri.file(sub('explorer', 'readme.md'));
      await fs.writeFile(file.fsPath, '# hi\n');
      assert.equal((await targetForResource(folder)).folder.fsPath, folder.fsPath);
      assert.equal((await targetForResource(file)).folder.fsPath, folder.fsPath);
      const configured = await configuredTarget(undefined, rel('palette'), false);
      assert.equal(configured?.folder.fsPath, sub('palette'));
      assert.equal(configured?.workspaceFolder.uri.toString(), ws.uri.toString());
      assert.equal((await configuredTarget(undefined, '', false))?.folder.fsPath, ws.uri.fsPath, "'' is the workspace root");
      await assert.rejects(configuredTarget(undefined, '../elsewhere', false), /modelgate\.image\.folder.*contains “\.\.”/);
      await assert.rejects(targetForResource(vscode.Uri.file(path.join(outside))), /outside the workspace/);
    });
  });

  describe('the job runner (cancellation, collisions, failed writes)', () => {
    const small = () => mg.api.catalogue().imageModel('image-small') as ImageModelInfo;
    const client = () => createGatewayClient({ baseUrl: mg.gw.baseUrl, apiKey: 'sk-test' });
    const job = (folder: string, prompt: string, n = 1): ImageJob => ({
      prompt,
      model: small(),
      choices: { size: '256x256', n },
      target: { folder: vscode.Uri.file(folder), workspaceFolder: ws },
    });

    it('cancelling mid-request aborts it and writes nothing', async () => {
      mg.gw.injectFault({ kind: 'stall' });
      const cts = new vscode.CancellationTokenSource();
      const before = generations(mg.gw).length;
      const run = runImageJob({ client: client() }, job(sub('cancelled'), 'stall forever'), cts.token);
      run.catch(() => undefined);
      await until(() => generations(mg.gw).length > before, 'the request reached the gateway');
      cts.cancel();
      await assert.rejects(run, (err) => err instanceof vscode.CancellationError);
      assert.equal(await exists(sub('cancelled')), false);
    });

    it('a timeout leaves nothing behind', async () => {
      mg.gw.injectFault({ kind: 'stall' });
      const impatient = createGatewayClient({ baseUrl: mg.gw.baseUrl, apiKey: 'sk-test', timeoutMs: 300, maxRetries: 0 });
      await assert.rejects(runImageJob({ client: impatient }, job(sub('timeout'), 'slow'), new vscode.CancellationTokenSource().token), (err) => {
        assert.ok(err instanceof GatewayError);
        assert.equal(err.kind, 'timeout');
        return true;
      });
      assert.equal(await exists(sub('timeout')), false);
    });

    it('never overwrites: a taken name gets a suffix and the old file is untouched', async () => {
      const dir = sub('collision');
      await fs.mkdir(dir, { recursive: true });
      const now = new Date(2026, 10, 22, 10, 15, 30);
      await fs.writeFile(path.join(dir, 'a-lighthouse-20261122-101530-1.png'), 'original');
      const result = await runImageJob({ client: client(), now: () => now }, job(dir, 'A lighthouse', 2), new vscode.CancellationTokenSource().token);
      assert.deepEqual(
        result.uris.map((u) => path.basename(u.fsPath)),
        ['a-lighthouse-20261122-101530-1-2.png', 'a-lighthouse-20261122-101530-2.png'],
      );
      assert.equal(await fs.readFile(path.join(dir, 'a-lighthouse-20261122-101530-1.png'), 'utf8'), 'original');
      assert.deepEqual(await filesIn(dir), [
        'a-lighthouse-20261122-101530-1-2.png',
        'a-lighthouse-20261122-101530-1.png',
        'a-lighthouse-20261122-101530-2.png',
      ]);
    });

    it('a write that fails half-way removes what this run wrote, and the folders it created', async () => {
      let writes = 0;
      const real = vscode.workspace.fs;
      const failing: SaverFileSystem = {
        stat: (u) => real.stat(u),
        createDirectory: (u) => real.createDirectory(u),
        delete: (u, o) => real.delete(u, o),
        writeFile: async (u, bytes) => {
          if (++writes === 2) throw vscode.FileSystemError.NoPermissions(u);
          await real.writeFile(u, bytes);
        },
      };
      await assert.rejects(
        runImageJob({ client: client(), fs: failing }, job(sub('rollback', 'new', 'deeper'), 'half written', 3), new vscode.CancellationTokenSource().token),
        /NoPermissions|permission/i,
      );
      assert.equal(writes, 2, 'the first file was written before the failure');
      assert.equal(await exists(sub('rollback')), false, 'the written file and the created folders are gone');
    });
  });
});
