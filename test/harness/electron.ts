// The integration layer on a machine with a desktop VS Code: @vscode/test-electron downloads
// it (from Microsoft's update servers, so not on this project's offline machines), loads the
// extension from the repository with --extensionDevelopmentPath and the mocha entry with
// --extensionTestsPath. Selected with MODELGATE_VSCODE=electron; same suites, same results file.
// Each session gets a fresh user profile (--user-data-dir) with the user settings of the
// code-server route's profiles and the test MCP server in its `User/mcp.json` (test/harness/mcp.ts).
import { runTests } from '@vscode/test-electron';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_USER_SETTINGS, DEFAULT_WORKSPACE_FILES, writeWorkspace } from './code-server';
import { writeTestMcpConfig } from './mcp';
import { ENV, type IntegrationResults, type SuiteFilter } from './results';

export interface ElectronSession {
  name: 'trusted' | 'untrusted';
  filter: SuiteFilter;
  trust: boolean;
}

export async function runWithElectron(
  root: string,
  entry: string,
  sessions: ElectronSession[],
): Promise<{ session: ElectronSession; results?: IntegrationResults; error?: string }[]> {
  const outcomes: { session: ElectronSession; results?: IntegrationResults; error?: string }[] = [];
  for (const session of sessions) {
    const dir = mkdtempSync(join(tmpdir(), `modelgate-electron-${session.name}-`));
    const workspace = join(dir, 'workspace');
    writeWorkspace(workspace, DEFAULT_WORKSPACE_FILES);
    const userDataDir = join(dir, 'user-data');
    mkdirSync(join(userDataDir, 'User'), { recursive: true });
    writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(BASE_USER_SETTINGS, null, 2));
    // the user's MCP servers: the test server, whose tools the panel's suite offers (test/integration/vscodeTools.test.ts)
    writeTestMcpConfig(userDataDir);
    const resultsFile = join(dir, 'results.json');
    let error: string | undefined;
    try {
      await runTests({
        // The same VS Code as the code-server route, unless asked for another.
        version: process.env.MODELGATE_VSCODE_VERSION ?? '1.139.1',
        extensionDevelopmentPath: root,
        extensionTestsPath: entry,
        launchArgs: [workspace, `--user-data-dir=${userDataDir}`, '--disable-extensions', ...(session.trust ? ['--disable-workspace-trust'] : [])],
        extensionTestsEnv: { [ENV.results]: resultsFile, [ENV.filter]: session.filter, [ENV.grep]: process.env.MODELGATE_TEST_GREP ?? '' },
      });
    } catch (err) {
      // runTests rejects when a test failed as well as when VS Code could not start; the
      // results file tells the two apart.
      error = (err as Error).message;
    }
    if (existsSync(resultsFile)) {
      outcomes.push({ session, results: JSON.parse(readFileSync(resultsFile, 'utf8')) as IntegrationResults });
    } else {
      outcomes.push({ session, error: error ?? 'VS Code exited without writing results' });
    }
  }
  return outcomes;
}
