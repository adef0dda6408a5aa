// Packages test/harness/runner-extension as a .vsix with vsce, the same tool that packages
// the extension itself, so the VS Code server installs it the ordinary way.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';
import { runLogged } from './processes';

/** Builds the runner extension's .vsix in `workDir` and returns its path. */
export async function buildRunnerVsix(workDir: string, root = repoRoot()): Promise<string> {
  const compiled = join(root, 'out/harness/runner-extension/extension.js');
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run \`node esbuild.mjs --tests\` first`);
  const stage = join(workDir, 'runner-extension');
  mkdirSync(stage, { recursive: true });
  copyFileSync(join(root, 'test/harness/runner-extension/package.json'), join(stage, 'package.json'));
  copyFileSync(compiled, join(stage, 'extension.js'));
  writeFileSync(join(stage, 'README.md'), '# Modelgate test runner\n\nRuns the integration suite inside the extension host. Test use only.\n');
  writeFileSync(join(stage, 'LICENSE'), 'MIT\n');
  const vsix = join(workDir, 'modelgate-test-runner.vsix');
  await runLogged(
    process.execPath,
    [join(root, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix],
    {
      cwd: stage,
      logFile: join(workDir, 'runner-vsce.log'),
      timeoutMs: 60_000,
      what: 'packaging the test-runner extension',
    },
  );
  return vsix;
}
