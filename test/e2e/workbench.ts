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
//   prepareProfile  runs on the profile before the server starts (see WorkbenchOptions).
//   workspaceFile   a .code-workspace file of the workspace folder to open instead of the folder.
//   ownServer       why the file needs a server and window of its own (see below).
//
// The e2e files of one process share a workbench (sharedWorkbench.ts): one code-server, one
// Chromium and one window, reset between files to the state a fresh profile has (the extension
// restarted with no state, settings, workspace files, editors, notifications, key). A file with
// trustWorkspace: false, locale, env, vsixes, workspaceFile or ownServer gets a server and window of its own.
// MODELGATE_E2E_SHARE=0: every file gets its own (as a single file run alone always does).
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
//                          (useWorkbench) or MODELGATE_KEEP_TMP=1, and prints where it is. The
//                          shared workbench is handed back for the next file instead.
//
// useWorkbench(options) registers mocha hooks: `before` opens the workbench, `afterEach` saves a
// screenshot of a failed test to test-results/e2e/<test title>.png, `after` closes it.
// ---------------------------------------------------------------------------------------------
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, type BrowserSession } from '../harness/browser';
import { createProfile, startServer, type RunningServer } from '../harness/code-server';
import { extensionVsix, repoRoot, toolPaths } from '../harness/paths';
import { tailOf } from '../harness/processes';
import { PRICE_CARD, startGateway, type GatewayOptions, type RunningGateway } from '../gateway/index';
import { extensionsTemplate } from './extensionTemplates';
import { acquireSharedWorkbench, canShare } from './sharedWorkbench';
import { WorkbenchSession, type Workbench, type WorkbenchOptions } from './workbenchSession';

export type { FrameMatch, Workbench, WorkbenchOptions } from './workbenchSession';

export async function openWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  if (canShare(options)) {
    const shared = await acquireSharedWorkbench(options);
    if (shared) return shared;
  }
  return openOwnWorkbench(options);
}

/** A server, a browser and a window of its own for this workbench, closed with it. */
async function openOwnWorkbench(options: WorkbenchOptions): Promise<Workbench> {
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
    const url = options.workspaceFile ? `${server.origin}/?workspace=${encodeURIComponent(join(profile.workspace, options.workspaceFile))}` : undefined;
    const wb = new WorkbenchSession(browser, server, profile, { url });
    await wb.waitUntilReady(options.readyTimeoutMs ?? 120_000, Object.keys(options.workspaceFiles ?? { default: '' }).length > 0);
    return wb;
  } catch (err) {
    await browser?.close();
    await server?.stop();
    rmSync(join(profile.baseDir, 'chromium-profile'), { recursive: true, force: true });
    throw new Error(`the workbench did not start: ${(err as Error).message}\nprofile kept in ${profile.baseDir}\n${tailOf(profile.serverLog, 30)}`);
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
