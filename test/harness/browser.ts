// Headless Chromium (Debian's build) driven by playwright-core. The extension host of the
// VS Code server starts only when a workbench connects, so even the integration run, which
// never looks at the page, needs a browser on the workbench URL.
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { appendFileSync, mkdirSync } from 'node:fs';
import { toolPaths } from './paths';

/** Flags from the harness recipe: no sandbox (root in a container), no GPU, nothing online. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
  '--no-first-run',
  '--no-default-browser-check',
  '--password-store=basic',
  // Tests never reach past the loopback: every host name but 127.0.0.1/localhost fails to
  // resolve inside the browser, so nothing leaks out even if the workbench tries.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Launches Chromium with a fresh profile in `profileDir` and one page. Console messages and
 * page errors are appended to `consoleLog`, the first place to look when a workbench misbehaves.
 */
export async function launchBrowser(profileDir: string, consoleLog: string, viewport = { width: 1400, height: 900 }): Promise<BrowserSession> {
  const { chromium: executablePath } = toolPaths();
  mkdirSync(profileDir, { recursive: true });
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    // Nothing in the workbench or the panel animates (VS Code and chat.css follow the media
    // query): infinite animations repaint every frame in software and cost every browser CPU.
    reducedMotion: 'reduce',
    timeout: 60_000,
    // The web workbench's clipboard is the browser's: without these, writeText/readText hang
    // and the chat's Copy button could not be tested.
    permissions: ['clipboard-read', 'clipboard-write'],
    // code-server compresses every response with Brotli (its 19 MB workbench.js: 0.4-0.5 s of the
    // server's CPU per load, against 0.02-0.06 s sent as is); on loopback, plain bytes are cheaper.
    extraHTTPHeaders: { 'Accept-Encoding': 'identity' },
    // Keep Chromium out of our process group's signals; playwright closes it in close().
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const log = (line: string) => {
    try {
      appendFileSync(consoleLog, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // The profile folder may already be gone while the browser shuts down.
    }
  };
  // Loading the workbench (goto, reload) is a bound against a hang, not a speed check: 30 s, the
  // default, ran out at load 44 while the page was still coming (hostileWorkspaceFile, twoWindows).
  context.setDefaultNavigationTimeout(120_000);
  context.on('page', (p) => attachLogging(p, log));
  const page = context.pages()[0] ?? (await context.newPage());
  attachLogging(page, log);
  let closed = false;
  return {
    context,
    page,
    async close() {
      if (closed) return;
      closed = true;
      await context.close().catch(() => undefined);
    },
  };
}

function attachLogging(page: Page, log: (line: string) => void): void {
  page.on('console', (msg) => log(`[console.${msg.type()}] ${msg.text()}`));
  page.on('pageerror', (err) => log(`[pageerror] ${err.message}`));
  page.on('crash', () => log('[crash] the page crashed'));
}
