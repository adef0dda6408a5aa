// What activation loads: dist/extension.js of a production build (what `npm run package` ships)
// stays under its budget. Every feature added to the activation path makes each VS Code window
// start slower, for every user, whether they use the feature or not; the lazily loaded bundles
// (dist/chat.js, images.js, lm.js, completions.js, zod.js) are where such code belongs. The test
// builds into a temporary folder with esbuild.mjs itself (`--production --dist=DIR`, as
// `npm run bench -- bundle` does) and reads the size from the build's metafile (DIR/meta.json),
// so a failure names where the bytes come from. Under `npm test` it reads the build its package
// stage has just made instead (MODELGATE_PRODUCTION_DIST: dist/, with dist/meta.json), the one
// that ships. The speed figures are in `npm run bench`.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = process.cwd();
/** dist/extension.js, production build, in KB (1,024 bytes) */
export const ACTIVATION_BUNDLE_BUDGET_KB = 250;

interface Metafile {
  outputs: Record<string, { bytes: number; entryPoint?: string; inputs: Record<string, { bytesInOutput: number }> }>;
}

/** The inputs of an output grouped by package (node_modules) or src folder, largest first, in KB. */
export function bytesBySource(inputs: Record<string, { bytesInOutput: number }>): [string, number][] {
  const by = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const key = pkg ? pkg[1]! : path.startsWith('src/') ? path.split('/').slice(0, 2).join('/') : path;
    by.set(key, (by.get(key) ?? 0) + bytesInOutput);
  }
  return [...by].map(([k, b]): [string, number] => [k, b / 1024]).sort((a, b) => b[1] - a[1]);
}

/** a stand-in for the `vscode` module: every member is itself, except the configuration, which reads `settings` as user settings */
function vscodeStub(settings: Record<string, unknown>): object {
  const configuration = {
    get: (key: string, fallback?: unknown) => (key in settings ? settings[key] : fallback),
    inspect: (key: string) => (key in settings ? { key, globalValue: settings[key] } : { key }),
    has: (key: string) => key in settings,
    update: async () => undefined,
  };
  // a function expression (not an arrow), so that `new vscode.EventEmitter()` can construct it
  const stub: object = new Proxy(
    function () {
      return stub;
    },
    {
      get: (_t, prop) => (prop === 'then' ? undefined : prop === Symbol.toPrimitive ? () => '' : prop === 'getConfiguration' ? () => configuration : stub),
      apply: () => stub,
      construct: () => stub,
      set: () => true,
    },
  );
  return stub;
}

/** runs `run` with `vscode` resolving to the stand-in; returns the other modules it required */
function withVscodeStub(settings: Record<string, unknown>, run: () => unknown): string[] {
  const stub = vscodeStub(settings);
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const realLoad = loader._load;
  const loaded: string[] = [];
  loader._load = (request, ...rest) => {
    if (request === 'vscode') return stub;
    loaded.push(request);
    return realLoad(request, ...rest);
  };
  try {
    run();
  } finally {
    loader._load = realLoad;
  }
  return loaded;
}

function stubContext(extensionPath: string): object {
  const memento = { get: (_k: string, fallback?: unknown) => fallback, update: async () => undefined, keys: () => [] };
  const secrets = { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose() {} }) };
  const uri = { fsPath: extensionPath, path: extensionPath, scheme: 'file', with: () => uri, toString: () => `file://${extensionPath}` };
  return {
    subscriptions: [],
    secrets,
    globalState: memento,
    workspaceState: memento,
    extensionUri: uri,
    extensionPath,
    globalStorageUri: uri,
    storageUri: uri,
    logUri: uri,
    extensionMode: 1,
  };
}

describe('packaging: the activation bundle stays under its budget (production build, metafile)', () => {
  let dir: string;
  let built: string | undefined;
  let storage: string;
  let main: Metafile;

  before(function () {
    this.timeout(180_000);
    storage = mkdtempSync(join(tmpdir(), 'modelgate-bundle-budget-storage-'));
    const packaged = process.env.MODELGATE_PRODUCTION_DIST;
    if (packaged) {
      dir = packaged;
      console.log(`      reads the production build the package stage made: ${dir}`);
    } else {
      dir = built = mkdtempSync(join(tmpdir(), 'modelgate-bundle-budget-'));
      try {
        execFileSync(process.execPath, ['esbuild.mjs', '--production', `--dist=${dir}`], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], timeout: 170_000 });
      } catch (err) {
        const e = err as { status?: number; stderr?: Buffer; message: string };
        throw new Error(`the production build failed (exit ${e.status ?? '?'}): ${e.stderr?.toString() || e.message}`);
      }
    }
    main = (JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as { host: { main: Metafile } }).host.main;
  });

  after(() => {
    if (built) rmSync(built, { recursive: true, force: true });
    if (storage) rmSync(storage, { recursive: true, force: true });
  });
  const zodLoaded = () => join(dir, 'zod.js') in require.cache;

  it(`dist/extension.js is under ${ACTIVATION_BUNDLE_BUDGET_KB} KB`, () => {
    const out = Object.entries(main.outputs).find(([name]) => /(^|\/)extension\.js$/.test(name));
    assert.ok(out, `the metafile lists dist/extension.js (outputs: ${Object.keys(main.outputs).join(', ')})`);
    const kb = out[1].bytes / 1024;
    const top = bytesBySource(out[1].inputs)
      .slice(0, 8)
      .map(([k, v]) => `${k} ${v.toFixed(1)} KB`)
      .join(', ');
    assert.ok(
      kb < ACTIVATION_BUNDLE_BUDGET_KB,
      `dist/extension.js is ${kb.toFixed(1)} KB, over the ${ACTIVATION_BUNDLE_BUDGET_KB} KB budget: move what activation does not need into a lazily loaded bundle. Largest sources: ${top}`,
    );
  });

  it('loading dist/extension.js does not load dist/zod.js (no zod schema is built while the bundle loads)', () => {
    // zod is required on the first call of a zod function; a schema built at module level (instead
    // of on first use, src/core/lazy.ts) would load it on every start.
    const requires = withVscodeStub({}, () => Module.createRequire(join(dir, 'extension.js'))('./extension.js'));
    assert.ok(!zodLoaded(), `dist/zod.js was loaded with the main bundle (its requires: ${requires.join(', ')})`);
  });

  it('activate() with a gateway and valid modelgate.models entries does not load dist/zod.js', async () => {
    // The catalogue is built in activate() (the status bar shows the model): entries users write
    // are checked without zod. Plain Node runs activate() against a stand-in for `vscode` that
    // answers everything with itself, and with these user settings.
    const settings = {
      baseUrl: 'http://127.0.0.1:9/v1',
      'chat.model': 'flagship-text',
      models: {
        'flagship-text': { prices: { default: { input: 2, output: 8, cacheRead: 0.5 } }, temperature: 0.2 },
        'my-image-model': { kind: 'image', sizes: ['1024x1024'], maxN: 4, prices: { standard: { '1024x1024': 0.04 } } },
      },
    };
    // a fresh copy of the bundle: its modules keep the `vscode` they were loaded with
    delete require.cache[join(dir, 'extension.js')];
    let ext: { activate(context: unknown): unknown } | undefined;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const [realTimeout, realInterval] = [globalThis.setTimeout, globalThis.setInterval];
    // timers activate() starts (the model list, store polls) would run later against the stand-in
    globalThis.setTimeout = ((...a: Parameters<typeof setTimeout>) => (timers.push(realTimeout(...a)), timers[timers.length - 1])) as typeof setTimeout;
    globalThis.setInterval = ((...a: Parameters<typeof setInterval>) => (timers.push(realInterval(...a)), timers[timers.length - 1])) as typeof setInterval;
    try {
      const requires = withVscodeStub(settings, () => {
        ext = Module.createRequire(join(dir, 'extension.js'))('./extension.js') as typeof ext;
        ext!.activate(stubContext(storage));
      });
      assert.ok(!zodLoaded(), `activate() loaded dist/zod.js (requires: ${requires.join(', ')})`);
    } finally {
      globalThis.setTimeout = realTimeout;
      globalThis.setInterval = realInterval;
      for (const t of timers) clearTimeout(t);
    }
  });

  it('the grouping names packages and src folders', () => {
    assert.deepEqual(
      bytesBySource({
        'node_modules/zod/v4/core/core.js': { bytesInOutput: 2048 },
        'node_modules/zod/v4/classic/schemas.js': { bytesInOutput: 1024 },
        'node_modules/@scope/pkg/index.js': { bytesInOutput: 512 },
        'src/core/client/wire.ts': { bytesInOutput: 1024 },
        'src/extension.ts': { bytesInOutput: 512 },
      }),
      [
        ['zod', 3],
        ['src/core', 1],
        ['@scope/pkg', 0.5],
        ['src/extension.ts', 0.5],
      ],
    );
  });
});
