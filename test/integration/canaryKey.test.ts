// Canary key (docs/reliability.md, category 3): a distinctive key goes through chat, a tool round, errors from
// a proxy that echoes it (whole, cut off, URL-encoded, base64 at every alignment, upper and lower
// case, as a JSON error, plain text and an HTML page), retries (5xx) and a reload; then every
// place the extension writes that a test can reach is searched for the key and any 8-character
// piece of it in those forms: the messages posted to the webview (errors and notices as shown),
// the conversation views, the stored chat history, the log files, the user and workspace
// settings files. The image command and the vscode.lm provider meet the same echoing proxies:
// the error they throw (what the user or the calling extension is shown) and the saved image
// files are searched too. Browser-side storage (globalState, workspaceState, webview state) and
// VS Code's notifications are searched by test/e2e/storageCanary.e2e.test.ts. The search is the test's own (not the extension's redactor).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostMessage } from '../../src/chat/protocol';
import { until, useModelgate } from './helpers';

const KEY = 'sk-canary-Zq8Xw3Lm5Np7Rt2Vb9Kd';
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** every 8-character piece of the key in plain, URL-encoded and base64 (3 alignments) forms */
function canaryPieces(): string[] {
  const forms = [KEY, encodeURIComponent(KEY), b64(KEY), b64(`:${KEY}`).slice(4, -4), b64(`::${KEY}`).slice(4, -4)];
  const out = new Set<string>();
  for (const f of forms) for (let i = 0; i + 8 <= f.length; i++) out.add(f.slice(i, i + 8).toLowerCase());
  return [...out];
}
const PIECES = canaryPieces();
function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return PIECES.filter((p) => lower.includes(p));
}

/** Bodies an echoing proxy sends: [status, content type, body]. */
function echoes(): [number, string, string][] {
  const auth = `Bearer ${KEY}`;
  const long = 'x'.repeat(285);
  return [
    [401, 'application/json', JSON.stringify({ error: { message: `Invalid key: ${auth}`, code: auth, param: KEY, type: 'invalid_api_key' } })],
    [400, 'application/json', JSON.stringify({ error: { message: `${long} ${auth}` } })], // cut at the length limit
    [400, 'text/plain', `bad request from ${encodeURIComponent(auth)}`],
    [403, 'application/json', JSON.stringify({ error: `forbidden: Basic ${b64(`user:${KEY}`)}` })],
    [401, 'application/json', JSON.stringify({ error: { message: `key ${KEY.toUpperCase()} rejected; ${KEY.toLowerCase()}` } })],
    [401, 'application/json', JSON.stringify({ message: `pieces: ${KEY.slice(0, 9)} .. ${KEY.slice(10, 19)} .. ${KEY.slice(-9)}` })],
    [502, 'text/html', `<html><head><title>Bad gateway for ${auth}</title></head><body>${b64(KEY)}</body></html>`],
    [500, 'application/json', JSON.stringify({ error: { message: `upstream said ${auth} ${b64(`::${KEY}`)}` } })], // retried
  ];
}

describe('canary key (real VS Code, gateway simulator)', function () {
  this.timeout(120_000);
  const mg = useModelgate({ gateway: { keys: { [KEY]: { balance: 100 } } }, key: KEY });
  const posts: HostMessage[] = [];
  let sub: vscode.Disposable | undefined;
  const listen = () => {
    sub?.dispose();
    sub = mg.api.chat.controller.onDidPost((m) => posts.push(m));
  };

  before(async () => {
    listen();
    await mg.api.chat.controller.newChat();
  });

  after(() => {
    sub?.dispose();
    // The saved images go: later suites search the whole workspace and count its binary files.
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (ws) fs.rmSync(path.join(ws, IMAGE_FOLDER), { recursive: true, force: true });
  });

  it("the test's own search finds every form (it can fail)", () => {
    assert.ok(leaks(`x Bearer ${KEY} y`).length > 0);
    assert.ok(leaks(KEY.slice(3, 11).toUpperCase()).length > 0);
    assert.ok(leaks(encodeURIComponent(KEY)).length > 0);
    assert.ok(leaks(b64(`user:${KEY}`)).length > 0);
    assert.deepEqual(leaks('an ordinary error about API keys'), []);
  });

  it('a normal answer and a tool round', async () => {
    const chat = mg.api.chat.controller;
    await chat.send('hello [[words:5]]');
    await chat.send(vscode.workspace.isTrusted ? 'list [[call:list_files {"path":"."}]]' : 'plain [[words:3]]');
    await chat.whenIdle();
    const view = await chat.conversation();
    assert.equal(view.messages.at(-1)?.role, 'assistant');
  });

  for (const [i, [status, type, body]] of echoes().entries()) {
    it(`an echoing proxy (${status} ${type}, case ${i + 1}): the error is shown, without the key`, async () => {
      const chat = mg.api.chat.controller;
      mg.gw.injectFault({ kind: 'status', status, contentType: type, body }, status >= 500 ? 5 : 1);
      await chat.send(`question ${i} [[words:3]]`);
      await chat.whenIdle();
      const last = (await chat.conversation()).messages.at(-1)!;
      assert.ok(last.role === 'assistant' && (last.status === 'error' || last.error), JSON.stringify(last).slice(0, 300));
      const shown = JSON.stringify(last);
      assert.deepEqual(leaks(shown), [], shown);
    });
  }

  // The image command and the vscode.lm provider go through the same client, but their errors
  // reach the user by other ways (the command's rejection and notification; the error thrown to
  // the calling extension): each one against proxies that echo the key.
  const IMAGE_FOLDER = 'mg-leak-check-images'; // no word of the key: the folder is logged
  const errorText = (err: unknown): string => {
    const e = err as Error & { cause?: unknown };
    let own = '';
    try {
      own = JSON.stringify(err, Object.getOwnPropertyNames(err ?? {}));
    } catch {
      own = '';
    }
    return [String(err), e?.message, e?.stack, own, String(e?.cause ?? '')].join('\n');
  };

  it('the image command: a normal image, then echoing proxies; the error shown has no piece of the key', async () => {
    const generate = (prompt: string) =>
      Promise.resolve(
        vscode.commands.executeCommand<vscode.Uri[] | undefined>('modelgate.generateImage', {
          prompt,
          folder: IMAGE_FOLDER,
          model: 'image-small',
          size: '256x256',
          open: false,
          insertLink: false,
        }),
      );
    mg.gw.clearFaults(); // a 5xx injected for the chat's retries may have a few uses left
    const ok = await generate('a lighthouse at dusk'); // no word of the key in the prompt: it is logged and saved
    assert.equal(ok?.length, 1, 'one image saved');
    let tried = 0;
    for (const [status, type, body] of echoes()) {
      mg.gw.injectFault({ kind: 'status', status, contentType: type, body }, status >= 500 ? 5 : 1);
      let thrown: unknown;
      await generate(`image ${tried}`).then(
        () => assert.fail(`the image run succeeded through an injected ${status}`),
        (err: unknown) => (thrown = err),
      );
      mg.gw.clearFaults();
      const text = errorText(thrown);
      assert.ok((thrown as Error).message.length > 0, 'a message is shown');
      assert.deepEqual(leaks(text), [], `image error for ${status}: ${text.slice(0, 400)}`);
      tried++;
    }
    assert.equal(tried, echoes().length);
  });

  it('the vscode.lm provider: selectChatModels + sendRequest against echoing proxies; the thrown error has no piece of the key', async function () {
    if (typeof vscode.lm?.selectChatModels !== 'function') this.skip();
    mg.gw.clearFaults();
    const [model] = await vscode.lm.selectChatModels({ vendor: 'modelgate', id: 'flagship-text' });
    assert.ok(model, 'vscode.lm lists the Modelgate model');
    const ask = async (prompt: string): Promise<string> => {
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, new vscode.CancellationTokenSource().token);
      let text = '';
      for await (const part of response.text) text += part;
      return text;
    };
    assert.equal((await ask('hello [[words:4]]')).split(' ').length, 4);
    for (const [status, type, body] of echoes()) {
      mg.gw.injectFault({ kind: 'status', status, contentType: type, body }, status >= 500 ? 5 : 1);
      let thrown: unknown;
      await ask('again [[words:3]]').then(
        () => assert.fail(`the request succeeded through an injected ${status}`),
        (err: unknown) => (thrown = err),
      );
      mg.gw.clearFaults();
      const text = errorText(thrown);
      assert.deepEqual(leaks(text), [], `vscode.lm error for ${status}: ${text.slice(0, 400)}`);
    }
    assert.equal((await ask('still fine [[words:2]]')).split(' ').length, 2, 'the next request works');
  });

  it('after a reload (final flush, history re-read): the same conversations, shown again', async () => {
    const chat = mg.api.chat.controller;
    const list = (await chat.conversations()).map((c) => c.id).sort();
    const active = await chat.conversation();
    assert.ok(active.messages.length > 0, 'the conversation of the tests above');
    await mg.api.chat.reload();
    listen();
    const postedBefore = posts.length;
    await mg.api.chat.controller.postSnapshot();
    assert.deepEqual((await mg.api.chat.controller.conversations()).map((c) => c.id).sort(), list, 'every conversation re-read');
    const reread = await mg.api.chat.controller.conversation();
    assert.equal(reread.id, active.id, 'the same conversation is active');
    assert.deepEqual(
      reread.messages.map((m) => m.id),
      active.messages.map((m) => m.id),
      'with every message',
    );
    const snapshot = await until(() => posts.slice(postedBefore).find((m) => m.type === 'snapshot'), 'the snapshot posted to the webview');
    assert.equal(snapshot.conversation.id, active.id, 'the re-read conversation was posted to the webview');
  });

  it('zero hits: webview messages, conversations, stored history, log files, settings files', async () => {
    const hits: string[] = [];
    const check = (where: string, text: string) => {
      const l = leaks(text);
      if (l.length) hits.push(`${where}: ${l.join(',')}`);
    };
    check('posted to the webview', JSON.stringify(posts));
    for (const s of await mg.api.chat.controller.conversations()) {
      await mg.api.chat.controller.switchConversation(s.id);
      check(`conversation ${s.id}`, JSON.stringify(await mg.api.chat.controller.conversation()));
    }
    // The switches above save the index: a replace in flight is "delete, then rename" (no
    // index.json in between, seen in a loaded CI run). The files are read once it is on disk.
    await (await mg.api.chat.controller.history()).flush();
    const files: string[] = [];
    const walk = (d: string, keep: (f: string) => boolean) => {
      if (!fs.existsSync(d)) return;
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p, keep);
        else if (keep(p)) files.push(p);
      }
    };
    const globalStorage = path.dirname(mg.api.chat.storageUri.fsPath); // <userData>/User/globalStorage/<ext>
    const user = path.resolve(globalStorage, '..', '..'); // <userData>/User
    const userData = path.dirname(user);
    walk(globalStorage, () => true); // chat history and anything else the extension stores
    files.push(path.join(user, 'settings.json'));
    walk(path.join(userData, 'logs'), (f) => f.endsWith('.log')); // the output channel and host logs
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (ws) files.push(path.join(ws, '.vscode', 'settings.json'));
    if (ws) walk(path.join(ws, IMAGE_FOLDER), () => true); // saved images (PNG text chunks hold the prompt and model)
    const images = files.filter((f) => f.endsWith('.png')).length;
    let logs = 0;
    for (const f of files) {
      if (!fs.existsSync(f)) continue;
      if (f.endsWith('.log')) logs++;
      check(f, fs.readFileSync(f).toString('latin1'));
    }
    assert.ok(
      files.some((f) => f.endsWith('index.json')),
      'the history was searched',
    );
    assert.ok(images >= 1, 'the saved images were searched');
    assert.deepEqual(hits, []);
    assert.ok(logs > 0 || fs.existsSync(path.join(userData, 'logs')) === false, 'log files searched');
  });
});
