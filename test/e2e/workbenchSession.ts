// One VS Code window of the e2e harness: the Playwright page of a real VS Code 1.139 web workbench
// (code-server) with the packaged Modelgate extension, and the helpers the tests drive it with
// (see the API at the top of workbench.ts). Plain Node: the e2e layer is mocha, not Playwright's runner.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import type { BrowserSession } from '../harness/browser';
import { removeProfile, type Profile, type RunningServer } from '../harness/code-server';
import { fillField, waitForKeyboardFocus } from './typing';

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
  /**
   * Runs after the profile (its installed extensions included) is made, before the server starts.
   * In the workbench that files share it runs before the file's reset ends: it may write the user
   * data folder (profile.userDataDir) only; a file that changes the installed extensions needs `ownServer`.
   */
  prepareProfile?: (profile: Profile) => void;
  /**
   * A .code-workspace file of the workspace folder (path relative to it) that the window opens
   * (`/?workspace=`) instead of the folder (`/?folder=`).
   */
  workspaceFile?: string;
  /**
   * Why this file needs a VS Code server and window of its own instead of the workbench the e2e
   * files of one worker share (a server option, a window that loads another way). Files that set
   * trustWorkspace: false, locale, env, vsixes or workspaceFile get their own anyway.
   */
  ownServer?: string;
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
  /**
   * stores `key` with Modelgate: Set API Key (`command`: its title in the palette, translated in a
   * display language) and waits until the status bar shows a stored key; `prompt` gets the prompt's text
   */
  setKey(key: string, options?: { command?: string; prompt?: (text: string) => void }): Promise<void>;
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

export class WorkbenchSession implements Workbench {
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
    private readonly lifetime: {
      /** a second window of the same server: close() closes only its page */
      secondary?: boolean;
      /** the shared workbench: close() hands it back for the next file instead of closing it */
      release?: (failed: boolean) => Promise<void>;
      /** the URL the window opens (default: the server's workbench on the profile's folder) */
      url?: string;
    } = {},
  ) {
    this.page = browser.page;
    this.origin = server.origin;
    this.url = lifetime.url ?? server.workbenchUrl;
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
    // Tried until a bound, not a count of tries: on a loaded machine (load 25 beside a CI run) four
    // tries of 17 s each were not enough for a palette that opened once the machine let it.
    const deadline = Date.now() + 120_000;
    for (;;) {
      await this.page.keyboard.press('Escape'); // Close whatever quick input is open.
      await this.page.keyboard.press('F1');
      // Ready when it shows, takes text and holds the keyboard focus (what F1 gives it).
      const ready = await input
        .waitFor({ state: 'visible', timeout: 10_000 })
        .then(() => input.isEditable({ timeout: 2_000 }))
        .then((editable) => editable && waitForKeyboardFocus(input, 5_000))
        .catch(() => false);
      if (ready) return input;
      if (Date.now() > deadline) throw new Error('the command palette did not open (F1) or stayed inert for 2 minutes');
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
   * Rows are read only while the palette holds exactly the query: a focus change can cut the
   * typed query short or send it elsewhere, and the rows are then those of another query.
   */
  private async searchPalette(query: string, expect: string | undefined, timeoutMs: number): Promise<{ labels: string[]; found?: Locator }> {
    const deadline = Date.now() + timeoutMs;
    const typed = `>${query}`;
    let labels: string[] = [];
    for (;;) {
      const input = await this.openPalette();
      // A page that takes the focus as it opens (the walkthrough) can close the palette again.
      if (
        !(await fillField(input, typed, { timeoutMs: 5_000, attempts: 2 }).then(
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
        const rows = await this.quickInputItems();
        if ((await input.inputValue({ timeout: 2_000 }).catch(() => undefined)) !== typed) break; // closed or typed into: again
        labels = rows;
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

  async setKey(key: string, options: { command?: string; prompt?: (text: string) => void } = {}): Promise<void> {
    // Right after a cold Open Chat, the command focuses the panel once more when its page is
    // ready; on a loaded machine that can land after the key's input box opened, and the box
    // loses the focus to the panel's message box (or closes with it). Then ask again, as a person would.
    for (let attempt = 0; ; attempt++) {
      await this.runCommand(options.command ?? 'Modelgate: Set API Key');
      const prompt = options.prompt ? await this.page.locator(QUICK_INPUT).innerText() : '';
      const typed = await this.answerInput(key).then(
        () => true,
        (err: unknown) => {
          if (attempt >= 2) throw err;
          return false;
        },
      );
      if (typed) {
        // the prompt that took the key (a box that lost the focus may show stale text)
        options.prompt?.(prompt);
        break;
      }
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
      const opened = await fillField(input, fileName, { timeoutMs: 10_000, attempts: 2 })
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
    // Waiting for an entry: as long as runCommand waits (the window learns an extension's commands
    // a while after it shows; with several workbenches starting on two cores, over 30 s).
    const { labels } = await this.searchPalette(query, options.expect, options.timeoutMs ?? (options.expect !== undefined ? 90_000 : 30_000));
    await this.page.keyboard.press('Escape');
    return labels;
  }

  async answerInput(text: string, options: { timeoutMs?: number } = {}): Promise<void> {
    const input = this.page.locator(`${QUICK_INPUT} .quick-input-box input`);
    await input.waitFor({ state: 'visible', timeout: options.timeoutMs ?? 10_000 });
    // The box takes the keyboard focus as it opens: typed before that, the text went elsewhere.
    if (!(await waitForKeyboardFocus(input, options.timeoutMs ?? 10_000))) throw new Error('the input box showed without the keyboard focus');
    await fillField(input, text, { timeoutMs: options.timeoutMs ?? 10_000 });
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
    const second = new WorkbenchSession({ context: this.browser.context, page, close: () => page.close() }, this.server, this.profile, { secondary: true });
    await second.waitUntilReady(options.readyTimeoutMs ?? 120_000, true);
    return second;
  }

  async close(): Promise<void> {
    if (this.lifetime.release) {
      const failed = this.failed;
      this.failed = false;
      return this.lifetime.release(failed);
    }
    if (this.closed) return;
    this.closed = true;
    if (this.lifetime.secondary) return this.browser.close(); // only this window's page
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
