// The web extension (package.json `browser`, dist/web/extension.js) in VS Code's web worker
// extension host of the harness's browser-hosted workbench (code-server 4.139 = VS Code 1.139,
// headless Chromium, offline). The .vsix is installed on the server as usual; the user setting
// `remote.extensionKind: { "modelgate.modelgate": ["web"] }` makes the workbench run it in the
// browser's web worker extension host instead of the server's Node one.
//
// Proof that it is the web build running in the browser, not the Node build on the server: the
// gateway simulator sees the requests with the workbench's Origin header and Chromium's
// User-Agent (a fetch from a web worker); Node's fetch sends neither.
import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import type { RunningGateway } from '../gateway/index';
import { gatewaySettings, useGatewayWorkbench, type Workbench } from './workbench';
import { fillField, renderedText } from './typing';

const KEY = 'sk-e2e-web-51f0a9';
const SHOTS = join(repoRoot(), 'test-results', 'screenshots');

function filesUnder(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, suffix));
    else if (name.endsWith(suffix)) out.push(p);
  }
  return out;
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('e2e web: the web build in the browser (web worker extension host)', function () {
  this.timeout(300_000);

  before(() => {
    mkdirSync(SHOTS, { recursive: true });
  });

  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: {
      ...gatewaySettings(gw),
      'remote.extensionKind': { 'modelgate.modelgate': ['web'] },
    },
    viewport: { width: 1280, height: 860 },
    ownServer: "the web build runs in the browser's worker extension host, which a window picks when it loads (remote.extensionKind)",
  }));

  const gw = () => fixture.gateway();

  let wb: Workbench;
  let chat: Frame;
  const message = () => chat.getByRole('textbox', { name: 'Message' });
  const assistants = () => chat.getByRole('log').getByRole('article', { name: 'Assistant' });
  const button = (name: string) => chat.getByRole('button', { name, exact: true });

  async function ask(text: string): Promise<string> {
    const before = await assistants().count();
    await fillField(message(), text);
    await button('Send').click();
    const sentAt = Date.now();
    await until('an answer', async () => ((await assistants().count()) > before ? true : undefined)).catch(async (err: unknown) => {
      throw new Error(`${(err as Error).message}\n${await whatHappened(sentAt)}`);
    });
    await button('Stop').waitFor({ state: 'hidden', timeout: 60_000 });
    return (await renderedText(assistants().nth(before))).trim();
  }

  /** For a failure message: what the simulator saw since `since`, the panel's text and the end of Modelgate's log. */
  async function whatHappened(since: number): Promise<string> {
    const seen = gw()
      .requests.map((r) => `${r.method} ${r.path} at ${((r.at - since) / 1000).toFixed(1)} s`)
      .join('; ');
    const panel = await chat
      .locator('body')
      .innerText()
      .catch((e: unknown) => `(unreadable: ${String(e)})`);
    await wb.runCommand('Modelgate: Show Log').catch(() => undefined);
    const log = await wb.page
      .locator('.part.panel .view-lines')
      .innerText({ timeout: 10_000 })
      .catch((e: unknown) => `(unreadable: ${String(e)})`);
    return `requests the simulator saw (times from the Send click): ${seen || 'none'}\npanel text: ${panel}\nModelgate log (end): ${log}`;
  }

  const chatRequests = (g: RunningGateway) => g.requests.filter((r) => r.path.endsWith('/chat/completions') && r.method === 'POST');

  before(() => {
    wb = fixture.get();
  });

  it('stores the key in SecretStorage and answers a chat question with a tool call, fetching from the browser', async () => {
    await wb.setKey(KEY); // checked against the gateway, then stored: only then ask
    await wb.runCommand('Modelgate: Open Chat');
    chat = await wb.webviewFrame('[role="log"]', { timeoutMs: 60_000 });
    const answer = await ask('[[call:read_file {"path":"README.md"}]]');
    assert.match(answer, /Tool read_file returned \d+ characters\. First line: README\.md \(lines 1-3 of 3\)/, answer);
    const sent = chatRequests(gw());
    assert.ok(sent.length >= 2, `expected the tool round trip, saw ${sent.length} chat requests`);
    for (const r of sent) {
      assert.equal(r.headers.origin, new URL(wb.origin).origin, 'a fetch from the browser carries the workbench origin');
      assert.match(String(r.headers['user-agent']), /Chrome/, 'Chromium made the request, not the server');
      assert.equal(r.headers.authorization, `Bearer ${KEY}`);
      // the web extension host runs no commands: run_command is not offered, and the prompt says so
      const body = r.body as { tools?: { function: { name: string } }[]; messages: { role: string; content: unknown }[] };
      const names = (body.tools ?? []).map((t) => t.function.name);
      assert.ok(names.includes('read_file'), `the workspace tools are offered: ${names.join(', ')}`);
      assert.ok(!names.includes('run_command'), `no run_command in the web host: ${names.join(', ')}`);
      assert.match(String(body.messages[0]!.content), /run_command is not offered here/);
    }
    await wb.screenshot(join(SHOTS, 'web-chat-tool-call.png'));
  });

  it('runs a model regex search under the Worker time guard', async () => {
    const answer = await ask('[[call:search_text {"query":"add\\\\(","isRegex":true}]]');
    assert.match(answer, /Tool search_text returned \d+ characters\. First line: 2 matches for \/add\\\(\/ in 2 files/, answer);
  });

  it('stops a catastrophically backtracking regex (Worker terminated at the limit) and stays responsive', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(wb.workspace, 'notes', 'slow.txt'), `${'a'.repeat(40)}b\n`);
    await until('the file to be indexed', () => (filesUnder(wb.workspace, 'slow.txt').length ? true : undefined));
    const answer = await ask('[[call:search_text {"query":"(a+)+$","isRegex":true,"glob":"notes/**"}]]');
    assert.match(answer, /too slow/, answer);
    // The extension host is free again: another tool call answers.
    const next = await ask('[[call:read_file {"path":"README.md"}]]');
    assert.match(next, /Tool read_file returned/, next);
  });

  it('switches the chat model from the status bar picker', async () => {
    // Close whatever quick input an earlier test left open, so the rows read are the picker's.
    await wb.page.keyboard.press('Escape');
    await wb.page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined);
    const pickerRows = async () => {
      const labels = await wb.quickInputItems();
      return labels.some((l) => /long-context-tools/.test(l)) ? labels : undefined;
    };
    // Two tries: the first click can land before the item is wired.
    let items: string[] | undefined;
    for (let attempt = 1; !items; attempt++) {
      await wb.statusBarItem('flagship-text').first().click();
      items = await until('the picker', pickerRows, attempt < 2 ? 30_000 : 60_000).catch((err: unknown) => {
        if (attempt >= 2) throw err;
        return undefined;
      });
    }
    assert.ok(
      items.some((l) => /long-context-tools/.test(l)),
      items.join(' | '),
    );
    await wb.screenshot(join(SHOTS, 'web-status-picker.png'));
    const row = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'long-context-tools' }).first();
    await row.click();
    await wb.statusBarItem('long-context-tools').first().waitFor({ state: 'visible', timeout: 30_000 });
  });

  it('generates an image and saves it into the workspace through vscode.workspace.fs', async () => {
    const before = filesUnder(wb.workspace, '.png').length;
    await wb.runCommand('Modelgate: Generate Image Here');
    await wb.answerInput('a watercolor lighthouse');
    // Accept the offered defaults of whatever is asked next (model, size, ...).
    const saved = await until(
      'a saved .png',
      async () => {
        const pngs = filesUnder(wb.workspace, '.png');
        if (pngs.length > before) return pngs;
        if (await wb.page.locator('.quick-input-widget').isVisible()) await wb.page.keyboard.press('Enter');
        return undefined;
      },
      90_000,
    );
    assert.ok(saved.length > before);
    const images = gw().requests.filter((r) => r.path.endsWith('/images/generations'));
    assert.ok(images.length >= 1 && images.every((r) => /Chrome/.test(String(r.headers['user-agent']))));
    await wb.screenshot(join(SHOTS, 'web-image-saved.png'));
  });

  it('refuses a path through a symbolic link (no realpath in the web build), and reads nothing outside', async () => {
    const { mkdtempSync, symlinkSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const outside = mkdtempSync(join(tmpdir(), 'modelgate-web-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE-SECRET-3f9a\n');
    symlinkSync(outside, join(wb.workspace, 'linked'));
    await chat.getByRole('textbox', { name: 'Message' }).click(); // the chat view is still open from the tests above
    const answer = await ask('[[call:read_file {"path":"linked/secret.txt"}]]');
    assert.match(answer, /goes through a symbolic link/, answer);
    assert.ok(!JSON.stringify(gw().requests.map((r) => r.body)).includes('OUTSIDE-SECRET-3f9a'), 'the file outside was never sent');
  });

  it('says CORS, and which origin to allow, when the gateway does not allow the workbench origin', async () => {
    await wb.page.keyboard.press('Escape');
    // The same gateway stops sending CORS headers: to the browser it now looks like a gateway
    // that does not allow the workbench's origin.
    gw().setCors(false);
    await wb.runCommand('Modelgate: Open Chat');
    chat = await wb.webviewFrame('[role="log"]', { timeoutMs: 60_000 });
    await fillField(message(), 'Does this reach the gateway?');
    await button('Send').click();
    const text = await until('the CORS message', async () => {
      const t = await chat.locator('body').innerText();
      return /CORS/.test(t) ? t : undefined;
    });
    const origin = new URL(wb.origin).origin;
    assert.ok(text.includes(`Access-Control-Allow-Origin: ${origin}`), text);
    gw().setCors('loopback');
    await wb.screenshot(join(SHOTS, 'web-cors-failure.png'));
  });
});
