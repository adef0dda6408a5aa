// A test-only extension installed beside the packaged Modelgate extension. The VS Code server
// cannot load a suite through --extensionTestsPath, so this extension does that job: on
// startup it requires the compiled mocha entry named by MODELGATE_TEST_ENTRY, runs it in this
// extension host and writes the results JSON to MODELGATE_TEST_RESULTS. Progress (one JSON
// line per suite start and end and per test start and end, with the time each took) goes to
// `<results>.progress` so the launcher can show it live; a suite's start and end carry the CPU time
// of the stage's cgroup (test/harness/cgroupCpu.ts), so the launcher can say what each suite cost.
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { cgroupCpuMs } from '../cgroupCpu';
import { ENV, type IntegrationResults, type SuiteFilter, type TestOutcome } from '../results';

interface IntegrationEntry {
  runWithResults(options: {
    filter?: SuiteFilter;
    grep?: string;
    onTest?: (t: TestOutcome) => void;
    onTestBegin?: (title: string) => void;
  }): Promise<IntegrationResults>;
}

let started = false;

/**
 * Tools this extension contributes (package.json `languageModelTools`) for the panel's suite of
 * tools from VS Code (test/integration/vscodeTools.test.ts): `read_file` is named like Modelgate's
 * own tool and must never replace it; `mgtest_throws` throws, which must reach the model as a tool
 * error.
 */
function registerTestTools(): void {
  vscode.lm.registerTool<{ path?: string }>('read_file', {
    invoke: (options) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`runner read_file of ${options.input.path ?? ''}`)]),
  });
  vscode.lm.registerTool<{ text?: string }>('mgtest_throws', {
    invoke: (options) => {
      throw new Error(`mgtest_throws broke on purpose (${options.input.text ?? ''})`);
    },
  });
}

export function activate(): void {
  try {
    registerTestTools();
  } catch {
    // a host without vscode.lm.registerTool: the suite that uses them skips
  }
  const entry = process.env[ENV.entry];
  const resultsFile = process.env[ENV.results];
  if (!entry || !resultsFile || started) return;
  started = true;
  // Do not hold up activation: the suite runs for minutes.
  setTimeout(() => void runSuite(entry, resultsFile), 0);
}

async function runSuite(entry: string, resultsFile: string): Promise<void> {
  const progressFile = `${resultsFile}.progress`;
  const note = (line: object) => {
    try {
      appendFileSync(progressFile, JSON.stringify(line) + '\n');
    } catch {
      // Progress is a convenience; the results file is what counts.
    }
  };
  note({ event: 'started', vscodeVersion: vscode.version, trusted: vscode.workspace.isTrusted });
  watchSuites(entry, note);
  const began = new Map<string, number>();
  let results: IntegrationResults;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const suite = require(entry) as IntegrationEntry;
    results = await suite.runWithResults({
      filter: (process.env[ENV.filter] as SuiteFilter | undefined) ?? 'trusted',
      grep: process.env[ENV.grep] || undefined,
      onTest: (t) => {
        const t0 = began.get(t.title);
        began.delete(t.title);
        note({ event: 'test', ...t, ms: t0 === undefined ? undefined : Date.now() - t0 });
      },
      onTestBegin: (title) => {
        began.set(title, Date.now());
        note({ event: 'begin', title });
      },
    });
  } catch (err) {
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    results = {
      passed: 0,
      failed: 1,
      skipped: 0,
      failures: [{ title: `loading or running ${entry}`, error }],
      tests: [],
      vscodeVersion: vscode.version,
      appName: vscode.env.appName,
      uiKind: vscode.env.uiKind,
      workspaceTrusted: vscode.workspace.isTrusted,
      files: [],
    };
  }
  // Write then rename: the launcher never reads a half-written file.
  writeFileSync(`${resultsFile}.tmp`, JSON.stringify(results, null, 2));
  renameSync(`${resultsFile}.tmp`, resultsFile);
}

/**
 * Notes each suite's start and end (title, depth, counts are the launcher's job). The entry runs
 * the mocha that its own folder resolves; its Runner is the one patched here, so the launcher's
 * progress shows when each suite started and how long it took without the entry's help.
 */
function watchSuites(entry: string, note: (line: object) => void): void {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Mocha = require(require.resolve('mocha', { paths: [dirname(entry)] })) as typeof import('mocha');
    const run = Mocha.prototype.run;
    Mocha.prototype.run = function (this: import('mocha'), ...args: Parameters<typeof run>) {
      const runner = run.apply(this, args);
      const depth = (s: import('mocha').Suite) => {
        let d = 0;
        for (let p = s.parent; p; p = p.parent) d += 1;
        return d;
      };
      runner.on('suite', (s) => {
        if (!s.root) note({ event: 'suite', title: s.title, depth: depth(s), cpuMs: cgroupCpuMs() });
      });
      runner.on('suite end', (s) => {
        if (!s.root) note({ event: 'suite end', title: s.title, depth: depth(s), cpuMs: cgroupCpuMs() });
      });
      // Set-up and tear-down cost as much as tests do in some suites: hooks of a second or more
      // are noted with their time and the stage's CPU meanwhile.
      const hookStart = new Map<import('mocha').Hook, { at: number; cpuMs: number | undefined }>();
      runner.on('hook', (h) => hookStart.set(h, { at: Date.now(), cpuMs: cgroupCpuMs() }));
      runner.on('hook end', (h) => {
        const start = hookStart.get(h);
        hookStart.delete(h);
        if (!start || Date.now() - start.at < 1000) return;
        const cpuMs = cgroupCpuMs();
        note({
          event: 'hook',
          title: h.fullTitle(),
          ms: Date.now() - start.at,
          cpuMs: start.cpuMs === undefined || cpuMs === undefined ? undefined : cpuMs - start.cpuMs,
        });
      });
      return runner;
    };
  } catch {
    // Timings per suite are a convenience.
  }
}

export function deactivate(): void {}
