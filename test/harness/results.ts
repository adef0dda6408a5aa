// The shape the integration suite reports in, shared by the mocha entry that runs inside the
// extension host (test/integration/index.ts), the runner extension that writes it to a file,
// and the launcher that reads it. Types only: no runtime code, no `vscode` import.

export type TestState = 'passed' | 'failed' | 'skipped';

export interface TestOutcome {
  /** Full title: suite titles and the test title, joined by spaces. */
  title: string;
  state: TestState;
  /** Message and stack of the failure, for failed tests and hooks. */
  error?: string;
}

export interface IntegrationResults {
  passed: number;
  failed: number;
  skipped: number;
  failures: { title: string; error: string }[];
  tests: TestOutcome[];
  /** `vscode.version` of the extension host the suite ran in. */
  vscodeVersion: string;
  /** `vscode.env.appName` / `vscode.env.uiKind` (1 desktop, 2 web) / `vscode.workspace.isTrusted`. */
  appName: string;
  uiKind: number;
  workspaceTrusted: boolean;
  /** The compiled suite files that were loaded, relative to the integration folder. */
  files: string[];
}

/** Which suites a run loads: *.untrusted.test.js need a workspace without trust. */
export type SuiteFilter = 'trusted' | 'untrusted' | 'all';

/** Environment variables the launcher sets for the extension host. */
export const ENV = {
  /** Absolute path of out/test/integration/index.js. */
  entry: 'MODELGATE_TEST_ENTRY',
  /** File that receives the IntegrationResults JSON. */
  results: 'MODELGATE_TEST_RESULTS',
  /** SuiteFilter for this run. */
  filter: 'MODELGATE_TEST_FILTER',
  /** Optional mocha --grep for local iteration. */
  grep: 'MODELGATE_TEST_GREP',
} as const;
