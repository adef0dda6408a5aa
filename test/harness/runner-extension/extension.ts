// A test-only extension installed beside the packaged Modelgate extension. The VS Code server
// cannot load a suite through --extensionTestsPath, so this extension does that job: on
// startup it requires the compiled mocha entry named by MODELGATE_TEST_ENTRY, runs it in this
// extension host and writes the results JSON to MODELGATE_TEST_RESULTS. Progress (one JSON
// line per finished test) goes to `<results>.progress` so the launcher can show it live.
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
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

export function activate(): void {
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
  let results: IntegrationResults;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const suite = require(entry) as IntegrationEntry;
    results = await suite.runWithResults({
      filter: (process.env[ENV.filter] as SuiteFilter | undefined) ?? 'trusted',
      grep: process.env[ENV.grep] || undefined,
      onTest: (t) => note({ event: 'test', ...t }),
      onTestBegin: (title) => note({ event: 'begin', title }),
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

export function deactivate(): void {}
