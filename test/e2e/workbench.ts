// Playwright fixture: a real VS Code 1.139 web workbench (code-server) with the packaged
// Modelgate extension installed, driven in headless Chromium. Plain Node (no Playwright test
// runner): the e2e layer is mocha over out/test/e2e/**/*.e2e.test.js.
//
// ---------------------------------------------------------------------------------------------
// API
//
//   const wb = await openWorkbench(options?)           // starts everything, resolves when ready
//   // or, in a mocha suite: const fixture = useWorkbench(options?) ... fixture.get()
//
// options (all optional):
//   settings        user settings.json entries, merged over the harness defaults (telemetry off,
//                   no startup editor, ...). Application-scope settings such as
//                   `modelgate.baseUrl` work here (code-server keeps user settings on disk).
//   workspaceFiles  { 'relative/path': 'content' } of the workspace folder
//                   (default: README.md, src/a.ts, src/b.ts, notes/todo.md).
//   trustWorkspace  default true (--disable-workspace-trust); false = Restricted Mode.
//   env             extra environment of the server; it reaches the extension host's process.env.
//   vsixes          extensions to install (default: dist-vsix/modelgate.vsix or $MODELGATE_VSIX).
//   viewport        default 1400x900.
//   readyTimeoutMs  default 120 000.
//
// wb.page                  the Playwright Page showing the workbench
// wb.origin / wb.url       server origin (http://127.0.0.1:PORT) and the workbench URL
// wb.workspace             absolute path of the workspace folder (read files the UI wrote)
// wb.profile               folders and logs: serverLog, userDataDir, extensionsDir, baseDir, ...
// wb.runCommand(title)     F1, types the title, runs the palette entry whose label is exactly
//                          `title` (e.g. 'Modelgate: Open Chat'). Waits until the entry exists.
// wb.findCommands(query, { expect? })
//                          labels the palette lists for `query` (waits for `expect` if given),
//                          then closes the palette.
// wb.answerInput(text)     types into the open quick input / input box and presses Enter
//                          (e.g. after runCommand('Modelgate: Set API Key')).
// wb.quickInputItems()     labels currently listed by an open quick pick.
// wb.statusBarItem(text)   Locator of the status bar entry whose text contains `text`
//                          (string or RegExp), e.g. statusBarItem('flagship-text').
// wb.notifications()       texts of the visible notification toasts.
// wb.webviewFrame(match?, timeoutMs?)
//                          the inner frame of a webview, found through page.frames() (webviews
//                          are nested iframes served from .../webview/browser/pre/). `match` is a
//                          CSS selector that must exist in the frame, or a predicate
//                          (frame) => boolean | Promise<boolean>. Only frames of the Modelgate
//                          extension are considered unless `extensionId` is passed in options.
// wb.webviewFrames()       all inner webview frames right now.
// wb.screenshot(path)      PNG of the whole page; returns the path.
// wb.openWindow()          a second window on the same server and workspace (a new page of the
//                          same browser, so the same browser storage and SecretStorage; its own
//                          extension host). Its close() closes only that page.
// wb.close()               closes the browser, stops the server (whole process group) and removes
//                          the temp profile; idempotent. Keeps the profile when the test failed
//                          (useWorkbench) or MODELGATE_KEEP_TMP=1, and prints where it is.
//
// useWorkbench(options) registers mocha hooks: `before` opens the workbench, `afterEach` saves a
// screenshot of a failed test to test-results/e2e/<test title>.png, `after` closes it.
// ---------------------------------------------------------------------------------------------
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { launchBrowser, type BrowserSession } from '../harness/browser';
import { createProfile, removeProfile, startServer, type Profile, type RunningServer } from '../harness/code-server';
import { extensionVsix, repoRoot, toolPaths } from '../harness/paths';
import { tailOf } from '../harness/processes';
import { PRICE_CARD, startGateway, type GatewayOptions, type RunningGateway } from '../gateway/index';

export interface WorkbenchOptions {
  settings?: Record<string, unknown>;
  workspaceFiles?: Record<string, string>;
  trustWorkspace?: boolean;
  env?: Record<string, string | undefined>;
  vsixes?: string[];
  viewport?: { width: number; height: number };
  readyTimeoutMs?: number;
  /** code-server's --locale (VS Code's display language, and vscode.env.language) */
  locale?: string;
  /** Runs after the profile (its installed extensions included) is made, before the server starts. */
  prepareProfile?: (profile: Profile) => void;
}

export type FrameMatch = string | ((frame: Frame) => boolean | Promise<boolean>);

export interface Workbench {
  readonly page: Page;
  readonly origin: string;
  readonly url: string;
  readonly workspace: string;
  readonly profile: Profile;
  /** pid of the code-server process (its extension hosts are descendants) */
  readonly serverPid: number;
  runCommand(title: string, options?: { timeoutMs?: number }): Promise<void>;
  findCommands(query: string, options?: { expect?: string; timeoutMs?: number }): Promise<string[]>;
  answerInput(text: string, options?: { timeoutMs?: number }): Promise<void>;
  /** Modelgate: Open Chat, then the chat panel's frame once its message box shows */
  openChat(options?: { timeoutMs?: number }): Promise<Frame>;
  /** stores `key` with Modelgate: Set API Key and waits until the status bar shows a stored key */
  setKey(key: string): Promise<void>;
  /** opens a workspace file by name with Quick Open (Ctrl+P) and waits for its tab */
  quickOpen(fileName: string): Promise<void>;
  quickInputItems(): Promise<string[]>;
  /** waits until the status bar shows a stored key (the sparkle icon, not the warning) */
  keyStored(timeoutMs?: number): Promise<void>;
  statusBarItem(text: string | RegExp): Locator;
  notifications(): Promise<string[]>;
  webviewFrame(match?: FrameMatch, options?: { timeoutMs?: number; extensionId?: string }): Promise<Frame>;
  webviewFrames(): Frame[];
  screenshot(path: string): Promise<string>;
  /** Another window on the same server and workspace (a new page, its own extension host). */
  openWindow(options?: { readyTimeoutMs?: number }): Promise<Workbench>;
  /** Marks the session as failed: close() keeps its profile and logs. */
  markFailed(): void;
  close(): Promise<void>;
}

const WEBVIEW_PATH = '/webview/browser/pre/';
const QUICK_INPUT = '.quick-input-widget';
const QUICK_ROWS = '.quick-input-widget .quick-input-list .monaco-list-row';

// Installing with code-server's CLI costs a few seconds; do it once per set of .vsix files
// per process and copy the result into each profile.
// The state lives on globalThis: each e2e file is its own bundle, and one mocha process runs them all.
interface TemplateState {
  byKey: Map<string, string>;
  root?: string;
}
const templateKey = Symbol.for('modelgate.e2e.extensionTemplates');
const sharedTemplates = globalThis as unknown as Record<symbol, TemplateState | undefined>;
const templateState: TemplateState = (sharedTemplates[templateKey] ??= { byKey: new Map<string, string>() });
const templates = templateState.byKey;

async function extensionsTemplate(vsixes: string[]): Promise<string> {
  const key = vsixes.map((v) => `${v}@${statSync(v).mtimeMs}`).join('|');
  const known = templates.get(key);
  if (known) return known;
  // `npm test` runs the e2e files in several mocha processes and names a folder they share.
  const shared = process.env.MODELGATE_E2E_TEMPLATES;
  if (shared) {
    const dir = join(shared, createHash('sha256').update(key).digest('hex').slice(0, 16));
    if (!existsSync(join(dir, 'extensions'))) {
      // Installed aside, then renamed into place: a process that loses the race uses the winner's.
      const scratch = await createProfile({ baseDir: mkdtempSync(join(shared, 'installing-')), vsixes, workspaceFiles: {} });
      try {
        renameSync(scratch.baseDir, dir);
      } catch {
        rmSync(scratch.baseDir, { recursive: true, force: true });
      }
    }
    templates.set(key, join(dir, 'extensions'));
    return join(dir, 'extensions');
  }
  if (!templateState.root) {
    const root = mkdtempSync(join(tmpdir(), 'modelgate-e2e-extensions-'));
    templateState.root = root;
    process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  }
  // A scratch profile whose only use is its freshly installed extensions folder.
  const scratch = await createProfile({ baseDir: join(templateState.root, String(templates.size)), vsixes, workspaceFiles: {} });
  templates.set(key, scratch.extensionsDir);
  return scratch.extensionsDir;
}

export async function openWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  toolPaths(); // A readable error when Node 24, code-server or Chromium is missing.
  const vsixes = options.vsixes ?? [extensionVsix()];
  const template = await extensionsTemplate(vsixes);
  const profile = await createProfile({ vsixes, settings: options.settings, workspaceFiles: options.workspaceFiles, extensionsTemplate: template });
  let server: RunningServer | undefined;
  let browser: BrowserSession | undefined;
  try {
    options.prepareProfile?.(profile);
    server = await startServer(profile, { trustWorkspace: options.trustWorkspace, env: options.env, locale: options.locale });
    browser = await launchBrowser(join(profile.baseDir, 'chromium-profile'), join(profile.baseDir, 'browser-console.log'), options.viewport);
    const wb = new WorkbenchSession(browser, server, profile);
    await wb.waitUntilReady(options.readyTimeoutMs ?? 120_000, Object.keys(options.workspaceFiles ?? { default: '' }).length > 0);
    return wb;
  } catch (err) {
    await browser?.close();
    await server?.stop();
    throw new Error(`the workbench did not start: ${(err as Error).message}\nprofile kept in ${profile.baseDir}\n${tailOf(profile.serverLog, 30)}`);
  }
}

class WorkbenchSession implements Workbench {
  readonly page: Page;
  readonly origin: string;
  readonly url: string;
  readonly workspace: string;
  private closed = false;
  private failed = false;

  constructor(
    private readonly browser: BrowserSession,
    private readonly server: RunningServer,
    readonly profile: Profile,
    private readonly secondary = false,
  ) {
    this.page = browser.page;
    this.origin = server.origin;
    this.url = server.workbenchUrl;
    this.workspace = profile.workspace;
  }

  get serverPid(): number {
    return this.server.process.pid;
  }

  async waitUntilReady(timeoutMs: number, expectFiles: boolean): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const left = () => Math.max(1000, deadline - Date.now());
    await this.page.goto(this.url, { waitUntil: 'domcontentloaded', timeout: left() });
    await this.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: left() });
    // Explorer rows appear once the workbench reads the folder through the server: the remote
    // connection, and with it the extension host, is up.
    if (expectFiles) await this.page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: left() });
  }

  private async openPalette(): Promise<Locator> {
    const input = this.page.locator(`${QUICK_INPUT} .quick-input-box input`);
    // A page that grabbed the keyboard focus as it opened (the walkthrough, an image editor) can
    // leave F1 unheard or the palette inert: then the focus goes back to the workbench (a click
    // on the side bar's title) and F1 again.
    for (let attempt = 0; ; attempt++) {
      await this.page.keyboard.press('Escape'); // Close whatever quick input is open.
      await this.page.keyboard.press('F1');
      const ready = await input
        .waitFor({ state: 'visible', timeout: 10_000 })
        .then(() => input.isEditable({ timeout: 2_000 }))
        .catch(() => false);
      if (ready) return input;
      if (attempt >= 3) throw new Error('the command palette did not open (F1) or stayed inert');
      await this.page.keyboard.press('Escape');
      await this.page
        .locator('.monaco-workbench .part.sidebar .title')
        .first()
        .click({ timeout: 5_000 })
        .catch(() => undefined);
    }
  }

  private rowByLabel(title: string): Locator {
    return this.page.locator(QUICK_ROWS).filter({ has: this.page.locator('.label-name').getByText(title, { exact: true }) });
  }

  /**
   * Types `query` into the palette until an entry labelled `expect` is listed or time is up.
   * The palette filters once per keystroke, and commands of the remote extension host are
   * registered a few seconds after the workbench shows: so the query is typed again every 2 s.
   */
  private async searchPalette(query: string, expect: string | undefined, timeoutMs: number): Promise<{ labels: string[]; found?: Locator }> {
    const deadline = Date.now() + timeoutMs;
    let labels: string[] = [];
    for (;;) {
      const input = await this.openPalette();
      // A page that takes the focus as it opens (the walkthrough) can close the palette again.
      if (
        !(await input.fill(`>${query}`, { timeout: 5_000 }).then(
          () => true,
          () => false,
        ))
      ) {
        if (Date.now() >= deadline) return { labels };
        continue;
      }
      const roundEnd = Math.min(deadline, Date.now() + 2000);
      let previous = '';
      let stableRounds = 0;
      while (Date.now() < roundEnd) {
        await this.page.waitForTimeout(200);
        labels = await this.quickInputItems();
        if (expect !== undefined && labels.includes(expect)) return { labels, found: this.rowByLabel(expect).first() };
        const now = labels.join('\n');
        stableRounds = now === previous ? stableRounds + 1 : 0;
        previous = now;
        // Without an expectation, a list that stopped changing is the answer.
        if (expect === undefined && stableRounds >= 4) return { labels };
      }
      if (Date.now() >= deadline) return { labels };
    }
  }

  async runCommand(title: string, options: { timeoutMs?: number } = {}): Promise<void> {
    // The extension host registers its commands a while after the workbench shows: with several
    // workbenches starting side by side on two cores that took more than 30 s.
    const deadline = Date.now() + (options.timeoutMs ?? 90_000);
    for (let attempt = 0; ; attempt++) {
      const { labels, found } = await this.searchPalette(title, title, Math.max(5_000, deadline - Date.now()));
      if (!found) {
        await this.page.keyboard.press('Escape');
        throw new Error(`the command palette has no entry '${title}' (it lists: ${labels.join(' | ') || 'nothing'})`);
      }
      // A view that takes the focus as it opens (a chat panel, an extension activating) can close
      // the palette between finding the row and clicking it: the command did not run, so search again.
      const clicked = await found.click({ timeout: 5_000 }).then(
        () => true,
        () => false,
      );
      if (clicked) break;
      if (attempt >= 3) throw new Error(`the command palette closed four times before '${title}' could be chosen`);
    }
    // The palette closes, or turns into the command's own input box.
    await this.page.waitForFunction(
      ([selector, typed]) => {
        const el = document.querySelector<HTMLInputElement>(selector);
        return !el || el.offsetParent === null || el.value !== typed;
      },
      [`${QUICK_INPUT} .quick-input-box input`, `>${title}`] as const,
      { timeout: 10_000, polling: 100 },
    );
  }

  async openChat(options: { timeoutMs?: number } = {}): Promise<Frame> {
    // The extension host registers its commands a while after the workbench shows.
    await this.runCommand('Modelgate: Open Chat', { timeoutMs: options.timeoutMs ?? 60_000 });
    const chat = await this.webviewFrame('[role="log"]', { timeoutMs: options.timeoutMs ?? 60_000 });
    await chat.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible', timeout: options.timeoutMs ?? 60_000 });
    return chat;
  }

  async setKey(key: string): Promise<void> {
    // Right after a cold Open Chat, the command focuses the panel once more when its page is
    // ready; on a loaded machine that can land after the key's input box opened, and the box
    // closes with the focus (ci30: the box never showed). Then ask again, as a person would.
    for (let attempt = 0; ; attempt++) {
      await this.runCommand('Modelgate: Set API Key');
      const typed = await this.answerInput(key).then(
        () => true,
        (err: unknown) => {
          if (attempt >= 2) throw err;
          return false;
        },
      );
      if (typed) break;
    }
    await this.keyStored();
  }

  /**
   * Opens `fileName` with Quick Open (Ctrl+P) and waits for its tab. Quick Open lists a file only
   * once the server's file search answers, so the row is clicked (not Enter), with the same
   * give-the-focus-back retry as the palette.
   */
  async quickOpen(fileName: string): Promise<void> {
    const input = this.page.locator(`${QUICK_INPUT} .quick-input-box input`);
    const row = this.page.locator(QUICK_ROWS, { hasText: fileName }).first();
    for (let attempt = 0; ; attempt++) {
      await this.page.keyboard.press('Escape');
      await this.page.keyboard.press('Control+P');
      const opened = await input
        .fill(fileName, { timeout: 10_000 })
        .then(() => row.click({ timeout: 20_000 }))
        .then(() => this.page.locator('.tab.active', { hasText: fileName }).waitFor({ state: 'visible', timeout: 20_000 }))
        .then(
          () => true,
          () => false,
        );
      if (opened) return;
      if (attempt >= 2) throw new Error(`Quick Open did not open ${fileName}`);
      await this.page
        .locator('.monaco-workbench .part.sidebar .title')
        .first()
        .click({ timeout: 5_000 })
        .catch(() => undefined);
    }
  }

  async findCommands(query: string, options: { expect?: string; timeoutMs?: number } = {}): Promise<string[]> {
    const { labels } = await this.searchPalette(query, options.expect, options.timeoutMs ?? 30_000);
    await this.page.keyboard.press('Escape');
    return labels;
  }

  async answerInput(text: string, options: { timeoutMs?: number } = {}): Promise<void> {
    const input = this.page.locator(`${QUICK_INPUT} .quick-input-box input`);
    await input.waitFor({ state: 'visible', timeout: options.timeoutMs ?? 10_000 });
    await input.fill(text);
    await input.press('Enter');
  }

  async quickInputItems(): Promise<string[]> {
    return this.page
      .locator(`${QUICK_ROWS} .label-name`)
      .allInnerTexts()
      .then((all) => all.map((t) => t.trim()));
  }

  /**
   * Waits until the status bar shows a stored key: its item loses the warning icon ($(warning))
   * for the sparkle. The item is there (with the warning) before the key is stored, so waiting
   * for the item alone let a test send before "Set API Key" finished checking and storing it.
   */
  async keyStored(timeoutMs = 60_000): Promise<void> {
    await this.statusBarItem('flagship-text').locator('.codicon-sparkle').first().waitFor({ state: 'visible', timeout: timeoutMs });
  }

  statusBarItem(text: string | RegExp): Locator {
    return this.page.locator('.part.statusbar .statusbar-item').filter({ hasText: text });
  }

  async notifications(): Promise<string[]> {
    return this.page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
  }

  webviewFrames(): Frame[] {
    // Each webview is an outer iframe (pre/index.html) holding the content frame (pre/fake.html).
    return this.page.frames().filter((f) => f.url().includes(WEBVIEW_PATH) && f.parentFrame()?.url().includes(WEBVIEW_PATH));
  }

  async webviewFrame(match?: FrameMatch, options: { timeoutMs?: number; extensionId?: string } = {}): Promise<Frame> {
    const extensionId = options.extensionId ?? 'modelgate.modelgate';
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    const test = async (frame: Frame): Promise<boolean> => {
      try {
        if (!(frame.parentFrame()?.url() ?? '').toLowerCase().includes(`extensionid=${extensionId.toLowerCase()}`)) return false;
        if (match === undefined) return (await frame.locator('body *').count()) > 0;
        if (typeof match === 'string') return (await frame.locator(match).count()) > 0;
        return await match(frame);
      } catch {
        return false; // Frames come and go while a webview loads.
      }
    };
    while (Date.now() < deadline) {
      for (const frame of this.webviewFrames()) if (await test(frame)) return frame;
      await this.page.waitForTimeout(250);
    }
    const seen = this.webviewFrames().map((f) => f.parentFrame()?.url() ?? f.url());
    throw new Error(
      `no webview frame of ${extensionId} matched ${typeof match === 'string' ? `'${match}'` : match ? 'the predicate' : '(any content)'}; webview frames: ${seen.join(', ') || 'none'}`,
    );
  }

  async screenshot(path: string): Promise<string> {
    mkdirSync(dirname(path), { recursive: true });
    await this.page.screenshot({ path, fullPage: true });
    return path;
  }

  markFailed(): void {
    this.failed = true;
  }

  async openWindow(options: { readyTimeoutMs?: number } = {}): Promise<Workbench> {
    const page = await this.browser.context.newPage();
    const second = new WorkbenchSession({ context: this.browser.context, page, close: () => page.close() }, this.server, this.profile, true);
    await second.waitUntilReady(options.readyTimeoutMs ?? 120_000, true);
    return second;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.secondary) return this.browser.close(); // only this window's page
    await this.browser.close();
    await this.server.stop();
    // The browser profile is most of the folder's size and says nothing about a failure.
    rmSync(join(this.profile.baseDir, 'chromium-profile'), { recursive: true, force: true });
    if (this.failed || process.env.MODELGATE_KEEP_TMP === '1') {
      console.log(`[e2e] workbench profile kept in ${this.profile.baseDir} (server log ${this.profile.serverLog})`);
    } else {
      removeProfile(this.profile);
    }
  }
}

/** Where failure screenshots go: test-results/e2e/ in the repository. */
export function screenshotPath(title: string): string {
  return join(repoRoot(), 'test-results', 'e2e', `${title.replace(/[^\w.-]+/g, '_').slice(0, 120)}.png`);
}

/**
 * Mocha hooks around one workbench per `describe`: opened in `before`, screenshot of each failed
 * test, closed in `after`. `get()` returns the open workbench inside tests.
 */
export function useWorkbench(options: WorkbenchOptions | (() => WorkbenchOptions) = {}): { get(): Workbench } {
  let wb: Workbench | undefined;
  before(async function () {
    this.timeout((typeof options === 'function' ? options() : options).readyTimeoutMs ?? 180_000);
    wb = await openWorkbench(typeof options === 'function' ? options() : options);
  });
  afterEach(async function () {
    const test = this.currentTest;
    if (wb && test?.state === 'failed') {
      wb.markFailed();
      const file = await wb.screenshot(screenshotPath(test.fullTitle())).catch(() => undefined);
      if (file) console.log(`[e2e] screenshot of the failure: ${file}`);
    }
  });
  after(async () => {
    await wb?.close();
  });
  return {
    get() {
      if (!wb) throw new Error('the workbench is not open (did the before hook fail?)');
      return wb;
    },
  };
}

/** The user settings most suites start from: the simulator's address and the flagship model's price. */
/**
 * The user's settings.json as the workbench last wrote it; undefined while VS Code rewrites it
 * (read empty or half written: seen in loaded runs).
 */
export function userSettingsOf(wb: Workbench): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(join(wb.profile.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export function gatewaySettings(gw: RunningGateway): Record<string, unknown> {
  return {
    'modelgate.baseUrl': gw.baseUrl,
    'modelgate.models': { 'flagship-text': { prices: { default: PRICE_CARD.chat['flagship-text']!.stable } } },
  };
}

/**
 * `useWorkbench` with a gateway simulator of its own that accepts `key` (balance $100): the
 * simulator starts before the workbench (whose options may read its address) and closes after it.
 */
export function useGatewayWorkbench(
  key: string,
  options: (gw: RunningGateway) => WorkbenchOptions,
  gatewayOptions: GatewayOptions = {},
): { get(): Workbench; gateway(): RunningGateway } {
  let gw: RunningGateway | undefined;
  before(async () => {
    gw = await startGateway({ keys: { [key]: { balance: 100 } }, ...gatewayOptions });
  });
  const fixture = useWorkbench(() => options(gw!));
  after(async () => {
    await gw?.close();
  });
  return {
    get: () => fixture.get(),
    gateway() {
      if (!gw) throw new Error('the gateway simulator is not running (did the before hook fail?)');
      return gw;
    },
  };
}
