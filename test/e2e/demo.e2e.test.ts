// `npm start` end to end: the command comes up, prints exactly one `Open http://127.0.0.1:PORT/...`
// line, the URL shows the workbench with Modelgate's walkthrough, a question asked in the chat
// panel gets a streamed answer from the simulator (with the demo key the seeder stored), and
// SIGINT leaves no process behind (every process of npm's tree and of the server's process
// group, counted with ps before and after). The demo profile is a temp folder, so this also
// covers the first-run install into it; the npm dependencies and VS Code tools are the ones
// `npm test` already has (a fresh clone is covered by CI running `npm ci`, then these steps).
import * as assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { launchBrowser, type BrowserSession } from '../harness/browser';
import { repoRoot } from '../harness/paths';
import { CONSOLE_PATH, TOP_UP_USD } from '../gateway/console-page';
import { DEMO_KEY } from '../gateway/demo-key';
import { PRICE_CARD } from '../gateway/prices';
import { sleep, waitFor } from '../harness/processes';
import { fillField, hasKeyboardFocus, renderedText } from './typing';

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
}

function processes(): Proc[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,pgid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number))
    .map(([pid, ppid, pgid]) => ({ pid: pid!, ppid: ppid!, pgid: pgid! }));
}

/** Every process descended from `root`, plus every member of those processes' groups. */
function treeOf(root: number): Set<number> {
  const all = processes();
  const tree = new Set<number>([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) if (!tree.has(p.pid) && tree.has(p.ppid)) (tree.add(p.pid), (grew = true));
  }
  const groups = new Set(all.filter((p) => tree.has(p.pid)).map((p) => p.pgid));
  for (const p of all) if (groups.has(p.pgid)) tree.add(p.pid);
  return tree;
}

const alive = (pids: Iterable<number>) => {
  const now = new Set(processes().map((p) => p.pid));
  return [...pids].filter((p) => now.has(p));
};

function getJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch (err) {
          reject(err as Error);
        }
      });
    }).once('error', reject);
  });
}

function postJson(url: string, body: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(text));
        } catch (err) {
          reject(err as Error);
        }
      });
    });
    req.once('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('e2e npm start: the one-command demo', function () {
  this.timeout(600_000);
  let demoDir: string;
  let child: ChildProcess | undefined;
  let browser: BrowserSession | undefined;
  let stdout = '';
  let stderr = '';

  before(() => {
    demoDir = mkdtempSync(join(tmpdir(), 'modelgate-demo-e2e-'));
  });

  after(async () => {
    await browser?.close();
    // On a failure the demo is still up: SIGINT first (it stops the VS Code server's own process
    // group), then SIGKILL whatever of the tree (npm's group and the groups it started) is left.
    if (child?.pid && child.exitCode === null) {
      const tree = treeOf(child.pid);
      try {
        process.kill(-child.pid, 'SIGINT');
      } catch {
        // Gone.
      }
      await waitFor('the demo to stop', () => (alive(tree).length === 0 ? true : undefined), { timeoutMs: 15_000, intervalMs: 500 }).catch(() => undefined);
      for (const pid of alive(tree)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone.
        }
      }
    }
    if (!process.env.MODELGATE_KEEP_DEMO_DIR) rmSync(demoDir, { recursive: true, force: true });
  });

  it('comes up with one Open line, answers a chat question with a stream, and SIGINT leaves no process', async () => {
    const root = repoRoot();
    child = spawn('npm', ['start'], {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MODELGATE_DEMO_DIR: join(demoDir, 'profile') },
    });
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    const url = await waitFor('the Open line of npm start', () => /^Open (http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(stdout)?.[1], {
      timeoutMs: 480_000,
      intervalMs: 500,
      abort: () => (child!.exitCode !== null ? `npm start exited (${child!.exitCode}):\n${stderr.slice(-3000)}` : undefined),
    });
    assert.equal(stdout.split('\n').filter((l) => l.startsWith('Open ')).length, 1, `exactly one Open line:\n${stdout}`);
    const simBase = /gateway simulator at (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(stderr)?.[1];
    assert.ok(simBase, `the simulator's address is reported:\n${stderr}`);

    browser = await launchBrowser(join(demoDir, 'chromium'), join(demoDir, 'console.log'), { width: 1280, height: 860 });
    const page = browser.page;
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
    // The seeder stores the demo key and opens the walkthrough.
    await page.locator('.getting-started-step', { hasText: 'Set the gateway address' }).first().waitFor({ state: 'visible', timeout: 90_000 });
    mkdirSync(join(root, 'test-results/e2e'), { recursive: true });
    await page.screenshot({ path: join(root, 'test-results/e2e/npm-start-walkthrough.png') });

    // Open the chat with its keybinding (Ctrl+Alt+M), which also puts the cursor in the message box.
    let chatFrame: Frame | undefined;
    const deadline = Date.now() + 90_000;
    while (!chatFrame && Date.now() < deadline) {
      // Escape only for a palette left open: Escape with the walkthrough focused is VS Code's
      // "Go Back" (welcome.goBack) to the Welcome overview, and the page then stops updating the
      // walkthrough's step checkboxes (it updates only the walkthrough on show).
      if (
        await page
          .locator('.quick-input-widget')
          .isVisible()
          .catch(() => false)
      )
        await page.keyboard.press('Escape');
      await page
        .locator('.monaco-workbench')
        .click({ position: { x: 5, y: 300 } })
        .catch(() => undefined);
      await page.keyboard.press('Control+Alt+KeyM');
      for (let i = 0; i < 20 && !chatFrame; i++) {
        for (const f of page.frames()) {
          if (!f.parentFrame()?.url().toLowerCase().includes('extensionid=modelgate.modelgate')) continue;
          if (
            (await f
              .locator('[role="log"]')
              .count()
              .catch(() => 0)) > 0
          )
            chatFrame = f;
        }
        if (!chatFrame) await sleep(500);
      }
    }
    assert.ok(chatFrame, 'Ctrl+Alt+M opened the chat panel');
    const box = chatFrame.getByRole('textbox', { name: 'Message' });
    // The keyboard's focus (the box's page has it too), and where the frame lost and got it back.
    const focused = async () => ((await hasKeyboardFocus(box)) ? true : undefined);
    await chatFrame.evaluate(() => {
      const w = window as unknown as { mgFocusMoves: string[] };
      w.mgFocusMoves = [];
      for (const kind of ['blur', 'focus']) window.addEventListener(kind, () => w.mgFocusMoves.push(`${kind} at ${performance.now().toFixed(0)} ms`));
    });
    // The panel opened cold by Ctrl+Alt+M takes the cursor: the command focuses the view again
    // once its page said `ready` (src/chat/index.ts), and the page focuses the message box on the
    // first focus it gets (src/webview/app.ts focusComposerWhenOpened). One press, no retry.
    await waitFor('the message box to take the cursor after one Ctrl+Alt+M', focused, { timeoutMs: 30_000 });
    const typingAt = await chatFrame.evaluate(() => performance.now());
    await page.keyboard.type('Hello from npm start');
    const moves = await chatFrame.evaluate(() => (window as unknown as { mgFocusMoves: string[] }).mgFocusMoves);
    // Keys typed once the cursor shows in the box all reach it, as a person's would.
    assert.equal(
      await box.inputValue(),
      'Hello from npm start',
      `typed straight into the message box (the frame's focus events since the panel showed: ${moves.join(', ') || 'none'}; typing began at ${typingAt.toFixed(0)} ms)`,
    );
    await chatFrame.getByRole('button', { name: 'Send', exact: true }).click();
    const answer = chatFrame.getByRole('log').getByRole('article', { name: 'Assistant' }).last();
    await answer.waitFor({ state: 'visible', timeout: 60_000 });
    await chatFrame.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'hidden', timeout: 90_000 });
    const text = (await renderedText(answer)).trim();
    assert.ok(text.length > 0, 'the answer has text');
    assert.doesNotMatch(text, /base URL|401|no API key/i, `no set-up error in the answer: ${text}`);
    // the demo's scripted model answers a greeting with a guide to the demo
    assert.match(text, /answers are scripted/, text);
    // ... and names the marker that shows "Top up" (used below)
    assert.match(text, /\[\[fault:status:402\]\][^\n]*Top up balance/, text);
    // Every step that is done shows checked in the walkthrough page (the checkbox VS Code renders
    // per step: [data-done-step-id] with aria-checked). The base URL was set before start-up, so its
    // step exercises the registration race (see src/onboarding/index.ts markStep).
    for (const step of ['baseUrl', 'apiKey', 'firstQuestion']) {
      const box = page.locator(`[data-done-step-id="modelgate.modelgate#gettingStarted#${step}"]`).first();
      await waitFor(
        `the walkthrough step ${step} to show checked`,
        async () => ((await box.getAttribute('aria-checked').catch(() => null)) === 'true' ? true : undefined),
        { timeoutMs: 30_000, intervalMs: 500 },
      ).catch(async (err: unknown) => {
        await page.screenshot({ path: join(root, 'test-results/e2e/npm-start-steps-failed.png') }).catch(() => undefined);
        const states = await page
          .locator('[data-done-step-id]')
          .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-done-step-id')}=${e.getAttribute('aria-checked')}`));
        const logs = execFileSync('find', [join(demoDir, 'profile'), '-name', 'Modelgate.log'], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .filter(Boolean);
        const log = logs.map((f) => readFileSync(f, 'utf8')).join('\n');
        throw new Error(`${err instanceof Error ? err.message : String(err)}\nstep boxes: ${states.join(', ')}\nextension log:\n${log}`);
      });
    }
    assert.equal(
      await page.locator('[data-done-step-id="modelgate.modelgate#gettingStarted#firstImage"]').first().getAttribute('aria-checked'),
      'false',
      'a step not done yet stays unchecked',
    );
    await page.screenshot({ path: join(root, 'test-results/e2e/npm-start-answer.png') });
    // The panel says, in the demo only, that this gateway is a simulator with scripted answers.
    await chatFrame
      .getByText(/this gateway is the Modelgate simulator.*Set Gateway Address/)
      .first()
      .waitFor({ state: 'attached', timeout: 10_000 });

    // The scripted question about the sample's mean(): the model reads src/math.ts through a tool,
    // explains it (after thinking) and proposes a fix naming the file; Apply changes mean() only.
    const mathFile = join(demoDir, 'profile', 'workspace', 'src', 'math.ts');
    const mathBefore = readFileSync(mathFile, 'utf8');
    await fillField(box, 'What does mean() do?');
    await chatFrame.getByRole('button', { name: 'Send', exact: true }).click();
    const explained = chatFrame.getByRole('log').getByRole('article', { name: 'Assistant' }).last();
    await explained.getByRole('button', { name: 'Apply' }).first().waitFor({ state: 'visible', timeout: 90_000 });
    await chatFrame.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'hidden', timeout: 90_000 });
    const explanation = await renderedText(explained);
    assert.match(explanation, /adds the numbers up/, explanation);
    assert.match(explanation, /NaN/, explanation);
    // It thought first: the Thinking block is there, collapsed to "Thought for …", and opens on its text.
    const thinking = explained.locator('details.reasoning-block').first();
    await thinking.locator('summary').click();
    await waitFor('the Thinking block to open', async () => ((await thinking.evaluate((d) => (d as HTMLDetailsElement).open)) ? true : undefined), {
      timeoutMs: 10_000,
    });
    assert.match((await thinking.locator('summary').innerText()).trim(), /^Thought for \d+ s$/);
    assert.match(
      await renderedText(thinking.locator('.reasoning-body')),
      /I should not guess its code: it lives in src\/math\.ts, so I read that file first\./,
    );
    const toolRequests = (
      (await getJson(`${simBase}/__sim/requests`)) as { path: string; body: { messages?: { role: string; content?: unknown }[] } }[]
    ).filter((r) => r.path.endsWith('/chat/completions') && r.body.messages?.some((m) => m.role === 'tool'));
    assert.ok(toolRequests.length >= 1, 'a tool result went back to the model');
    const toolResult = String(
      toolRequests
        .at(-1)!
        .body.messages!.filter((m) => m.role === 'tool')
        .at(-1)!.content,
    );
    assert.match(toolResult, /^src\/math\.ts \(lines 1-7 of 7\)\n/, 'read_file read src/math.ts');
    assert.ok(toolResult.includes('export function mean(xs: number[]): number {'), toolResult);
    await page.screenshot({ path: join(root, 'test-results/e2e/npm-start-mean.png') });
    await explained.getByRole('button', { name: 'Apply' }).first().click();
    const accept = page.locator('.editor-actions [aria-label^="Accept Proposed Change"]');
    await accept.first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.screenshot({ path: join(root, 'test-results/e2e/npm-start-mean-apply.png') });
    await accept.first().click();
    await accept.first().waitFor({ state: 'hidden', timeout: 30_000 });
    // Accept writes the file itself (one undo step in the editor), nothing to save. The text is
    // read once it has stopped changing: a write truncates the file first (a read in between
    // found it empty in a fresh-clone run).
    let lastRead: string | undefined;
    const mathAfter = await waitFor(
      'Accept to write src/math.ts',
      () => {
        const text = readFileSync(mathFile, 'utf8');
        const settled = text !== mathBefore && text.length > 0 && text === lastRead;
        lastRead = text;
        return settled ? text : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const guard = "  if (xs.length === 0) throw new RangeError('mean() of an empty array');\n";
    const meanAt = mathBefore.indexOf('export function mean(');
    assert.equal(
      mathAfter,
      mathBefore.slice(0, meanAt) + mathBefore.slice(meanAt).replace('{\n', `{\n${guard}`),
      `only mean() changed, by the guard line:\n${mathAfter}`,
    );
    const requests = (await getJson(`${simBase}/__sim/requests`)) as { path: string; body: { stream?: boolean; messages?: unknown } }[];
    const chats = requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.ok(chats.length >= 1, 'the simulator got the chat request');
    assert.notEqual(chats.at(-1)!.body.stream, false, 'the answer was requested as a stream');
    assert.match(JSON.stringify(chats.at(-1)!.body.messages), /Hello from npm start/);

    // "Top up" end to end: the demo seeds modelgate.consoleUrl with the simulator's console page
    // and image prices (an image shows what it cost); a 402 (the guide's `[[fault:status:402]]`
    // marker) shows an error card whose Top up opens that page in the browser, where "Add $10"
    // raises the key's balance on the simulator.
    const settings = JSON.parse(readFileSync(join(demoDir, 'profile', 'user-data', 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
    const consoleUrl = `${simBase}${CONSOLE_PATH}`;
    assert.equal(settings['modelgate.consoleUrl'], consoleUrl, 'the demo seeds the console URL');
    const seededModels = settings['modelgate.models'] as Record<string, { kind?: string; prices?: unknown }>;
    for (const id of Object.keys(PRICE_CARD.image))
      assert.ok(seededModels[id]?.kind === 'image' && seededModels[id].prices, `the demo seeds a price for ${id}`);
    const balance = async () =>
      (
        (await postJson(`${simBase}/__sim/balance`, { key: DEMO_KEY })) as {
          balance: number;
        }
      ).balance;
    const balanceBefore = await balance();
    await fillField(box, '[[fault:status:402]] Top up, please');
    await chatFrame.getByRole('button', { name: 'Send', exact: true }).click();
    const refused = chatFrame.getByRole('log').getByRole('article', { name: 'Assistant' }).last();
    const topUp = refused.getByRole('button', { name: 'Top up balance' });
    await topUp.waitFor({ state: 'visible', timeout: 60_000 });
    await page.screenshot({ path: join(root, 'test-results/e2e/npm-start-402.png') });
    // a refused request is not billed: the header's total does not count it as an answer without a price
    const total = (await chatFrame.locator('.total-cost').textContent()) ?? '';
    assert.doesNotMatch(total, /without a price|unknown/, total);
    const opened = page.context().waitForEvent('page', { timeout: 30_000 });
    await topUp.click();
    const consolePage = await opened;
    await consolePage.waitForLoadState('domcontentloaded', { timeout: 30_000 });
    await consolePage.getByRole('heading', { name: 'Gateway console' }).waitFor({ state: 'visible', timeout: 30_000 });
    const shownUrl = consolePage.url();
    await consolePage.screenshot({ path: join(root, 'test-results/e2e/npm-start-console.png') });
    await consolePage
      .getByRole('button', { name: `Add $${TOP_UP_USD}` })
      .first()
      .click();
    await consolePage
      .getByRole('status')
      .waitFor({ state: 'visible', timeout: 30_000 })
      .catch(async (err: unknown) => {
        const body = await consolePage.content().catch(() => '');
        throw new Error(
          `${err instanceof Error ? err.message : String(err)}\nthe console opened at ${shownUrl}, now at ${consolePage.url()}:\n${body.slice(0, 2000)}`,
        );
      });
    assert.match(await consolePage.getByRole('status').innerText(), new RegExp(`Added \\$${TOP_UP_USD}`), `the console at ${shownUrl} topped up`);
    assert.equal(await balance(), balanceBefore + TOP_UP_USD, `the console page (${shownUrl}) added $${TOP_UP_USD} to the demo key`);
    await consolePage.close();

    // The demo notice belongs to the panel, not to a conversation: a new chat keeps it in view.
    const demoNotices = () =>
      chatFrame!
        .locator('.notice-list .notice', { hasText: /this gateway is the Modelgate simulator/ })
        .evaluateAll((els) => ({ all: els.length, shown: els.filter((e) => e.checkVisibility()).length }));
    assert.equal((await demoNotices()).all, 1, 'the demo notice is there once');
    await page
      .locator('.part.sidebar .title-actions')
      .getByRole('button', { name: /^New Chat/ })
      .click();
    await chatFrame.getByRole('log').getByRole('article').first().waitFor({ state: 'detached', timeout: 10_000 });
    assert.deepEqual(await demoNotices(), { all: 1, shown: 1 }, 'the demo notice stays in view after New Chat');

    await browser.close();
    browser = undefined;
    // SIGINT, as Ctrl+C in a terminal sends it to the foreground group.
    const before = treeOf(child.pid!);
    assert.ok(before.size >= 3, `npm, the launcher and the VS Code server are running (${before.size})`);
    process.kill(-child.pid!, 'SIGINT');
    const code = await Promise.race([exited, sleep(30_000).then(() => 'still running')]);
    assert.notEqual(code, 'still running', 'npm start ends after SIGINT');
    const left = await waitFor('the demo processes to end', () => (alive(before).length === 0 ? [] : undefined), { timeoutMs: 15_000, intervalMs: 500 }).catch(
      () => alive(before),
    );
    assert.deepEqual(left, [], `processes left behind after SIGINT: ${left.join(', ')}`);
  });
});
