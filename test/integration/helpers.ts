// Shared helpers of the integration suites (not a suite itself: index.ts loads *.test.js only).
//
//   const mg = useModelgate({ key: KEY, settings: { 'chat.model': 'flagship-text' }, chat: true });
//   ... mg.api (what activate() returned), mg.gw (the gateway simulator)
//
// registers the suite's `before` (simulator, user settings, activation, key, chat) and `after`
// (chat idle, key cleared, the settings put back as they were, simulator closed).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import type { ModelgateApi } from '../../src/extension';
import { startGateway, type GatewayOptions, type RunningGateway } from '../gateway/index';

/** Appends a question and its answer to a stored conversation (shared with the unit suites). */
export { addTurn } from '../unit/helpers';

export const EXTENSION_ID = 'modelgate.modelgate';

/** the extension's settings (`modelgate.*`) */
export const config = () => vscode.workspace.getConfiguration('modelgate');

export interface WaitOptions {
  /** what is awaited, for the failure message */
  what: string;
  /** default 20 000 */
  timeoutMs?: number;
  /** default 50 */
  intervalMs?: number;
}

/** Polls `check` until it returns something truthy (returned), or fails the test after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, options: WaitOptions): Promise<T> {
  const { what, timeoutMs = 20_000, intervalMs = 50 } = options;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** waitFor, the short form: `until(check, what, ms?)` */
export function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, ms = 20_000): Promise<T> {
  return waitFor(check, { what, timeoutMs: ms });
}

/**
 * An absence over time: fails as soon as `happened` returns true, passes once `forMs` went by
 * without it. For what cannot be awaited (something that must NOT happen); pair it with a
 * positive control that shows the same `happened` does turn true when the thing happens.
 */
export async function staysFalse(happened: () => boolean | Promise<boolean>, options: { forMs: number; what: string; intervalMs?: number }): Promise<void> {
  const end = Date.now() + options.forMs;
  for (;;) {
    assert.equal(await happened(), false, options.what);
    if (Date.now() >= end) return;
    await new Promise((r) => setTimeout(r, Math.min(options.intervalMs ?? 20, Math.max(1, end - Date.now()))));
  }
}

/** The chat panel's controller, as activate() hands it to the tests. */
type PanelController = ModelgateApi['chat']['controller'];
/** A message of the panel's open conversation, as the view gets it. */
export type PanelMessage = Awaited<ReturnType<PanelController['conversation']>>['messages'][number];
/** An answer of the panel's conversation. */
export type AnswerView = Extract<PanelMessage, { role: 'assistant' }>;

/** The open conversation's last message, which must be an answer (the test fails otherwise). */
export async function lastAssistant(chat: PanelController): Promise<AnswerView> {
  const m = (await chat.conversation()).messages.at(-1);
  assert.ok(m && m.role === 'assistant', 'the last message is an answer');
  return m;
}

/** The text of an answer, its text parts joined ('' for a user message or none). */
export const answerText = (m: PanelMessage | undefined): string =>
  m && m.role === 'assistant' ? m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('') : '';

/**
 * Reverts every unsaved document (a dirty one would make "close all" ask to save, a modal dialog
 * the tests cannot answer), then closes every editor: the next test starts from the files on disk.
 */
export async function revertAndCloseAllEditors(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/**
 * The newest Modelgate.log of this VS Code (the file behind the extension's LogOutputChannel),
 * found from the extension's storage; undefined when there is none.
 */
export function modelgateLogFile(api: ModelgateApi): string | undefined {
  // <user-data>/User/globalStorage/modelgate.modelgate/chat -> <user-data>/logs/<session>/exthost*/modelgate.modelgate/Modelgate.log
  const userData = path.resolve(api.chat.storageUri.fsPath, '..', '..', '..', '..');
  const logs = path.join(userData, 'logs');
  if (!fs.existsSync(logs)) return undefined;
  const found: { file: string; mtime: number }[] = [];
  for (const session of fs.readdirSync(logs)) {
    const dir = path.join(logs, session);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const host of fs.readdirSync(dir).filter((n) => n.startsWith('exthost'))) {
      const f = path.join(dir, host, 'modelgate.modelgate', 'Modelgate.log');
      if (fs.existsSync(f)) found.push({ file: f, mtime: fs.statSync(f).mtimeMs });
    }
  }
  return found.sort((a, b) => b.mtime - a.mtime)[0]?.file;
}

export interface ModelgateSetup {
  /** options of the gateway simulator the suite gets (default {}), or false for none */
  gateway?: GatewayOptions | false;
  /**
   * `modelgate.*` user settings of the suite, written before activation. `baseUrl` is the
   * simulator's unless given. The suite starts once the extension host has them all (and the
   * extension took the base URL); they are put back as they were after the suite. A function
   * gets the simulator first (for settings that name its URL, e.g. a proxy's routing header).
   */
  settings?: Record<string, unknown> | ((gw: RunningGateway | undefined) => Record<string, unknown>);
  /** further `modelgate.*` settings the tests change: put back as they were after the suite */
  restores?: string[];
  /** stored with `modelgate.setApiKey` once the settings are applied */
  key?: string;
  /** clear the key after the suite (default: when `key` is given) */
  clearKey?: boolean;
  /** what else must hold before the suite starts (e.g. the catalogue has the suite's prices) */
  ready?: (api: ModelgateApi, gw: RunningGateway | undefined) => boolean;
  /** builds the chat feature and waits for its controller (`api.chat.controller.ready`) */
  chat?: boolean;
  /** the suite is skipped unless this holds (e.g. the host has vscode.lm) */
  requires?: () => boolean;
  /** runs first in the suite's `after`, while the simulator and the settings are still there */
  cleanup?: () => unknown;
}

export interface Modelgate {
  /** what the extension's activate() returned */
  readonly api: ModelgateApi;
  /** the gateway simulator (throws when the suite has none) */
  readonly gw: RunningGateway;
}

/** The set-up of a suite that drives the installed extension: see the top of this file. */
export function useModelgate(setup: ModelgateSetup = {}): Modelgate {
  let api: ModelgateApi | undefined;
  let gw: RunningGateway | undefined;
  const previous = new Map<string, unknown>();

  before(async function () {
    if (setup.requires && !setup.requires()) this.skip();
    if (setup.gateway !== false) gw = await startGateway(setup.gateway ?? {});
    const own = typeof setup.settings === 'function' ? setup.settings(gw) : setup.settings;
    const settings: Record<string, unknown> = { ...(gw ? { baseUrl: gw.baseUrl } : {}), ...own };
    for (const k of new Set([...Object.keys(settings), ...(setup.restores ?? [])])) previous.set(k, config().inspect(k)?.globalValue);
    for (const [k, v] of Object.entries(settings)) await config().update(k, v, vscode.ConfigurationTarget.Global);
    const ext = vscode.extensions.getExtension<ModelgateApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    const activated = await ext.activate();
    api = activated;
    // The extension host swaps its configuration and fires the change (the extension re-reads its
    // settings then) in one go: once it shows every value, the extension has read them too.
    await waitFor(
      () =>
        Object.entries(settings).every(([k, v]) => isDeepStrictEqual(config().inspect(k)?.globalValue, v)) &&
        (typeof settings.baseUrl !== 'string' || activated.settings().baseUrl === settings.baseUrl) &&
        (setup.ready?.(activated, gw) ?? true),
      { what: `the settings of the suite (${Object.keys(settings).join(', ')})${setup.ready ? ' and its ready condition' : ''}` },
    );
    if (setup.key !== undefined) await vscode.commands.executeCommand('modelgate.setApiKey', setup.key);
    if (setup.chat) await activated.chat.controller.ready;
  });

  after(async () => {
    try {
      if (api) {
        await setup.cleanup?.();
        // A test that failed while an answer streamed must not leave it running into the next suite.
        if (api.loadedFeatures().some((f) => f.feature === 'chat')) {
          const chat = api.chat.controller;
          if (chat.busy) chat.stop();
          await chat.whenIdle();
        }
        // The key is stored per gateway origin: clear it while the base URL is still this suite's.
        if (setup.clearKey ?? setup.key !== undefined) await vscode.commands.executeCommand('modelgate.clearApiKey');
      }
      for (const [k, v] of previous) await config().update(k, v, vscode.ConfigurationTarget.Global);
    } finally {
      await gw?.close();
    }
  });

  return {
    get api() {
      if (!api) throw new Error('the extension is not activated (did the before hook fail?)');
      return api;
    },
    get gw() {
      if (!gw) throw new Error('the suite has no gateway simulator (or the before hook failed)');
      return gw;
    },
  };
}

/**
 * Gives the suite a chat history of its own: before it, the stored conversations are set aside,
 * the folder emptied and `fill` given it to write into; after it, the history it found is put
 * back. The chat is closed before and reloaded after each swap. Register it after useModelgate:
 * its hooks then run inside the suite's set-up and before its tear-down's end.
 */
export function useOwnChatHistory(mg: Modelgate, fill?: (dir: string) => void): { readonly dir: string } {
  let dir: string | undefined;
  let backup: string | undefined;
  before(async () => {
    await mg.api.chat.controller.whenIdle();
    await mg.api.chat.controller.close();
    dir = mg.api.chat.storageUri.fsPath;
    backup = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-chat-history-backup-'));
    if (fs.existsSync(dir)) fs.cpSync(dir, backup, { recursive: true });
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fill?.(dir);
    await mg.api.chat.reload();
  });
  after(async () => {
    if (!dir || !backup) return;
    await mg.api.chat.controller.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.cpSync(backup, dir, { recursive: true });
    fs.rmSync(backup, { recursive: true, force: true });
    await mg.api.chat.reload();
  });
  return {
    get dir() {
      if (!dir) throw new Error('the chat history folder is not set yet (did the before hook run?)');
      return dir;
    },
  };
}
