// Headless Chromium (Debian's build) driven by playwright-core. The extension host of the
// VS Code server starts only when a workbench connects, so even the integration run, which
// never looks at the page, needs a browser on the workbench URL.
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { appendFileSync, mkdirSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { toolPaths } from './paths';
import { spawnGroup, type GroupProcess } from './processes';

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

/**
 * Headless Chromium showing `url`, with no automation attached: for a page that nobody drives (the
 * integration sessions' workbench, whose extension host runs the suite itself). Playwright's
 * connection costs CPU in the browser and in this process for every event it reports, and a
 * workbench reports many (each websocket frame to and from its server, every console message):
 * in the endurance suite alone 229 s of CPU against 270 s (docs/performance.md). The browser
 * writes the page's console to `logFile` itself.
 *
 * The one thing the page needs from outside is what launchBrowser grants: the clipboard of its
 * origin (VS Code's clipboard in the web is the browser's). That goes over the DevTools protocol
 * on a pipe (--remote-debugging-pipe), where the grant lasts as long as the connection: it stays
 * open, and with no domain enabled on it the browser sends nothing.
 */
/**
 * The integration pages draw a frame only when asked, every FRAME_MS (Chromium's begin-frame
 * control, frames asked for over the DevTools pipe, with no display update). Nobody looks at those
 * pages, and the software rendering of up to 60 frames a second was most of their CPU (the
 * completions suite alone: 78 s of CPU before, 42 s after). Animation frames still come, so the
 * workbench and the panel's webview, which lay out and batch on them, work as before, only at
 * 10 frames a second. MODELGATE_BEGIN_FRAMES=0 draws as a normal page does.
 */
const FRAME_MS = 100;

export async function launchPlainBrowser(url: string, profileDir: string, logFile: string, viewport = { width: 1400, height: 900 }): Promise<GroupProcess> {
  const { chromium: executable } = toolPaths();
  mkdirSync(profileDir, { recursive: true });
  const frameMs = Number(process.env.MODELGATE_BEGIN_FRAMES ?? FRAME_MS);
  const args = [
    ...CHROMIUM_ARGS,
    `--user-data-dir=${profileDir}`,
    `--window-size=${viewport.width},${viewport.height}`,
    // as Playwright's reducedMotion: 'reduce' (see launchBrowser)
    '--force-prefers-reduced-motion',
    '--remote-debugging-pipe',
    ...(frameMs > 0 ? ['--enable-begin-frame-control', '--run-all-compositor-stages-before-draw'] : [url]),
  ];
  // chromium-headless-shell is headless by itself; Debian's chromium (the fallback) is told so.
  if (!/headless-shell/.test(executable)) args.unshift('--headless');
  const browser = spawnGroup(executable, args, { logFile, pipes: 2 });
  const [toBrowser, fromBrowser] = [browser.child.stdio[3] as Writable, browser.child.stdio[4] as Readable];
  // Messages are JSON, each ended by a NUL byte.
  const waiting = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();
  let text = '';
  fromBrowser.setEncoding('utf8');
  fromBrowser.on('data', (chunk: string) => {
    text += chunk;
    for (let end = text.indexOf('\0'); end >= 0; end = text.indexOf('\0')) {
      const message = JSON.parse(text.slice(0, end)) as { id?: number; result?: unknown; error?: { message: string } };
      text = text.slice(end + 1);
      const w = message.id === undefined ? undefined : waiting.get(message.id);
      if (!w) continue;
      waiting.delete(message.id!);
      if (message.error) w.reject(new Error(message.error.message));
      else w.resolve(message.result);
    }
  });
  // Node opens both extra stdio entries as duplex sockets: when Chromium goes, either may report
  // ECONNRESET or EPIPE, and one with no listener would take this whole process down with it.
  for (const end of [toBrowser, fromBrowser]) end.on('error', (err) => waiting.forEach((w) => w.reject(err)));
  void browser.exited.then((code) => waiting.forEach((w) => w.reject(new Error(`the browser exited (${code}) before it answered`))));
  let nextId = 0;
  const send = <T>(method: string, params: object, sessionId?: string) =>
    new Promise<T>((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve: resolve as (r: unknown) => void, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  const origin = new URL(url).origin;
  try {
    await send('Browser.grantPermissions', { origin, permissions: ['clipboardReadWrite', 'clipboardSanitizedWrite'] });
  } catch (err) {
    await browser.stop();
    throw new Error(`the browser did not grant the clipboard to ${origin}: ${(err as Error).message}`);
  }
  if (frameMs > 0) {
    const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url, enableBeginFrameControl: true });
    const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    const pump = () => {
      if (browser.hasExited()) return;
      send('HeadlessExperimental.beginFrame', { noDisplayUpdates: true }, sessionId).then(
        () => setTimeout(pump, frameMs).unref(),
        // a page with no frames would still pass most tests, for the wrong reasons: say so
        (err: Error) => {
          if (!browser.hasExited()) appendFileSync(logFile, `${new Date().toISOString()} [harness] no more frames: ${err.message}\n`);
        },
      );
    };
    pump();
  }
  // The pipes must not keep this process alive once the browser is no longer needed.
  (toBrowser as Writable & { unref?: () => void }).unref?.();
  (fromBrowser as Readable & { unref?: () => void }).unref?.();
  return browser;
}

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
  const frameMs = Number(process.env.MODELGATE_E2E_FRAMES ?? 0);
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: true,
    args: frameMs > 0 ? [...CHROMIUM_ARGS, '--enable-begin-frame-control', '--run-all-compositor-stages-before-draw'] : CHROMIUM_ARGS,
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
  const pumped = new WeakSet<Page>();
  const pumpFrames = (p: Page) => {
    if (frameMs <= 0 || pumped.has(p)) return;
    pumped.add(p);
    void context.newCDPSession(p).then(
      (cdp) => {
        const pump = () => {
          if (p.isClosed()) return;
          cdp.send('HeadlessExperimental.beginFrame', {}).then(
            () => setTimeout(pump, frameMs).unref(),
            (err: Error) => !p.isClosed() && log(`[harness] no more frames: ${err.message}`),
          );
        };
        pump();
      },
      (err: Error) => log(`[harness] no frames for a page: ${err.message}`),
    );
  };
  context.on('page', (p) => {
    attachLogging(p, log);
    pumpFrames(p);
  });
  const page = context.pages()[0] ?? (await context.newPage());
  attachLogging(page, log);
  pumpFrames(page);
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
