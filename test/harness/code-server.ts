// Starts a real VS Code 1.139 (code-server's build of the VS Code server) on loopback, in a
// throw-away profile: fresh user data, extensions and workspace folders under one temp folder.
// code-server, because a desktop VS Code cannot be downloaded on the test machines (npm can
// install this build); the server ignores `--extensionDevelopmentPath`, so extensions are
// installed from .vsix files instead.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { toolPaths, type ToolPaths } from './paths';
import { freePort, runLogged, spawnGroup, tailOf, waitFor, type GroupProcess } from './processes';

/** Settings every test profile gets: nothing that reaches out, nothing that pops up. */
export const BASE_USER_SETTINGS: Readonly<Record<string, unknown>> = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  // VS Code's own chat opens in the secondary side bar on a fresh profile; keep it closed.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // Only matters when trust is enabled (the untrusted run): no modal over the workbench.
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
};

/**
 * Added for test profiles, not the demo: no animation and no blinking cursor, since each repaints
 * in software and costs CPU in every browser of a test run, and no scan for ports to forward (the
 * demo is for a person to look at and use).
 */
export const TEST_ONLY_USER_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.reduceMotion': 'on',
  'editor.cursorBlinking': 'solid',
  // Every extension host of a remote window looks for ports to forward: it runs
  // `ls -l /proc/[0-9]*/fd/[0-9]*` and reads /proc every 2 s or more, which costs more the more
  // processes the machine has (a test run has hundreds). Only the output is watched instead: an
  // idle workbench with the chat open took 1.2-1.5 s of CPU in 30 s, against 2.2-2.8 s.
  'remote.autoForwardPortsSource': 'output',
  // TypeScript's syntax server alone: no test asks for types, references or semantic errors (the
  // chat's "no problems" notice expects none), and the semantic server loads the standard library
  // for the first .ts file opened and checks every file opened or typed in after it, in a process of
  // its own. Document symbols, which Apply asks for, come from the syntax server.
  'typescript.tsserver.useSyntaxServer': 'always',
  'typescript.disableAutomaticTypeAcquisition': true,
};

/** Files of the default test workspace (workspace-relative path -> content). */
export const DEFAULT_WORKSPACE_FILES: Readonly<Record<string, string>> = {
  'README.md': '# Sample workspace\n\nA small project that the Modelgate tests run against.\n',
  'src/a.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/b.ts': "import { add } from './a';\n\nexport const three = add(1, 2);\n",
  'notes/todo.md': '- [ ] write more tests\n',
};

export interface ProfileOptions {
  /** Parent folder; a fresh temp folder by default. */
  baseDir?: string;
  /** User settings merged over BASE_USER_SETTINGS and written before the server starts. */
  settings?: Record<string, unknown>;
  /** Workspace files (relative path -> content); DEFAULT_WORKSPACE_FILES when omitted. */
  workspaceFiles?: Record<string, string>;
  /** .vsix files to install (the extension under test, the test runner, ...). */
  vsixes: string[];
  /** A prepared extensions folder to copy instead of installing `vsixes` again. */
  extensionsTemplate?: string;
}

export interface Profile {
  baseDir: string;
  userDataDir: string;
  extensionsDir: string;
  workspace: string;
  configFile: string;
  /** Temp dirs for XDG_* so code-server never writes into the real home folder. */
  xdgDir: string;
  /** TMPDIR of the server and its extension host (short path: unix sockets live there). */
  tmpDir: string;
  /** A loopback port left closed, where the extension gallery points. */
  closedPort: number;
  serverLog: string;
  installLog: string;
}

export function writeWorkspace(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = join(dir, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/**
 * An extension gallery on a loopback port nobody listens on. code-server's default gallery is
 * open-vsx.org, which the workbench queries on its own (update checks of built-in extensions);
 * tests must not reach past 127.0.0.1, and a refused loopback connection fails at once.
 */
function loopbackGallery(port: number): string {
  const base = `http://127.0.0.1:${port}`;
  return JSON.stringify({
    serviceUrl: `${base}/gallery`,
    itemUrl: `${base}/item`,
    extensionUrlTemplate: `${base}/gallery/{publisher}/{name}/latest`,
    resourceUrlTemplate: `${base}/asset/{publisher}/{name}/{version}/{path}`,
    controlUrl: '',
    recommendationsUrl: '',
  });
}

function serverEnv(profile: Profile, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    EXTENSIONS_GALLERY: loopbackGallery(profile.closedPort),
    XDG_CONFIG_HOME: join(profile.xdgDir, 'config'),
    XDG_DATA_HOME: join(profile.xdgDir, 'data'),
    XDG_CACHE_HOME: join(profile.xdgDir, 'cache'),
    // The extension host puts IPC sockets (vscode-ipc-*.sock, vscode-git-*.sock) in the temp
    // folder; a private one keeps /tmp clean and goes away with the profile.
    TMPDIR: profile.tmpDir,
    ...extra,
  };
  // npm's variables (we may run under `npm test`) would confuse code-server's own npm logic,
  // and a password in the environment would turn authentication back on.
  for (const key of Object.keys(env)) if (key.startsWith('npm_') || key === 'PASSWORD' || key === 'HASHED_PASSWORD') delete env[key];
  return env;
}

/**
 * A profile's folders under `baseDir` (created, with code-server's config file); settings, the
 * workspace's files and the extensions are the caller's. Shared by the test harness and `npm start`.
 */
export async function profileFolders(baseDir: string): Promise<Profile> {
  const profile: Profile = {
    baseDir,
    userDataDir: join(baseDir, 'user-data'),
    extensionsDir: join(baseDir, 'extensions'),
    workspace: join(baseDir, 'workspace'),
    configFile: join(baseDir, 'code-server.yaml'),
    xdgDir: join(baseDir, 'xdg'),
    tmpDir: join(baseDir, 't'),
    closedPort: await freePort(),
    serverLog: join(baseDir, 'server.log'),
    installLog: join(baseDir, 'install-extensions.log'),
  };
  for (const dir of [profile.userDataDir, join(profile.userDataDir, 'User'), profile.workspace, profile.xdgDir, profile.tmpDir])
    mkdirSync(dir, { recursive: true });
  writeFileSync(profile.configFile, 'auth: none\ncert: false\n');
  return profile;
}

/** Creates the folders, writes settings and the workspace, installs the extensions. */
export async function createProfile(opts: ProfileOptions, tools: ToolPaths = toolPaths()): Promise<Profile> {
  const profile = await profileFolders(opts.baseDir ?? mkdtempSync(join(tmpdir(), 'modelgate-vscode-')));
  writeFileSync(
    join(profile.userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...BASE_USER_SETTINGS, ...TEST_ONLY_USER_SETTINGS, ...opts.settings }, null, 2),
  );
  writeWorkspace(profile.workspace, opts.workspaceFiles ?? DEFAULT_WORKSPACE_FILES);

  if (opts.extensionsTemplate) {
    cpSync(opts.extensionsTemplate, profile.extensionsDir, { recursive: true });
  } else {
    await installExtensions(profile, opts.vsixes, tools);
  }
  return profile;
}

/** Installs .vsix files into the profile's extensions folder with code-server's own CLI. */
export async function installExtensions(profile: Profile, vsixes: string[], tools: ToolPaths = toolPaths()): Promise<void> {
  mkdirSync(profile.extensionsDir, { recursive: true });
  for (const vsix of vsixes) if (!existsSync(vsix)) throw new Error(`extension package ${vsix} does not exist`);
  const args = [
    tools.codeServerEntry,
    '--config',
    profile.configFile,
    '--user-data-dir',
    profile.userDataDir,
    '--extensions-dir',
    profile.extensionsDir,
    '--force',
  ];
  for (const vsix of vsixes) args.push('--install-extension', vsix);
  try {
    await runLogged(tools.node24, args, { env: serverEnv(profile), logFile: profile.installLog, timeoutMs: 120_000, what: `installing ${vsixes.join(', ')}` });
  } catch (err) {
    const scanning = existsSync(profile.installLog) && readFileSync(profile.installLog, 'utf8').includes('ScanningExtension');
    // VS Code rejects a manifest it cannot validate with nothing more than "Cannot read the
    // extension"; name the usual culprits so nobody has to bisect package.json.
    const hint = scanning
      ? '\nHint: VS Code could not validate the extension manifest. Known causes: a field of the wrong type in package.json (for example "browser": null; omit it instead), a missing "main" file, an invalid "engines.vscode".'
      : '';
    throw new Error(`${(err as Error).message}${hint}`);
  }
  const installed = readdirSync(profile.extensionsDir).filter((name) => !name.startsWith('.') && name !== 'extensions.json');
  if (installed.length < vsixes.length) {
    throw new Error(`installing ${vsixes.length} extension(s) left only [${installed.join(', ')}] in ${profile.extensionsDir}\n${tailOf(profile.installLog)}`);
  }
}

/**
 * Puts an unpacked extension into an extensions folder the way an install does (its folder and an
 * entry in extensions.json), without packaging it: for the test helpers (the integration runner,
 * the e2e control extension), which have nothing to package and would cost a vsce run each.
 * `files` maps a file name of the extension folder to the file to copy; package.json is one.
 */
export function installExtensionFolder(extensionsDir: string, files: Record<string, string>): string {
  const manifest = JSON.parse(readFileSync(files['package.json']!, 'utf8')) as { publisher: string; name: string; version: string };
  const id = `${manifest.publisher}.${manifest.name}`;
  const folder = `${id}-${manifest.version}`;
  mkdirSync(join(extensionsDir, folder), { recursive: true });
  for (const [name, source] of Object.entries(files)) cpSync(source, join(extensionsDir, folder, name));
  const listFile = join(extensionsDir, 'extensions.json');
  const list = existsSync(listFile) ? (JSON.parse(readFileSync(listFile, 'utf8')) as unknown[]) : [];
  list.push({
    identifier: { id },
    version: manifest.version,
    location: { $mid: 1, path: join(extensionsDir, folder), scheme: 'file' },
    relativeLocation: folder,
    metadata: { installedTimestamp: Date.now(), source: 'vsix' },
  });
  writeFileSync(listFile, JSON.stringify(list));
  return id;
}

export interface ServerOptions {
  /** false leaves Workspace Trust on: the folder opens in Restricted Mode. Default true. */
  trustWorkspace?: boolean;
  /** Extra environment for the server; it reaches the extension host's process.env. */
  env?: Record<string, string | undefined>;
  /** How long to wait for the HTTP endpoint to answer. Default 60 s. */
  startTimeoutMs?: number;
  /** --locale: the display language (vscode.env.language). */
  locale?: string;
  /** the port to try first (the demo keeps its origin from run to run); taken: a free one */
  port?: number;
}

export interface RunningServer {
  port: number;
  /** Origin of the server, e.g. http://127.0.0.1:41234 */
  origin: string;
  /** URL that opens the workbench on the profile's workspace folder. */
  workbenchUrl: string;
  process: GroupProcess;
  profile: Profile;
  /** Non-undefined once the server has died: its exit code, for error messages. */
  deathReason(): string | undefined;
  stop(): Promise<void>;
}

function httpStatus(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = get(url, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.setTimeout(2000, () => req.destroy());
    req.once('error', () => resolve(undefined));
  });
}

/**
 * Starts code-server on a free loopback port and waits until it answers HTTP. A port found free
 * can be taken by another process before code-server binds it (servers of other suites start
 * side by side): on EADDRINUSE it starts again on another port, up to three more times.
 */
export async function startServer(profile: Profile, opts: ServerOptions = {}, tools: ToolPaths = toolPaths()): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(profile, attempt === 1 ? opts : { ...opts, port: undefined }, tools);
    } catch (err) {
      if (attempt >= 4 || !/EADDRINUSE/.test((err as Error).message)) throw err;
      console.log(`[harness] port taken before code-server bound it (attempt ${attempt}); starting again on another port`);
    }
  }
}

async function startServerOnce(profile: Profile, opts: ServerOptions, tools: ToolPaths): Promise<RunningServer> {
  const port = opts.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const args = [
    tools.codeServerEntry,
    '--config',
    profile.configFile,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--user-data-dir',
    profile.userDataDir,
    '--extensions-dir',
    profile.extensionsDir,
    // Every message between the window and the server is deflated on one side and inflated on
    // the other; on loopback that is CPU for nothing: the endurance suite took 81.9/84.7 s of CPU
    // without it, 86.3/93.9 s with it (docs/performance.md).
    '--vscode-option',
    'disable-websocket-compression',
  ];
  if (opts.trustWorkspace !== false) args.push('--disable-workspace-trust');
  if (opts.locale) args.push('--locale', opts.locale);
  args.push(profile.workspace);
  const proc = spawnGroup(tools.node24, args, { cwd: profile.baseDir, env: serverEnv(profile, opts.env), logFile: profile.serverLog });
  const deathReason = () => (proc.hasExited() ? `the server exited early (see ${profile.serverLog})` : undefined);
  try {
    await waitFor('code-server to answer on ' + origin, async () => ((await httpStatus(`${origin}/healthz`)) === 200 ? true : undefined), {
      timeoutMs: opts.startTimeoutMs ?? 60_000,
      intervalMs: 300,
      abort: deathReason,
    });
  } catch (err) {
    await proc.stop();
    throw new Error(`${(err as Error).message}\n${tailOf(profile.serverLog)}`);
  }
  return {
    port,
    origin,
    workbenchUrl: `${origin}/?folder=${encodeURIComponent(profile.workspace)}`,
    process: proc,
    profile,
    deathReason,
    stop: () => proc.stop(),
  };
}

/** Removes a profile folder unless MODELGATE_KEEP_TMP=1 asks to keep it for a post-mortem. */
export function removeProfile(profile: Profile): void {
  if (process.env.MODELGATE_KEEP_TMP === '1') return;
  rmSync(profile.baseDir, { recursive: true, force: true });
}
