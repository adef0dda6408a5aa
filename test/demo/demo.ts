// `npm start` (after test/demo/start.mjs has installed and built what is missing): the gateway
// simulator, a real VS Code 1.139 web workbench (code-server) with the packaged extension and the
// demo seeder installed, user settings pointing at the simulator, and a sample workspace. Prints
// one `Open http://127.0.0.1:PORT/...` line once the workbench and the simulator both answer.
// Everything listens on 127.0.0.1. SIGINT/SIGTERM stop the server's whole process group and the
// in-process simulator; nothing is left running.
//
// The profile lives in <repo>/.vscode-test/demo (git-ignored; MODELGATE_DEMO_DIR overrides) and
// is reused: a second run installs the extensions again only when a .vsix changed.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { join, sep } from 'node:path';
import { BASE_USER_SETTINGS, installExtensions, profileFolders, startServer, writeWorkspace, type RunningServer } from '../harness/code-server';
import { extensionVsix, repoRoot, toolPaths } from '../harness/paths';
import { runLogged, waitFor } from '../harness/processes';
import { startGateway, type RunningGateway } from '../gateway/index';
import { DEMO_BALANCE_USD, DEMO_KEY, demoModelSettings } from '../gateway/demo-key';
import { CONSOLE_PATH } from '../gateway/console-page';
import { resetSample } from './sampleReset';

/** The sample workspace (test/demo/sample, also the F5 launch's folder), as relative path -> text. */
function sampleWorkspace(root: string): Record<string, string> {
  const dir = join(root, 'test/demo/sample');
  const files: Record<string, string> = {};
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = join(dir, rel);
    if (statSync(file).isFile()) files[rel.split(sep).join('/')] = readFileSync(file, 'utf8');
  }
  return files;
}

const say = (line: string) => process.stderr.write(`[demo] ${line}\n`);

function httpStatus(url: string, headers: Record<string, string> = {}): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = get(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.setTimeout(2000, () => req.destroy());
    req.once('error', () => resolve(undefined));
  });
}

/** Whether nothing listens on 127.0.0.1:`port` now. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

const hashOf = (files: string[]) => {
  const h = createHash('sha256');
  for (const f of files) h.update(readFileSync(f));
  return h.digest('hex');
};

/** Packages the demo seeder (built by `node esbuild.mjs --demo`) with vsce, like the test runner. */
async function seederVsix(root: string, workDir: string): Promise<string> {
  const compiled = join(root, 'out/demo/seed-extension/extension.js');
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run \`node esbuild.mjs --demo\` first`);
  const stage = join(workDir, 'seed-extension');
  mkdirSync(stage, { recursive: true });
  const vsix = join(workDir, 'modelgate-demo-seeder.vsix');
  const stamp = join(workDir, 'seed-extension.hash');
  const sources = [join(root, 'test/demo/seed-extension/package.json'), compiled];
  const hash = hashOf(sources);
  if (existsSync(vsix) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return vsix;
  copyFileSync(sources[0], join(stage, 'package.json'));
  copyFileSync(compiled, join(stage, 'extension.js'));
  writeFileSync(join(stage, 'README.md'), '# Modelgate demo seeder\n\nStores the simulator demo key. `npm start` only.\n');
  writeFileSync(join(stage, 'LICENSE'), 'MIT\n');
  await runLogged(
    process.execPath,
    [join(root, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix],
    {
      cwd: stage,
      logFile: join(workDir, 'seeder-vsce.log'),
      timeoutMs: 120_000,
      what: 'packaging the demo seeder',
    },
  );
  writeFileSync(stamp, hash);
  return vsix;
}

export async function main(): Promise<void> {
  const root = repoRoot();
  const tools = toolPaths();
  const baseDir = process.env.MODELGATE_DEMO_DIR ?? join(root, '.vscode-test/demo');
  mkdirSync(baseDir, { recursive: true });

  let gateway: RunningGateway | undefined;
  let server: RunningServer | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping');
    await server?.process.stop(3000).catch(() => undefined);
    await gateway?.close().catch(() => undefined);
    process.exit(code);
  };
  // Registered before anything starts: a Ctrl+C during start-up also cleans up.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal === 'SIGINT' ? 130 : 143));

  const profile = await profileFolders(baseDir);
  rmSync(profile.serverLog, { force: true });
  if (!existsSync(join(profile.workspace, 'README.md'))) writeWorkspace(profile.workspace, sampleWorkspace(root));
  else {
    // as shipped on every run: a fix accepted last time would make the scripted answer propose it again
    const aside = join(baseDir, 'sample-changes', new Date().toISOString().replace(/[:.]/g, '-'));
    const { changed } = resetSample(profile.workspace, sampleWorkspace(root), aside);
    if (changed.length) say(`the sample workspace is as shipped again (${changed.join(', ')} had changes; kept in ${aside})`);
  }

  // Extensions: install again only when one of the packages changed since the last run.
  const vsixes = [extensionVsix(root), await seederVsix(root, baseDir)];
  const stamp = join(baseDir, 'extensions.hash');
  const hash = hashOf(vsixes);
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash || !existsSync(profile.extensionsDir)) {
    say('installing the extension into VS Code');
    rmSync(profile.extensionsDir, { recursive: true, force: true });
    await installExtensions(profile, vsixes, tools);
    writeFileSync(stamp, hash);
  }

  // demo: the scripted answers about the sample workspace and the console page "Top up" opens
  gateway = await startGateway({
    port: 0,
    imagePort: 0,
    keys: { [DEMO_KEY]: { balance: DEMO_BALANCE_USD } },
    latency: 'realistic',
    failures: false,
    demo: true,
  });
  say(`gateway simulator at ${gateway.baseUrl} (demo key ${DEMO_KEY}, balance $${DEMO_BALANCE_USD})`);

  // User settings are rewritten on every run: the simulator's port changes.
  const settingsFile = join(profile.userDataDir, 'User', 'settings.json');
  let previous: Record<string, unknown> = {};
  try {
    previous = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  } catch {
    // First run, or a file the user broke: start over.
  }
  writeFileSync(
    settingsFile,
    JSON.stringify(
      {
        ...BASE_USER_SETTINGS,
        ...previous,
        'git.openRepositoryInParentFolders': 'never',
        'modelgate.baseUrl': gateway.baseUrl,
        'modelgate.models': demoModelSettings(),
        // the simulator's console page (test/gateway/console-page.ts): "Top up" works end to end
        'modelgate.consoleUrl': `${gateway.baseUrl.replace(/\/v1$/, '')}${CONSOLE_PATH}`,
      },
      null,
      2,
    ),
  );

  // The same port as last time when it is free: the web workbench keeps its state (the
  // walkthrough's ticked steps, what it has shown) in the browser, per origin, so a new port
  // every run forgot it all.
  const portFile = join(baseDir, 'workbench-port');
  const saved = existsSync(portFile) ? Number(readFileSync(portFile, 'utf8').trim()) : NaN;
  const lastPort = Number.isInteger(saved) && saved > 1024 && saved < 65536 && (await portIsFree(saved)) ? saved : undefined;
  server = await startServer(profile, { trustWorkspace: true, startTimeoutMs: 120_000, ...(lastPort ? { port: lastPort } : {}) }, tools);
  writeFileSync(portFile, String(server.port));
  const baseUrl = gateway.baseUrl;
  await waitFor(
    'the simulator to answer GET /models',
    async () => ((await httpStatus(`${baseUrl}/models`, { authorization: `Bearer ${DEMO_KEY}` })) === 200 ? true : undefined),
    { timeoutMs: 10_000 },
  );
  await waitFor('the workbench page', async () => ((await httpStatus(server!.workbenchUrl)) === 200 ? true : undefined), {
    timeoutMs: 60_000,
    abort: server.deathReason,
  });
  say(`VS Code server log: ${profile.serverLog}; Ctrl+C stops everything`);
  process.stdout.write(`Open ${server.workbenchUrl}\n`);
  const code = await server.process.exited;
  if (!stopping) {
    say(`the VS Code server exited (${code}); see ${profile.serverLog}`);
    await stop(1);
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`[demo] could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
