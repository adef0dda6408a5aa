// Installs test/harness/runner-extension (the extension that runs the integration suite inside the
// extension host) into an extensions folder as an unpacked extension: it has nothing to package.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { installExtensionFolder } from './code-server';
import { repoRoot } from './paths';

/** Adds the runner extension to `extensionsDir`; returns its id. */
export function installRunnerExtension(extensionsDir: string, root = repoRoot()): string {
  const compiled = join(root, 'out/harness/runner-extension/extension.js');
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run \`node esbuild.mjs --tests\` first`);
  return installExtensionFolder(extensionsDir, { 'package.json': join(root, 'test/harness/runner-extension/package.json'), 'extension.js': compiled });
}
