// Mocha entry for the integration suites, which run inside a real VS Code extension host.
// Two launchers use it:
//  - @vscode/test-electron (desktop VS Code) calls `run()` through --extensionTestsPath;
//  - on this project's machines the VS Code server cannot take --extensionTestsPath, so the
//    test-runner extension (test/harness/runner-extension) calls `runWithResults()`.
// Every compiled *.test.js under this folder is loaded. Suites named *.untrusted.test.ts need a
// workspace in Restricted Mode and run in a separate session (filter 'untrusted').
// Before the first suite, the state the extension's activation left is recorded (startState.ts),
// so that no suite depends on running first.
import Mocha from 'mocha';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import * as vscode from 'vscode';
import { ENV, type IntegrationResults, type SuiteFilter, type TestOutcome } from '../harness/results';
import { recordStartState } from './startState';

export interface RunOptions {
  /** Which suites to load; default from MODELGATE_TEST_FILTER, else 'trusted'. */
  filter?: SuiteFilter;
  /** Only tests whose full title matches (mocha --grep). */
  grep?: string;
  /** Called after each test (and failed hook) finishes. */
  onTest?: (outcome: TestOutcome) => void;
  /** Called when a test starts, so that a launcher can name the test that hangs. */
  onTestBegin?: (title: string) => void;
}

/**
 * Suites that run first, in this order; the others follow by name. Activation checks what the
 * extension builds before anything used it. The endurance suite compares handles and heap with a
 * baseline of its own and fills the store with 60 conversations (it starts from an empty store and
 * puts the old one back): it costs less where the extension host holds little of other suites'
 * state (35 s of CPU second in the session, 61 s after thirty suites).
 */
const EARLY = ['activation.test.js', 'endurance.test.js'];

function suiteFiles(dir: string, filter: SuiteFilter): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.test.js')) found.push(p);
    }
  };
  walk(dir);
  const untrusted = (p: string) => p.endsWith('.untrusted.test.js');
  const rank = (p: string) => {
    const i = EARLY.indexOf(basename(p));
    return i < 0 ? EARLY.length : i;
  };
  // a stable sort: the rest keep their name order
  return found.filter((p) => (filter === 'all' ? true : filter === 'untrusted' ? untrusted(p) : !untrusted(p))).sort((a, b) => rank(a) - rank(b));
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}

/** Runs the suites and resolves with the counts; never rejects because a test failed. */
export async function runWithResults(options: RunOptions = {}): Promise<IntegrationResults> {
  const filter = options.filter ?? (process.env[ENV.filter] as SuiteFilter | undefined) ?? 'trusted';
  const files = suiteFiles(__dirname, filter);
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: 'spec' });
  if (options.grep) mocha.grep(options.grep);
  for (const f of files) mocha.addFile(f);

  // What activation left behind, before any suite touches the extension (activation.test.ts).
  await recordStartState('modelgate.modelgate');

  const tests: TestOutcome[] = [];
  const record = (outcome: TestOutcome) => {
    tests.push(outcome);
    options.onTest?.(outcome);
  };
  await new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run(() => resolve());
      runner.on('test', (t) => options.onTestBegin?.(t.fullTitle()));
      runner.on('pass', (t) => record({ title: t.fullTitle(), state: 'passed' }));
      runner.on('pending', (t) => record({ title: t.fullTitle(), state: 'skipped' }));
      // 'fail' is emitted for failed tests and failed hooks; a failed hook counts as a failure.
      runner.on('fail', (t, err) => record({ title: t.fullTitle(), state: 'failed', error: errorText(err) }));
    } catch (err) {
      // A suite that throws while loading (syntax error, bad import) lands here.
      reject(err);
    }
  });

  const failed = tests.filter((t) => t.state === 'failed');
  return {
    passed: tests.filter((t) => t.state === 'passed').length,
    failed: failed.length,
    skipped: tests.filter((t) => t.state === 'skipped').length,
    failures: failed.map((t) => ({ title: t.title, error: t.error ?? '' })),
    tests,
    vscodeVersion: vscode.version,
    appName: vscode.env.appName,
    uiKind: vscode.env.uiKind,
    workspaceTrusted: vscode.workspace.isTrusted,
    files: files.map((f) => relative(__dirname, f)),
  };
}

/** The entry @vscode/test-electron expects: resolves when every test passed, rejects otherwise. */
export async function run(): Promise<void> {
  const results = await runWithResults();
  const resultsFile = process.env[ENV.results];
  if (resultsFile) writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  console.log(`[modelgate] integration: ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped in VS Code ${results.vscodeVersion}`);
  if (results.failed > 0) throw new Error(`${results.failed} integration test(s) failed`);
  if (results.passed + results.failed === 0) throw new Error('no integration tests ran');
}
