// A bench figure measured by an integration test in the real VS Code: the tests matching `grep` run
// in an integration session of their own (build, package, one extension host) and write
// test-results/<file>; `reuseEnv`=1 reads the last run's file instead of running again.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { figure } from './report';

export function integrationBenchResult<T>(o: {
  /** the file the test writes under test-results/ */
  file: string;
  /** MODELGATE_TEST_GREP for the session */
  grep: string;
  reuseEnv: string;
  env?: Record<string, string>;
  /** the figure that says there are no figures, and why */
  missing: { name: string; unit: string; note: string };
}): T | undefined {
  const file = join(process.cwd(), 'test-results', o.file);
  if (process.env[o.reuseEnv] !== '1') {
    rmSync(file, { force: true });
    try {
      execFileSync(process.execPath, ['test/run-all.mjs'], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          ...process.env,
          MODELGATE_SKIP: 'typecheck,lint,unit,e2e,install',
          MODELGATE_INTEGRATION_RUNS: 'trusted',
          MODELGATE_TEST_GREP: o.grep,
          ...o.env,
        },
      });
    } catch {
      // reported below: no figures (or the last ones, if the suite failed after writing them)
    }
  }
  if (!existsSync(file)) {
    figure({ name: o.missing.name, value: NaN, unit: o.missing.unit, note: o.missing.note });
    return undefined;
  }
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}
