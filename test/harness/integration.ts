// Launcher of the integration layer: `node out/harness/integration.js`.
//
// Default route (this project's machines, no desktop VS Code): install the packaged extension
// (dist-vsix/modelgate.vsix) and the test-runner extension into a fresh profile of code-server
// 4.139.1 (VS Code 1.139.1), start it on loopback, open the workbench in headless Chromium so
// that the extension host starts, and wait for the runner extension to write the results of
// out/test/integration/index.js. Suites named *.untrusted.test.ts run in a second session
// without --disable-workspace-trust, so the folder is in Restricted Mode. The sessions run side by
// side, each with its own profile, server and browser.
//
// MODELGATE_VSCODE=electron uses @vscode/test-electron instead (needs a desktop VS Code download).
//
// Knobs: MODELGATE_TEST_GREP (mocha grep), MODELGATE_INTEGRATION_RUNS=trusted,untrusted,
// MODELGATE_INTEGRATION_TIMEOUT_S (default 1800), MODELGATE_KEEP_TMP=1 (keep profiles),
// MODELGATE_INTEGRATION_APART=endurance (trusted suites that get a session of their own; default none),
// MODELGATE_INTEGRATION_SERIAL=1 (one session after the other, the trusted suites in one),
// MODELGATE_COUNTS_FILE (where `npm test` collects the counts).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { launchBrowser, launchPlainBrowser, type BrowserSession } from './browser';
import { createProfile, startServer, type RunningServer } from './code-server';
import { runWithElectron } from './electron';
import { extensionVsix, repoRoot, toolPaths } from './paths';
import { tailOf, waitFor, type GroupProcess } from './processes';
import { ENV, type IntegrationResults, type SuiteFilter } from './results';
import { installRunnerExtension } from './runner-install';
import { writeTestMcpConfig } from './mcp';

interface Session {
  name: 'trusted' | 'untrusted';
  filter: SuiteFilter;
  trust: boolean;
  /** Only the tests whose full title matches (mocha --grep); default MODELGATE_TEST_GREP. */
  grep?: string;
  /** The suite this session runs apart from the others of its trust state (its own VS Code). */
  apart?: string;
}

/**
 * User settings of the integration profiles only: the editor does no work for a reader, since
 * nobody looks at these pages (TypeScript's syntax server alone is in every test profile:
 * TEST_ONLY_USER_SETTINGS). No minimap (drawn on a canvas in software for every editor change), no
 * occurrence highlights, light bulbs, code lenses or breadcrumbs (each a request to the language
 * servers on every cursor move or edit).
 */
const INTEGRATION_USER_SETTINGS: Readonly<Record<string, unknown>> = {
  'editor.minimap.enabled': false,
  'editor.occurrencesHighlight': 'off',
  'editor.lightbulb.enabled': 'off',
  'editor.codeLens': false,
  'breadcrumbs.enabled': false,
};

const sessionId = (s: Session) => (s.apart ? `${s.name}-${s.apart.replace(/\W+/g, '-')}` : s.name);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Suites of the trusted session that run in a VS Code of their own, beside it, when
 * MODELGATE_INTEGRATION_APART names them: top-level suite titles up to the first space
 * ("endurance"; comma-separated); not when MODELGATE_TEST_GREP picks the tests. None by default:
 * on 2 cores a session of its own costs a VS Code start (about 19 s of CPU) and, beside the others
 * and the e2e workers, more contention than the wall time it saves.
 */
function splitTrusted(trusted: Session): Session[] {
  if (process.env.MODELGATE_TEST_GREP) return [trusted];
  const apart = (process.env.MODELGATE_INTEGRATION_APART ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (!apart.length) return [trusted];
  const titles = apart.map((t) => `${escapeRegExp(t)} `);
  return [{ ...trusted, grep: `^(?!${titles.join('|')})` }, ...apart.map((t, i) => ({ ...trusted, grep: `^${titles[i]}`, apart: t }))];
}

interface SessionOutcome {
  session: Session;
  results?: IntegrationResults;
  /** What the progress file showed when a session broke off before writing its results. */
  partial?: { passed: number; failed: number; skipped: number };
  error?: string;
  /** How long each test took (from the progress file). */
  times?: TestTime[];
}

const log = (line: string, say: (line: string) => void = console.log) => say(`[integration] ${line}`);

function findFiles(dir: string, test: (name: string) => boolean): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findFiles(p, test));
    else if (test(name)) out.push(p);
  }
  return out;
}

interface TestTime {
  title: string;
  ms: number;
  /** a set-up or tear-down hook, not a test */
  hook?: boolean;
}

const clock = () => new Date().toISOString().slice(11, 19);

/**
 * Prints the progress lines the runner extension appended since the last call (each suite with
 * the clock time it started, and its duration and counts when it ends; each test with its time
 * when slow), and keeps the title of the test that is running (`running`), for the error message
 * when a session hangs. `say` prints one line (with the session's name when sessions run side by side).
 */
function progressPrinter(
  file: string,
  since: number,
  say: (line: string) => void,
): {
  print(): void;
  running(): string | undefined;
  tally: { passed: number; failed: number; skipped: number };
  times: TestTime[];
  suiteCpu: { title: string; cpuMs: number; ms: number }[];
} {
  let offset = 0;
  let partial = '';
  let current: string | undefined;
  const tally = { passed: 0, failed: 0, skipped: 0 };
  const times: TestTime[] = [];
  const open: { title: string; t0: number; cpu0?: number; passed: number; failed: number; skipped: number }[] = [];
  /** Top-level suites with the stage's CPU while each ran (where the runner could read it). */
  const suiteCpu: { title: string; cpuMs: number; ms: number }[] = [];
  const indent = () => '  '.repeat(open.length);
  const print = () => {
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    if (text.length <= offset) return;
    partial += text.slice(offset);
    offset = text.length;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        const ev = JSON.parse(line) as {
          event: string;
          title?: string;
          state?: string;
          ms?: number;
          cpuMs?: number;
          vscodeVersion?: string;
          trusted?: boolean;
        };
        if (ev.event === 'begin') current = ev.title;
        else if (ev.event === 'test') {
          current = undefined;
          if (ev.state === 'passed' || ev.state === 'failed' || ev.state === 'skipped') {
            tally[ev.state] += 1;
            for (const o of open) o[ev.state] += 1;
          }
          if (ev.title && typeof ev.ms === 'number') times.push({ title: ev.title, ms: ev.ms });
        }
        if (ev.event === 'started')
          log(`suite started in VS Code ${ev.vscodeVersion} (workspace trusted: ${ev.trusted}) after ${((Date.now() - since) / 1000).toFixed(1)} s`, say);
        else if (ev.event === 'suite') {
          say(`${indent()}${clock()} ${ev.title}`);
          open.push({ title: ev.title ?? '', t0: Date.now(), cpu0: ev.cpuMs, passed: 0, failed: 0, skipped: 0 });
        } else if (ev.event === 'suite end') {
          const o = open.pop();
          const cpuMs = o?.cpu0 !== undefined && ev.cpuMs !== undefined ? ev.cpuMs - o.cpu0 : undefined;
          if (o && cpuMs !== undefined && !open.length) suiteCpu.push({ title: o.title, cpuMs, ms: Date.now() - o.t0 });
          if (o)
            say(
              `${indent()}${clock()} ${((Date.now() - o.t0) / 1000).toFixed(1)} s${cpuMs !== undefined ? ` (${(cpuMs / 1000).toFixed(1)} s CPU)` : ''}, ${o.passed} passed, ${o.failed} failed${o.skipped ? `, ${o.skipped} skipped` : ''}`,
            );
        } else if (ev.event === 'hook' && ev.title && typeof ev.ms === 'number') {
          times.push({ title: ev.title, ms: ev.ms, hook: true });
          const cpu = ev.cpuMs !== undefined ? `, ${(ev.cpuMs / 1000).toFixed(1)} s CPU` : '';
          say(`${indent()}  ⚙ ${ev.title.slice(ev.title.indexOf('"'))} (${(ev.ms / 1000).toFixed(1)} s${cpu})`);
        } else if (ev.event === 'test') {
          const mark = ev.state === 'passed' ? '✓' : ev.state === 'failed' ? '✗' : '-';
          // The suites are on the lines above: the test's own title is enough.
          const suites = `${open.map((o) => o.title).join(' ')} `;
          const title = open.length && ev.title?.startsWith(suites) ? ev.title.slice(suites.length) : ev.title;
          const ms = typeof ev.ms === 'number' && ev.ms >= 1000 ? ` (${(ev.ms / 1000).toFixed(1)} s)` : '';
          say(`${indent()}  ${mark} ${title}${ev.state === 'skipped' ? ' (skipped)' : ms}`);
        }
      } catch {
        // A torn line: ignore it, the results file has the truth.
      }
    }
  };
  return { print, running: () => current, tally, times, suiteCpu };
}

/**
 * One session: a fresh profile (its extensions copied from `extensionsTemplate`), a server, a
 * browser, until the runner extension writes the results. `tag`
 * goes in front of every line it prints (sessions run side by side).
 */
async function runSession(session: Session, workDir: string, vsixes: string[], entry: string, extensionsTemplate: string, tag = ''): Promise<SessionOutcome> {
  const timeoutMs = Number(process.env.MODELGATE_INTEGRATION_TIMEOUT_S ?? 1800) * 1000; // under the stage's 35 minutes in npm test
  const started = Date.now();
  const say = (text: string) => {
    for (const line of text.split('\n')) console.log(`${tag}${line}`);
  };
  const log = (line: string) => say(`[integration] ${line}`);
  log(`session '${sessionId(session)}': preparing a fresh profile (workspace trust ${session.trust ? 'disabled' : 'enabled: Restricted Mode'})`);
  const profile = await createProfile({ baseDir: join(workDir, sessionId(session)), vsixes, extensionsTemplate, settings: { ...INTEGRATION_USER_SETTINGS } });
  // the user's MCP servers: the test server, whose tools the panel's suite offers (test/integration/vscodeTools.test.ts)
  writeTestMcpConfig(profile.userDataDir);
  const resultsFile = join(profile.baseDir, 'results.json');
  const progressFile = `${resultsFile}.progress`;
  const consoleLog = join(profile.baseDir, 'browser-console.log');
  let server: RunningServer | undefined;
  let browser: BrowserSession | undefined;
  let plainBrowser: GroupProcess | undefined;
  let pageCrashed = false;
  const outcome: SessionOutcome = { session };
  try {
    server = await startServer(profile, {
      trustWorkspace: session.trust,
      env: {
        [ENV.entry]: entry,
        [ENV.results]: resultsFile,
        [ENV.filter]: session.filter,
        [ENV.grep]: session.grep ?? process.env.MODELGATE_TEST_GREP ?? '',
      },
    });
    log(`server up at ${server.origin} after ${((Date.now() - started) / 1000).toFixed(1)} s; opening the workbench in headless Chromium`);
    if (process.env.MODELGATE_INTEGRATION_PLAYWRIGHT === '1') {
      browser = await launchBrowser(join(profile.baseDir, 'chromium-profile'), consoleLog);
      browser.page.on('crash', () => (pageCrashed = true));
      await browser.page.goto(server.workbenchUrl, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    } else {
      // Nothing drives the page: no automation attached (see launchPlainBrowser).
      plainBrowser = await launchPlainBrowser(server.workbenchUrl, join(profile.baseDir, 'chromium-profile'), consoleLog);
    }

    const progress = progressPrinter(progressFile, started, say);
    outcome.times = progress.times;
    const running = server;
    const abort = () => {
      progress.print();
      if (plainBrowser?.hasExited()) return `the browser exited (see ${consoleLog})`;
      return running.deathReason() ?? (pageCrashed ? 'the workbench page crashed' : undefined);
    };
    // The runner announces itself as soon as the extension host activates it; if that never
    // happens the extension host did not start, and waiting the full timeout would be pointless.
    await waitFor('the test-runner extension to start in the extension host', () => (existsSync(progressFile) ? true : undefined), {
      timeoutMs: Math.min(180_000, timeoutMs),
      intervalMs: 500,
      abort,
    });
    try {
      await waitFor(`the integration results (${resultsFile})`, () => (existsSync(resultsFile) ? true : undefined), { timeoutMs, intervalMs: 500, abort });
    } catch (err) {
      const test = progress.running();
      outcome.partial = progress.tally;
      throw new Error(`${(err as Error).message}${test ? `; the test running then: '${test}'` : ''}`);
    }
    progress.print();
    outcome.results = JSON.parse(readFileSync(resultsFile, 'utf8')) as IntegrationResults;
    log(`session '${sessionId(session)}' finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const dearest = [...progress.suiteCpu].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 12);
    if (dearest.length) {
      log(
        `session '${sessionId(session)}': its dearest suites by CPU (every process of the stage while the suite ran; sessions side by side count each other):`,
      );
      for (const d of dearest) say(`  ${`${(d.cpuMs / 1000).toFixed(1)} s CPU`.padStart(13)} ${`${(d.ms / 1000).toFixed(1)} s`.padStart(9)} wall  ${d.title}`);
    }
  } catch (err) {
    outcome.error = (err as Error).message;
  } finally {
    await browser?.close();
    await plainBrowser?.stop();
    await server?.stop();
    // The browser profile is most of the folder's size and says nothing about a failure.
    rmSync(join(profile.baseDir, 'chromium-profile'), { recursive: true, force: true });
  }

  // A session that ran in the wrong trust state tests nothing it claims to test.
  const r = outcome.results;
  if (r && r.workspaceTrusted !== session.trust) {
    outcome.error = `session '${sessionId(session)}' expected a ${session.trust ? 'trusted' : 'untrusted (Restricted Mode)'} workspace but vscode.workspace.isTrusted was ${r.workspaceTrusted}`;
  }
  if (outcome.error || (r && r.failed > 0)) {
    log(`logs of session '${sessionId(session)}' kept in ${profile.baseDir} (server log: ${profile.serverLog})`);
    if (outcome.error) {
      say(tailOf(profile.serverLog, 60));
      for (const f of findFiles(join(profile.userDataDir, 'logs'), (n) => /exthost/i.test(n) && n.endsWith('.log'))) say(tailOf(f, 30));
      say(tailOf(consoleLog, 20, (line) => !/\[console\.(log|debug|info)\]/.test(line)));
    }
  }
  return outcome;
}

async function main(): Promise<number> {
  const root = repoRoot();
  const entry = join(root, 'out/test/integration/index.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`node esbuild.mjs --tests\` first`);
  const suites = findFiles(join(root, 'out/test/integration'), (name) => name.endsWith('.test.js')).sort();
  const untrustedSuites = suites.filter((s) => s.endsWith('.untrusted.test.js'));
  const trustedSuites = suites.filter((s) => !s.endsWith('.untrusted.test.js'));
  const wanted = new Set((process.env.MODELGATE_INTEGRATION_RUNS ?? 'trusted,untrusted').split(',').map((s) => s.trim()));
  let sessions: Session[] = [];
  if (wanted.has('trusted') && trustedSuites.length) sessions.push({ name: 'trusted', filter: 'trusted', trust: true });
  if (wanted.has('untrusted') && untrustedSuites.length) sessions.push({ name: 'untrusted', filter: 'untrusted', trust: false });
  log(`suites: ${suites.map((s) => relative(join(root, 'out/test/integration'), s)).join(', ') || '(none)'}`);
  if (!untrustedSuites.length) log('no *.untrusted.test.ts suites: the Restricted Mode session is skipped');

  let outcomes: SessionOutcome[];
  if (process.env.MODELGATE_VSCODE === 'electron') {
    outcomes = await runWithElectron(root, entry, sessions);
  } else {
    toolPaths(); // Fails fast, with the fix, when Node 24, code-server or Chromium is missing.
    const serial = process.env.MODELGATE_INTEGRATION_SERIAL === '1' || process.env.MODELGATE_SERIAL === '1';
    if (!serial) sessions = sessions.flatMap((s) => (s.name === 'trusted' ? splitTrusted(s) : [s]));
    const vsix = extensionVsix(root);
    const workDir = mkdtempSync(join(tmpdir(), 'modelgate-integration-'));
    log(`work folder ${workDir}; extension under test ${vsix}`);
    const vsixes = [vsix];
    // The sessions run side by side (MODELGATE_INTEGRATION_SERIAL=1: one after the other, and the
    // trusted suites in one session), each in its own profile, server and browser; the extensions
    // are installed once (the package under test, and the runner as a folder) and copied.
    const t0 = Date.now();
    const template = (await createProfile({ baseDir: join(workDir, 'extensions-template'), vsixes, workspaceFiles: {} })).extensionsDir;
    installRunnerExtension(template, root);
    log(`extensions installed once for ${sessions.length} session(s) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const width = Math.max(...sessions.map((s) => sessionId(s).length));
    const tag = (s: Session) => (sessions.length > 1 && !serial ? `${sessionId(s).padEnd(width)} | ` : '');
    if (serial) {
      outcomes = [];
      for (const session of sessions) outcomes.push(await runSession(session, workDir, vsixes, entry, template, tag(session)));
    } else {
      outcomes = await Promise.all(sessions.map((session) => runSession(session, workDir, vsixes, entry, template, tag(session))));
    }
    const allGood = outcomes.every((o) => !o.error && (o.results?.failed ?? 0) === 0);
    if (allGood && process.env.MODELGATE_KEEP_TMP !== '1') rmSync(workDir, { recursive: true, force: true });
  }
  return report(outcomes);
}

function report(outcomes: SessionOutcome[]): number {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const versions = new Set<string>();
  for (const { session, results, partial, error } of outcomes) {
    if (results) {
      passed += results.passed;
      failed += results.failed;
      skipped += results.skipped;
      versions.add(`${results.vscodeVersion} (${results.appName}, uiKind ${results.uiKind})`);
      log(
        `session '${sessionId(session)}': ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped; files: ${results.files.join(', ')}`,
      );
      if (session.apart && results.passed + results.failed + results.skipped === 0) {
        log(`WARNING: no test's title starts with '${session.apart} ' (MODELGATE_INTEGRATION_APART): nothing ran apart`);
      }
      for (const f of results.failures) console.log(`\n  FAILED: ${f.title}\n    ${f.error.split('\n').join('\n    ')}`);
    }
    if (!results && partial) {
      passed += partial.passed;
      failed += partial.failed;
      skipped += partial.skipped;
      log(`session '${sessionId(session)}' broke off after ${partial.passed} passed, ${partial.failed} failed, ${partial.skipped} skipped`);
    }
    if (error) {
      failed += 1;
      console.log(`\n  ERROR in session '${sessionId(session)}': ${error}`);
    }
  }
  log(`ran in VS Code ${[...versions].join(', ') || '(unknown: no session reported)'}`);
  const tests = outcomes.flatMap((o) => o.times ?? []);
  const counts = { passed, failed, skipped, vscodeVersion: [...versions].join(', '), tests };
  log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (process.env.MODELGATE_COUNTS_FILE) writeFileSync(process.env.MODELGATE_COUNTS_FILE, JSON.stringify(counts));
  if (passed + failed === 0) {
    log('no integration tests ran');
    return 1;
  }
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`[integration] ${err.message}`);
    if (process.env.MODELGATE_COUNTS_FILE)
      writeFileSync(process.env.MODELGATE_COUNTS_FILE, JSON.stringify({ passed: 0, failed: 1, skipped: 0, error: err.message }));
    process.exit(1);
  },
);
