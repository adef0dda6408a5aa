// One workbench for the e2e files of a process: one code-server, one Chromium and one window,
// reset between files instead of loaded again. A window load is the largest fixed cost of an e2e
// file (about 15-20 s of CPU: the renderer alone is busy for ~15 s; docs/performance.md), and most
// files only need the state a fresh profile has, which a reset gives back:
//  - the Modelgate extension's state: its extension host is killed and VS Code starts a new one
//    (nothing it held in memory survives), its globalState and the walkthrough's progress are
//    removed from the browser's storage, its chat store and edit checkpoints from the disk, the key
//    of the last file's gateway from SecretStorage (Modelgate: Clear API Key), the context keys it
//    set are forgotten;
//  - the user settings: BASE_USER_SETTINGS and the file's, none of the last file's besides (written
//    through VS Code's configuration API, before the extension host is replaced);
//  - the workspace folder: emptied and filled with the file's files;
//  - the window: no editor (unsaved changes discarded), one editor group, no panel or secondary
//    side bar, the Explorer shown, no notification, no editor history, the default side bar width
//    and the file's viewport; pages, page and context listeners and routes the last file added are gone.
// The walkthrough, which Modelgate opens on a first start, opening again is the proof that its
// globalState was emptied. When any step fails, the file gets a new window on the same server
// (a fresh browser profile: what every file got before) instead; the log says so.
//
// Files that need a server option (Restricted Mode, a display language, environment, other
// extensions) or a window of their own (`ownServer`) do not use it. MODELGATE_E2E_SHARE=0 turns it off.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, type BrowserSession } from '../harness/browser';
import { createProfile, DEFAULT_WORKSPACE_FILES, removeProfile, startServer, type RunningServer } from '../harness/code-server';
import { extensionVsix, repoRoot, toolPaths } from '../harness/paths';
import { extensionHostPids, sleep, tailOf } from '../harness/processes';
import { extensionsTemplate, withControlExtension } from './extensionTemplates';
import { cgroupCpuMs } from '../harness/cgroupCpu';
import { forgetExtensionFiles, reset, resetWorkspace, signal, userSettings, writeSettingsFile, type ResetHost } from './workbenchReset';
import { WorkbenchSession, type WorkbenchOptions } from './workbenchSession';

/** Whether a file with these options can use the shared workbench. */
export function canShare(options: WorkbenchOptions): boolean {
  if (process.env.MODELGATE_E2E_SHARE === '0') return false;
  return options.ownServer === undefined && options.trustWorkspace !== false && !options.locale && !options.env && !options.vsixes && !options.workspaceFile;
}

interface SharedHost extends ResetHost {
  browser: BrowserSession;
  /** files that used it, the one now included */
  files: number;
  /** a file held it and has not handed it back yet */
  inUse: boolean;
  /** a file failed in it: its profile and logs are kept */
  failed: boolean;
  /** the listeners of the page and the context when the harness handed them over */
  listeners: Map<object, Map<string | symbol, Set<unknown>>>;
}

interface SharedState {
  host?: SharedHost;
  starting?: Promise<SharedHost>;
}
const stateKey = Symbol.for('modelgate.e2e.sharedWorkbench');
const globals = globalThis as unknown as Record<symbol, SharedState | undefined>;
const state: SharedState = (globals[stateKey] ??= {});

const log = (line: string) => console.log(`    [e2e] ${line}`);

/**
 * The shared workbench, reset for a file with `options` (or first opened with them). Undefined
 * when it is in use (two open at once in one file): the caller opens a workbench of its own.
 */
export async function acquireSharedWorkbench(options: WorkbenchOptions): Promise<WorkbenchSession | undefined> {
  if (state.starting) await state.starting.catch(() => undefined);
  const host = state.host;
  if (host?.inUse) return undefined;
  if (!host) {
    state.starting = startShared(options);
    try {
      state.host = await state.starting;
    } finally {
      state.starting = undefined;
    }
    state.host.inUse = true;
    rememberListeners(state.host);
    return state.host.session;
  }
  host.inUse = true;
  host.files += 1;
  const t0 = Date.now();
  const cpu0 = cgroupCpuMs();
  const cpu = () => (cpu0 === undefined ? '' : `, ${((cgroupCpuMs()! - cpu0) / 1000).toFixed(1)} s of CPU`);
  try {
    await forgetFileHooks(host);
    const parts = await reset(host, options);
    log(`shared workbench reset for file ${host.files} in ${((Date.now() - t0) / 1000).toFixed(1)} s${cpu()} (wall/CPU s: ${parts})`);
  } catch (err) {
    const dir = join(repoRoot(), 'test-results', 'e2e');
    mkdirSync(dir, { recursive: true });
    const shot = join(dir, `shared-workbench-reset-failed-${process.pid}-${host.files}.png`);
    await host.session.page.screenshot({ path: shot, timeout: 10_000 }).catch(() => undefined);
    log(`shared workbench: the reset failed (${(err as Error).message.split('\n')[0]}; screenshot ${shot}); this file gets a new window on the same server`);
    try {
      await newWindow(host, options);
    } catch (again) {
      // Nothing left to share: the next file starts a new one.
      host.failed = true;
      await closeSharedWorkbench().catch(() => undefined);
      throw again;
    }
    log(`shared workbench: new window for file ${host.files} after ${((Date.now() - t0) / 1000).toFixed(1)} s${cpu()}`);
  }
  rememberListeners(host);
  return host.session;
}

/** Closes the shared workbench (the end of an e2e worker); keeps its profile when a file failed in it. */
export async function closeSharedWorkbench(): Promise<void> {
  const host = state.host;
  state.host = undefined;
  if (!host) return;
  await host.browser.close();
  await host.server.stop();
  rmSync(join(host.profile.baseDir, 'chromium-profile'), { recursive: true, force: true });
  if (host.failed || process.env.MODELGATE_KEEP_TMP === '1')
    console.log(`[e2e] shared workbench profile kept in ${host.profile.baseDir} (server log ${host.profile.serverLog})`);
  else removeProfile(host.profile);
}
(globalThis as unknown as Record<symbol, unknown>)[Symbol.for('modelgate.e2e.shutdown')] = closeSharedWorkbench;

async function startShared(options: WorkbenchOptions): Promise<SharedHost> {
  toolPaths(); // A readable error when Node 24, code-server or Chromium is missing.
  const vsix = extensionVsix();
  const template = withControlExtension(await extensionsTemplate([vsix]));
  const profile = await createProfile({ vsixes: [vsix], settings: options.settings, workspaceFiles: options.workspaceFiles, extensionsTemplate: template });
  const controlDir = join(profile.baseDir, 'control');
  mkdirSync(controlDir);
  let server: RunningServer | undefined;
  let browser: BrowserSession | undefined;
  try {
    options.prepareProfile?.(profile);
    server = await startServer(profile, { env: { MODELGATE_E2E_CONTROL_DIR: controlDir } });
    const host: SharedHost = {
      profile,
      server,
      controlDir,
      browser: undefined as unknown as BrowserSession,
      session: undefined as unknown as WorkbenchSession,
      sidebarWidth: 0,
      files: 1,
      inUse: false,
      failed: false,
      listeners: new Map(),
    };
    browser = host.browser = await launchBrowser(join(profile.baseDir, 'chromium-profile'), join(profile.baseDir, 'browser-console.log'), options.viewport);
    host.session = windowOf(host);
    await host.session.waitUntilReady(options.readyTimeoutMs ?? 120_000, Object.keys(options.workspaceFiles ?? { default: '' }).length > 0);
    host.sidebarWidth = (await host.session.page.locator('.part.sidebar').boundingBox())?.width ?? 0;
    process.on('exit', () => {
      // A process that ends without closing it (mocha run by hand): the server's group is killed by
      // the harness's exit hook and Playwright's; the profile goes unless a file failed.
      if (state.host === host && !host.failed && process.env.MODELGATE_KEEP_TMP !== '1') rmSync(profile.baseDir, { recursive: true, force: true });
    });
    return host;
  } catch (err) {
    await browser?.close();
    await server?.stop();
    throw new Error(`the shared workbench did not start: ${(err as Error).message}\nprofile kept in ${profile.baseDir}\n${tailOf(profile.serverLog, 30)}`);
  }
}

function windowOf(host: SharedHost): WorkbenchSession {
  return new WorkbenchSession(host.browser, host.server, host.profile, {
    release: async (failed) => {
      host.inUse = false;
      host.failed ||= failed;
    },
  });
}

/** Playwright's Page and BrowserContext are event emitters with Node's API (their types list only `on`/`off`). */
interface Emitter {
  eventNames(): (string | symbol)[];
  listeners(event: string | symbol): unknown[];
  off(event: string | symbol, listener: unknown): unknown;
}
const emittersOf = (host: SharedHost) => [host.session.page, host.browser.context] as unknown as Emitter[];

/** What the page and the context had listening when the file got them (the harness's own logging). */
function rememberListeners(host: SharedHost): void {
  host.listeners.clear();
  for (const emitter of emittersOf(host)) {
    const byEvent = new Map<string | symbol, Set<unknown>>();
    for (const event of emitter.eventNames()) byEvent.set(event, new Set(emitter.listeners(event)));
    host.listeners.set(emitter, byEvent);
  }
}

/** Removes what the last file added to the page and the context: listeners, routes, other pages. */
async function forgetFileHooks(host: SharedHost): Promise<void> {
  const page: Page = host.session.page;
  const context: BrowserContext = host.browser.context;
  for (const other of context.pages()) if (other !== page) await other.close().catch(() => undefined);
  for (const emitter of emittersOf(host)) {
    const kept = host.listeners.get(emitter) ?? new Map<string | symbol, Set<unknown>>();
    for (const event of emitter.eventNames())
      for (const listener of emitter.listeners(event)) if (!kept.get(event)?.has(listener)) emitter.off(event, listener);
  }
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await page.unrouteAll({ behavior: 'ignoreErrors' });
}

/** The fallback: a new browser profile and window on the same server, after the server-side reset. */
async function newWindow(host: SharedHost, options: WorkbenchOptions): Promise<void> {
  await host.browser.close();
  for (const pid of extensionHostPids(host.server.process.pid)) signal(pid, 'SIGKILL');
  await sleep(500); // the killed hosts' files are closed
  forgetExtensionFiles(host.profile);
  // The backups of unsaved editors, which a new window on the same folder would restore.
  rmSync(join(host.profile.userDataDir, 'User', 'Backups'), { recursive: true, force: true });
  writeSettingsFile(host.profile, userSettings(options));
  resetWorkspace(host.profile.workspace, options.workspaceFiles ?? DEFAULT_WORKSPACE_FILES);
  options.prepareProfile?.(host.profile);
  const browserDir = join(host.profile.baseDir, 'chromium-profile');
  rmSync(browserDir, { recursive: true, force: true });
  host.browser = await launchBrowser(browserDir, join(host.profile.baseDir, 'browser-console.log'), options.viewport);
  host.session = windowOf(host);
  await host.session.waitUntilReady(options.readyTimeoutMs ?? 120_000, Object.keys(options.workspaceFiles ?? { default: '' }).length > 0);
}
