// Canary key (docs/reliability.md, category 3), the browser half. In the web workbench
// (code-server) VS Code keeps globalState, workspaceState and every webview's state in the
// browser (IndexedDB / localStorage), and shows notifications only in the page: an integration
// test cannot reach them. Here a distinctive key is stored through "Set API Key", goes through a
// chat, a tool round and proxies that echo it in their error bodies (whole, URL-encoded, base64,
// upper case, cut), an image generated with "Generate Image Here" (saved, its choices remembered
// in globalState) and an image request through a proxy that echoes the key (its error shown as
// a notification), the window is reloaded, and then every IndexedDB database and object store,
// localStorage and sessionStorage of the workbench page and of every frame (webviews included),
// the panel's text, every notification seen during the run and the saved images (their PNG text
// chunks hold the prompt and the model) are searched for the key and any
// 8-character piece of it, plain, URL-encoded and base64 (3 alignments), in any letter case:
// zero hits. VS Code's SecretStorage is searched too: code-server keeps it encrypted in
// localStorage (`secrets.provider`), so the key must not be readable there either.
// A decoy typed into the chat's draft must be found in the dump of the browser's storage (the
// panel keeps its draft in the webview state): that proves the dump reaches webview state.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { useGatewayWorkbench, type Workbench } from './workbench';
import { fillField, renderedText } from './typing';

const KEY = 'sk-canary-Hy7Pq2Wd9Tk4Ms6Jc3Fv';
const DECOY = 'decoy-Rn5Gx8Lb2Qw';
const b64 = (s: string) => Buffer.from(s).toString('base64');

function piecesOf(secret: string): string[] {
  const forms = [secret, encodeURIComponent(secret), b64(secret), b64(`:${secret}`).slice(4, -4), b64(`::${secret}`).slice(4, -4)];
  const out = new Set<string>();
  for (const f of forms) for (let i = 0; i + 8 <= f.length; i++) out.add(f.slice(i, i + 8).toLowerCase());
  return [...out];
}
const PIECES = piecesOf(KEY);
const leaks = (text: string): string[] => {
  const lower = text.toLowerCase();
  return PIECES.filter((p) => lower.includes(p));
};

function pngsUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...pngsUnder(p));
    else if (name.endsWith('.png')) out.push(p);
  }
  return out;
}

interface Entry {
  where: string;
  text: string;
}

/**
 * Runs in a page or frame: every localStorage / sessionStorage item and every record (key and
 * value) of every object store of every IndexedDB database of that origin, as text. Binary values
 * (VS Code keeps files as Uint8Array) are decoded as UTF-8 and as Latin-1.
 */
async function dumpStorage(): Promise<Entry[]> {
  const out: Entry[] = [];
  const text = (v: unknown): string => {
    const bin = (b: Uint8Array) => `${new TextDecoder('utf-8').decode(b)}\n${Array.from(b, (c) => String.fromCharCode(c)).join('')}`;
    if (v instanceof Uint8Array) return bin(v);
    if (v instanceof ArrayBuffer) return bin(new Uint8Array(v));
    if (ArrayBuffer.isView(v)) return bin(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    if (typeof v === 'string') return v;
    if (v instanceof Blob) return `[blob ${v.size}]`;
    try {
      return JSON.stringify(v, (_k, x: unknown) => (x instanceof Uint8Array || x instanceof ArrayBuffer ? text(x) : x));
    } catch {
      return String(v);
    }
  };
  for (const kind of ['localStorage', 'sessionStorage'] as const) {
    try {
      const store = window[kind];
      for (let i = 0; i < store.length; i++) {
        const k = store.key(i) ?? '';
        out.push({ where: `${kind}[${k}]`, text: `${k}\n${store.getItem(k) ?? ''}` });
      }
    } catch (err) {
      out.push({ where: `${kind} (not readable: ${String(err)})`, text: '' });
    }
  }
  const req = <T>(r: IDBRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
  let dbs: IDBDatabaseInfo[] = [];
  try {
    dbs = await indexedDB.databases();
  } catch (err) {
    out.push({ where: `indexedDB (not readable: ${String(err)})`, text: '' });
  }
  for (const info of dbs) {
    if (!info.name) continue;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(info.name!);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      for (const store of Array.from(db.objectStoreNames)) {
        const tx = db.transaction(store, 'readonly');
        const keys = await req(tx.objectStore(store).getAllKeys());
        const values = await req(tx.objectStore(store).getAll());
        keys.forEach((k, i) => out.push({ where: `indexedDB ${info.name}/${store}[${text(k)}]`, text: `${text(k)}\n${text(values[i])}` }));
        out.push({ where: `indexedDB ${info.name}/${store} (${keys.length} records)`, text: '' });
      }
    } finally {
      db.close();
    }
  }
  return out;
}

describe('e2e canary key in browser storage: IndexedDB, localStorage, webview state, notifications', function () {
  this.timeout(420_000);
  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: { 'modelgate.baseUrl': gw.baseUrl, 'modelgate.chat.model': 'flagship-text', 'modelgate.image.model': 'image-small' },
    // It reads every store of the browser, the draft in the panel's webview state included: in a
    // window reset after other files (the shared workbench) that state was not written back within
    // 120 s in one CI run of three, so the file keeps a browser and window of its own.
    ownServer: 'it reads every browser store, and needs the webview state a fresh window writes',
  }));
  const gw = () => fixture.gateway();
  after(async () => {
    clearInterval(poller);
  });

  let wb: Workbench;
  let chat: Frame;
  let poller: ReturnType<typeof setInterval> | undefined;
  const toasts = new Set<string>();
  const message = () => chat.getByRole('textbox', { name: 'Message' });
  const assistants = () => chat.getByRole('log').getByRole('article', { name: 'Assistant' });
  const button = (name: string) => chat.getByRole('button', { name, exact: true });

  async function chatFrame(): Promise<Frame> {
    await wb.runCommand('Modelgate: Open Chat');
    chat = await wb.webviewFrame('[role="log"]', { timeoutMs: 90_000 });
    return chat;
  }

  async function collectToasts(): Promise<void> {
    for (const t of await wb.notifications().catch(() => [] as string[])) toasts.add(t);
  }

  /** Sends and waits for the answer (or the error) to settle; returns the last answer's text. */
  async function ask(text: string): Promise<string> {
    const before = await assistants().count();
    await fillField(message(), text);
    await button('Send').click();
    await assistants().nth(before).waitFor({ state: 'attached', timeout: 60_000 });
    await button('Stop').waitFor({ state: 'hidden', timeout: 90_000 });
    await collectToasts();
    return (await renderedText(assistants().last())).trim();
  }

  /**
   * Modelgate: Generate Image Here, the offered answers accepted (model, size, count), until
   * `done` says the run is over (a new image saved, or an error shown).
   */
  async function generateImage(prompt: string, done: () => boolean, what: string): Promise<void> {
    await wb.runCommand('Modelgate: Generate Image Here', { timeoutMs: 60_000 });
    await wb.answerInput(prompt);
    const deadline = Date.now() + 90_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the workbench then: ${await workbenchState()}`);
      if (await wb.page.locator('.quick-input-widget').isVisible()) await wb.page.keyboard.press('Enter');
      await wb.page.waitForTimeout(300);
      await collectToasts();
    }
  }

  /**
   * What the window shows when a run does not end: the quick input, dialogs and toasts on screen
   * and what holds the keyboard (an Enter pressed at the wrong place leaves no trace otherwise).
   */
  async function workbenchState(): Promise<string> {
    return wb.page
      .evaluate(() => {
        const shown = (selector: string) =>
          [...document.querySelectorAll<HTMLElement>(selector)]
            .filter((e) => e.offsetParent !== null)
            .map((e) => e.innerText.replace(/\s+/g, ' ').trim().slice(0, 300));
        const active = document.activeElement;
        return JSON.stringify({
          quickInput: shown('.quick-input-widget'),
          dialogs: shown('.monaco-dialog-box'),
          toasts: shown('.notification-toast'),
          focus: active ? `${active.tagName.toLowerCase()}.${String(active.className).replace(/\s+/g, '.')}`.slice(0, 160) : 'none',
        });
      })
      .catch((err: unknown) => `(not read: ${String(err)})`);
  }

  before(() => {
    wb = fixture.get();
    poller = setInterval(() => void collectToasts(), 400);
  });

  it("the test's own search finds every form of the key (it can fail)", () => {
    assert.ok(leaks(`x Bearer ${KEY} y`).length > 0);
    assert.ok(leaks(KEY.slice(5, 13).toUpperCase()).length > 0);
    assert.ok(leaks(encodeURIComponent(`Bearer ${KEY}`)).length > 0);
    assert.ok(leaks(b64(`user:${KEY}`)).length > 0);
    assert.ok(leaks(b64(`u:${KEY}`)).length > 0);
    assert.deepEqual(leaks('an ordinary error about API keys and canary birds'), []);
  });

  it('stores the key, chats with a tool round, and meets proxies that echo the key', async () => {
    await chatFrame();
    await message().waitFor({ state: 'visible' });
    await wb.setKey(KEY);

    assert.ok((await ask('hello [[words:5]]')).split(/\s+/).length >= 5);
    await ask('list the files [[call:list_files {"path":"."}]]');
    assert.ok(gw().requests.filter((r) => r.path.endsWith('/chat/completions')).length >= 3, 'the tool round went back to the gateway');

    const auth = `Bearer ${KEY}`;
    const echoes: [number, string, string][] = [
      [401, 'application/json', JSON.stringify({ error: { message: `Invalid key: ${auth}`, code: auth, param: KEY } })],
      [400, 'text/plain', `bad request from ${encodeURIComponent(auth)} ${KEY.toUpperCase()}`],
      [403, 'application/json', JSON.stringify({ error: `forbidden: Basic ${b64(`user:${KEY}`)}` })],
      [400, 'application/json', JSON.stringify({ error: { message: `${'x'.repeat(285)} ${auth}` } })],
      [502, 'text/html', `<html><head><title>Bad gateway for ${auth}</title></head><body>${b64(KEY)}</body></html>`],
    ];
    for (const [i, [status, contentType, body]] of echoes.entries()) {
      gw().injectFault({ kind: 'status', status, contentType, body }, status >= 500 ? 5 : 1);
      const shown = await ask(`question ${i} [[words:3]]`);
      assert.ok(shown.length > 0, `an error is shown for ${status}`);
      assert.deepEqual(leaks(shown), [], `the error shown in the panel for ${status}: ${shown}`);
    }
    // Images: one saved (its choices go to globalState), then one through a proxy echoing the key.
    // (No "canary" in the prompts: the file name would hold "-canary-", a piece of the key.)
    gw().clearFaults(); // the 502 above is injected for 5 requests (the chat retries): what is left of it is not for the images
    const imagesBefore = pngsUnder(wb.workspace).length;
    await generateImage('a sparrow on a wire', () => pngsUnder(wb.workspace).length > imagesBefore, 'the image to be saved');
    const imageRequests = () => gw().requests.filter((r) => r.path.endsWith('/images/generations')).length;
    assert.equal(imageRequests(), 1, 'one image request reached the gateway');
    const toastsBefore = toasts.size;
    gw().injectFault(
      {
        kind: 'status',
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ error: { message: `Invalid key: Bearer ${KEY}`, code: encodeURIComponent(KEY) } }),
      },
      1,
    );
    // the progress notification ("Generating the image…") is a toast too: wait for another one
    const errorShown = () => [...toasts].slice(toastsBefore).some((t) => !/Generating|Downloading|Saving/.test(t));
    await generateImage('a sparrow behind a proxy', () => imageRequests() >= 2 && errorShown(), 'the error of the echoing proxy to be shown');
    assert.equal(pngsUnder(wb.workspace).length, imagesBefore + 1, 'nothing saved from the failed request');
    console.log(`[canary] image command: 1 saved, 1 refused by the echoing proxy; notifications now: ${[...toasts].slice(toastsBefore).join(' | ')}`);
    await chatFrame();
    assert.ok((await ask('and on we go [[words:4]]')).split(/\s+/).length >= 4, 'the chat answers after the errors');
    // A draft that stays in the composer: the panel keeps it in its webview state (the next test
    // waits until it is in IndexedDB before it reloads).
    await fillField(message(), `unsent ${DECOY}`);
    // Everything VS Code notified, including what the toasts no longer show.
    await wb.runCommand('Notifications: Show Notifications').catch(() => undefined);
    const center = await wb.page
      .locator('.notifications-center .notification-list-item-message')
      .allInnerTexts()
      .catch(() => [] as string[]);
    for (const t of center) toasts.add(t);
    await wb.page.keyboard.press('Escape');
    console.log(`[canary] ${toasts.size} distinct notification texts seen`);
  });

  it('after a reload, zero hits in every browser store, frame, panel text and notification', async () => {
    clearInterval(poller);
    // VS Code writes a webview's state to IndexedDB when it saves its storage (periodically and on
    // shutdown): wait until the draft is there, so the reload cannot race that write.
    const deadline = Date.now() + 120_000;
    while (!JSON.stringify(await wb.page.evaluate(dumpStorage)).includes(DECOY) && Date.now() < deadline) await wb.page.waitForTimeout(2000);
    await wb.page.reload({ waitUntil: 'domcontentloaded' });
    await wb.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
    await chatFrame();
    await chat.getByRole('log').getByRole('article').first().waitFor({ state: 'visible', timeout: 60_000 });
    await wb.keyStored();
    await wb.page.waitForTimeout(1000);

    const entries: Entry[] = [];
    const frames = wb.page.frames();
    const origins = new Set<string>();
    for (const frame of frames) {
      const label = frame === wb.page.mainFrame() ? 'workbench page' : `frame ${frame.url().slice(0, 120)}`;
      // Storage belongs to an origin: dump it once per origin (webview frames may share the page's).
      const origin = await frame.evaluate(() => location.origin).catch(() => `unknown ${label}`);
      if (!origins.has(origin)) {
        origins.add(origin);
        const got = await frame.evaluate(dumpStorage).catch((err: Error) => [{ where: `(not readable: ${err.message.split('\n')[0]})`, text: '' }]);
        for (const e of got) entries.push({ where: `${label} (${origin}): ${e.where}`, text: e.text });
      }
      const body = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
      entries.push({ where: `${label}: page text`, text: body });
    }
    for (const t of toasts) entries.push({ where: 'notification', text: t });
    const images = pngsUnder(wb.workspace);
    for (const f of images) entries.push({ where: `saved image ${f}`, text: readFileSync(f).toString('latin1') });

    const hits = entries.filter((e) => leaks(e.text).length > 0).map((e) => `${e.where}: ${leaks(e.text).join(',')}`);
    const records = entries.filter((e) => e.where.includes('indexedDB') && !e.where.endsWith('records)')).length;
    const stores = entries.filter((e) => e.where.endsWith('records)')).map((e) => e.where.replace(/^.*indexedDB /, ''));
    console.log(
      `[canary] ${frames.length} frames in ${origins.size} origin(s), ${records} IndexedDB records in ${stores.length} stores, ${entries.filter((e) => /Storage\[/.test(e.where)).length} local/session storage items, ${toasts.size} notifications`,
    );
    console.log(`[canary] stores: ${[...new Set(stores)].join('; ')}`);
    for (const e of entries.filter((x) => x.where.includes('not readable'))) console.log(`[canary] ${e.where}`);

    if (process.env.MODELGATE_CANARY_DUMP) writeFileSync(process.env.MODELGATE_CANARY_DUMP, JSON.stringify(entries, null, 1));
    // The dump reaches webview state: the unsent draft's decoy is in the browser's storage.
    const decoyAt = entries
      .filter((e) => e.where.includes('indexedDB') || /Storage\[/.test(e.where))
      .filter((e) => e.text.includes(DECOY))
      .map((e) => e.where);
    console.log(`[canary] the draft decoy was found in: ${decoyAt.join(' | ')}`);
    assert.ok(decoyAt.length > 0, 'the draft (webview state) is in the dumped browser storage');
    assert.ok(records > 0, 'IndexedDB was read');
    assert.ok(
      images.length >= 1 && entries.some((e) => e.where.startsWith('saved image') && e.text.includes('a sparrow on a wire')),
      'the saved image (its PNG text) was searched',
    );
    assert.ok(
      entries.some((e) => e.where.endsWith('[modelgate.modelgate]') && e.text.includes('modelgate.image.lastChoices')),
      "the image command's globalState (its last choices) was searched",
    );
    assert.ok(
      entries.some((e) => e.where.endsWith('[modelgate.modelgate]')),
      "the extension's globalState (IndexedDB record modelgate.modelgate) was read",
    );
    assert.ok(
      entries.some((e) => e.where.endsWith('[secrets.provider]')),
      "VS Code's SecretStorage (localStorage secrets.provider, encrypted) was read",
    );
    assert.deepEqual(hits, [], 'no piece of the key anywhere in the browser');
  });
});
