// The reset of the workbench that the e2e files of a worker share (sharedWorkbench.ts): what puts
// a window that other files used back in the state a fresh one has, and the e2e control extension
// (test/harness/control-extension) that does the parts only an extension host can do. The order of
// the steps, and why, is at reset() below.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { cgroupCpuMs } from '../harness/cgroupCpu';
import { BASE_USER_SETTINGS, DEFAULT_WORKSPACE_FILES, TEST_ONLY_USER_SETTINGS, writeWorkspace, type Profile, type RunningServer } from '../harness/code-server';
import { extensionHostPids, sleep, waitFor } from '../harness/processes';
import type { WorkbenchOptions, WorkbenchSession } from './workbenchSession';

const DEFAULT_VIEWPORT = { width: 1400, height: 900 };
/** Context keys the Modelgate extension sets (src/onboarding, src/chat/apply): a fresh window has none. */
const MODELGATE_CONTEXT_KEYS = [
  'modelgate.hasBaseUrl',
  'modelgate.hasKey',
  'modelgate.firstAnswer',
  'modelgate.firstImage',
  'modelgate.pickedModel',
  'modelgate.applyDiffActive',
  'modelgate.applyPending',
];
/**
 * Keys of the window's profile storage (IndexedDB `vscode-web-state-db-global`, mirrored in memory
 * by the workbench) that hold the Modelgate extension's globalState and the walkthrough's progress.
 */
const GLOBAL_STORAGE_KEYS = ['modelgate.modelgate', 'memento/gettingStartedService'];

/** What the reset needs of the shared workbench. */
export interface ResetHost {
  profile: Profile;
  server: RunningServer;
  session: WorkbenchSession;
  controlDir: string;
  /** the side bar's width in a fresh window (measured in the first one) */
  sidebarWidth: number;
}

const log = (line: string) => console.log(`    [e2e] ${line}`);

interface ControlHost {
  pid: number;
  port: number;
  at: number;
}

export function userSettings(options: WorkbenchOptions): Record<string, unknown> {
  return { ...BASE_USER_SETTINGS, ...TEST_ONLY_USER_SETTINGS, ...options.settings };
}

// ---------- the control extension (test/harness/control-extension) ----------

/**
 * Whether `pid` is a live extension host of the server `root`: its command line and its line of
 * parents, not a scan of every process (about 6 ms of CPU per scan on a quiet machine, more in a
 * test run, and the waits below poll four times a second). A host killed since is gone, or a
 * zombie with an empty command line; pids are reused (pid_max is often 32768), hence the parents.
 */
export function isExtensionHostOf(pid: number, root: number): boolean {
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('extensionHost')) return false;
    for (let p = pid, n = 0; p > 1 && n < 20; n++) {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      p = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (p === root) return true;
    }
  } catch {
    // gone while we looked
  }
  return false;
}

function controlHosts(host: ResetHost): ControlHost[] {
  const hosts: ControlHost[] = [];
  for (const name of readdirSync(host.controlDir)) {
    try {
      const h = JSON.parse(readFileSync(join(host.controlDir, name), 'utf8')) as ControlHost;
      if (isExtensionHostOf(h.pid, host.server.process.pid)) hosts.push(h);
    } catch {
      // being written
    }
  }
  return hosts.sort((a, b) => b.at - a.at);
}

/** The window's extension host (the newest one that runs the control extension). */
function currentControl(host: ResetHost, timeoutMs = 60_000, not?: number): Promise<ControlHost> {
  return waitFor(
    not === undefined ? 'the control extension in the extension host' : 'a restarted extension host',
    () => controlHosts(host).find((h) => h.pid !== not),
    { timeoutMs, intervalMs: 200, abort: () => host.server.deathReason() },
  );
}

function control<T>(target: ControlHost, body: object, timeoutMs = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: target.port, method: 'POST', path: '/', timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        try {
          const answer = JSON.parse(text) as { ok: boolean; result?: T; error?: string };
          if (answer.ok) resolve(answer.result as T);
          else reject(new Error(`control ${JSON.stringify(body)}: ${answer.error}`));
        } catch (err) {
          reject(err as Error);
        }
      });
    });
    req.once('timeout', () => req.destroy(new Error(`control ${JSON.stringify(body)}: no answer in ${timeoutMs / 1000} s`)));
    req.once('error', reject);
    req.end(JSON.stringify(body));
  });
}

interface HostState {
  pid: number;
  tabs: string[];
  dirty: string[];
  colorThemeKind: number;
  folders: string[];
}

// ---------- the reset ----------

function readSettingsFile(profile: Profile): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(join(profile.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return {}; // being rewritten by the workbench: its keys are written anew anyway
  }
}

export function writeSettingsFile(profile: Profile, settings: Record<string, unknown>): void {
  writeFileSync(join(profile.userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
}

/** Runs in the workbench page: removes `keys` from the profile storage and tells the workbench (its cache). */
async function forgetStorageKeys(keys: string[]): Promise<number> {
  const name = 'vscode-web-state-db-global';
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  let found = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('ItemTable', 'readwrite');
      const store = tx.objectStore('ItemTable');
      for (const key of keys) {
        const r = store.count(key);
        r.onsuccess = () => (found += r.result);
        store.delete(key);
      }
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
  // The workbench keeps the storage in memory; it drops what another window says was deleted.
  const channel = new BroadcastChannel(name);
  channel.postMessage({ deleted: new Set(keys) });
  channel.close();
  return found;
}

export function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}

/** Empties the workspace folder and writes `files` into it. */
export function resetWorkspace(dir: string, files: Record<string, string>): void {
  for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
  writeWorkspace(dir, files);
}

/** The Modelgate extension's files on disk: its chat store (globalStorage) and its edit checkpoints (workspaceStorage). */
export function forgetExtensionFiles(profile: Profile): void {
  rmSync(join(profile.userDataDir, 'User', 'globalStorage', 'modelgate.modelgate'), { recursive: true, force: true });
  const workspaces = join(profile.userDataDir, 'User', 'workspaceStorage');
  if (existsSync(workspaces)) for (const w of readdirSync(workspaces)) rmSync(join(workspaces, w, 'modelgate.modelgate'), { recursive: true, force: true });
  rmSync(join(profile.userDataDir, 'User', 'mcp.json'), { force: true });
}

/**
 * Waits for the extension host that VS Code starts after the old one was killed. VS Code restarts
 * a killed remote host by itself twice in 5 minutes; after that it asks, in a notification whose
 * button restarts it: pressed here.
 */
async function restartedHost(host: ResetHost, old: number): Promise<ControlHost> {
  const page = host.session.page;
  const restart = page.locator('.notifications-toasts .notification-toast').getByRole('button', { name: /Restart/ });
  return waitFor(
    'a restarted extension host',
    async () => {
      const fresh = controlHosts(host).find((h) => h.pid !== old);
      if (fresh) return fresh;
      if (await restart.count().catch(() => 0))
        await restart
          .first()
          .click({ timeout: 5_000 })
          .catch(() => undefined);
      return undefined;
    },
    { timeoutMs: 120_000, intervalMs: 250, abort: () => host.server.deathReason() },
  );
}

/**
 * The reset (see the top of this file). The order matters: the old extension host does the UI
 * part and must see the new settings before it goes (so that the renderer hands them to the next
 * one); it is then frozen (SIGSTOP), so that nothing it holds is written back while its state is
 * removed, and killed; VS Code starts a new one, which reads the emptied state.
 */
export async function reset(host: ResetHost, options: WorkbenchOptions): Promise<string> {
  const page = host.session.page;
  // What each part took (wall and CPU), for the log line.
  const parts: string[] = [];
  let mark = { at: Date.now(), cpu: cgroupCpuMs() };
  const done = (what: string) => {
    const now = { at: Date.now(), cpu: cgroupCpuMs() };
    const cpu = now.cpu !== undefined && mark.cpu !== undefined ? `/${((now.cpu - mark.cpu) / 1000).toFixed(1)}` : '';
    parts.push(`${what} ${((now.at - mark.at) / 1000).toFixed(1)}${cpu}`);
    mark = now;
  };
  for (let i = 0; i < 2; i++) await page.keyboard.press('Escape');
  const old = await currentControl(host);
  // Keys are kept per gateway origin: the last file's, while its base URL is still set.
  await control(old, { op: 'command', command: 'modelgate.clearApiKey' }).catch(() => undefined);
  const uiCall = control<{ failed: string[]; slow: string[] }>(old, { op: 'resetUi', contextKeys: MODELGATE_CONTEXT_KEYS }, 120_000);
  // An editor the last file left unsaved that the revert did not reach asks "Save?" on close: not saved.
  await answerDontSave(page, uiCall);
  const ui = await uiCall;
  if (ui.slow.length) log(`shared workbench: slow steps of the window's reset: ${ui.slow.join('; ')}`);
  if (ui.failed.length) throw new Error(`the window's reset: ${ui.failed.join('; ')}`);
  // Clear Editor History asks first (a modal): answered here.
  const cleared = control(old, { op: 'command', command: 'workbench.action.clearEditorHistory' }, 60_000);
  await page.locator('.monaco-dialog-box').getByRole('button', { name: 'Clear', exact: true }).click({ timeout: 30_000 });
  await cleared;
  done('ui');

  // This file's settings, and none of the last file's besides. The harness's own keys keep the value
  // VS Code may have migrated them to (extensions.autoUpdate false -> "off"): no file changes them.
  const current = readSettingsFile(host.profile);
  const settings = userSettings(options);
  for (const key of Object.keys({ ...BASE_USER_SETTINGS, ...TEST_ONLY_USER_SETTINGS }))
    if (!(key in (options.settings ?? {})) && key in current) settings[key] = current[key];
  const unwritten = await control<string[]>(old, { op: 'settings', settings, remove: Object.keys(current) }, 60_000);
  if (unwritten.length) throw new Error(`settings not written: ${unwritten.join('; ')}`);
  done('settings');

  const hosts = extensionHostPids(host.server.process.pid);
  for (const pid of hosts) signal(pid, 'SIGSTOP');
  await page.evaluate(forgetStorageKeys, GLOBAL_STORAGE_KEYS);
  forgetExtensionFiles(host.profile);
  resetWorkspace(host.profile.workspace, options.workspaceFiles ?? DEFAULT_WORKSPACE_FILES);
  options.prepareProfile?.(host.profile);
  for (const pid of hosts) signal(pid, 'SIGKILL');
  done('state');

  const fresh = await restartedHost(host, old.pid);
  done('new host');
  // A first start: Modelgate opens its walkthrough unless its globalState says it did.
  await page.locator('.tabs-container .tab', { hasText: 'Welcome' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await control(fresh, { op: 'command', command: 'notifications.clearAll' });
  done('walkthrough');

  // A viewport set to the size it has already lays the whole workbench out again.
  const viewport = options.viewport ?? DEFAULT_VIEWPORT;
  const now = page.viewportSize();
  if (now?.width !== viewport.width || now?.height !== viewport.height) await page.setViewportSize(viewport);
  await sidebarWidth(page, host.sidebarWidth);
  const theme = await control<HostState>(fresh, { op: 'state' });
  const themeClass = ['', 'vs', 'vs-dark', 'hc-black', 'hc-light'][theme.colorThemeKind] ?? 'vs-dark';
  await page.locator(`.monaco-workbench.${themeClass}`).waitFor({ state: 'attached', timeout: 30_000 });
  done('layout');
  return parts.join(', ');
}

/** Answers every "Do you want to save" dialog with Don't Save until `until` settles. */
async function answerDontSave(page: Page, until: Promise<unknown>): Promise<void> {
  let settled = false;
  void until.then(
    () => (settled = true),
    () => (settled = true),
  );
  const dontSave = page.locator('.monaco-dialog-box').getByRole('button', { name: "Don't Save", exact: true });
  while (!settled) {
    if (await dontSave.isVisible().catch(() => false)) {
      await dontSave.click({ timeout: 5_000 }).catch(() => undefined);
      log("shared workbench: an unsaved editor of the last file asked to be saved: Don't Save");
    } else await sleep(250);
  }
}

/** Drags the side bar's sash until the side bar is `width` px wide (as a fresh window has it). */
async function sidebarWidth(page: Page, width: number): Promise<void> {
  const sidebar = page.locator('.part.sidebar');
  for (let attempt = 0; attempt < 3; attempt++) {
    const box = await sidebar.boundingBox();
    if (!box || Math.abs(box.width - width) <= 1) return;
    await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + width + 1, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
  }
  const box = await sidebar.boundingBox();
  if (box && Math.abs(box.width - width) > 2) throw new Error(`the side bar is ${box.width} px wide, not ${width}`);
}
