// `npm run bench`: prints one line per figure (name, value, unit, peer or floor, ratio) and
// writes the same records to test-results/bench.json. Nothing here asserts a time: these
// machines are shared and noisy; the numbers are for people to read and compare.
// `npm run bench -- sse` (or client, render, conversations, bundle, activation, panel) runs one suite.
import * as esbuild from 'esbuild';
import { rmSync, mkdtempSync, statSync } from 'node:fs';
import Module from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchClient } from './client.bench';
import { benchConversationList } from './conversationList.bench';
import { benchPanel } from './panel.bench';
import { benchRender } from './render.bench';
import { figure, writeBenchJson } from './report';
import { benchSse } from './sse.bench';
import type { BenchResult } from './types';

/** Suites that still return BenchResult tables: one figure line per numeric entry. */
function printLegacy(results: BenchResult[]): void {
  for (const r of results) {
    for (const [k, v] of Object.entries(r.figures)) {
      if (typeof v === 'number') figure({ name: `${r.name} | ${k}`, value: v, unit: '' });
      else console.log(`${`${r.name} | ${k}`.padEnd(46)} ${v}`);
    }
  }
}

/** A fresh production build of the extension host bundle (same options as `esbuild.mjs --production`), into a temp dir. */
async function productionBuild(): Promise<{ dir: string; metafile: esbuild.Metafile }> {
  const dir = mkdtempSync(join(tmpdir(), 'modelgate-bench-dist-'));
  const result = await esbuild.build({
    entryPoints: { extension: 'src/extension.ts' },
    bundle: true,
    minify: true,
    sourcemap: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    outdir: dir,
    metafile: true,
    logLevel: 'error',
  });
  await esbuild.build({ entryPoints: { webview: 'src/webview/main.ts' }, bundle: true, minify: true, sourcemap: false, platform: 'browser', format: 'iife', target: 'es2022', outdir: dir, logLevel: 'error' });
  return { dir, metafile: result.metafile };
}

async function bundleSizes(dir: string, metafile: esbuild.Metafile): Promise<void> {
  figure({ name: 'bundle.extensionJs', value: statSync(join(dir, 'extension.js')).size / 1024, unit: 'KB', peerName: 'target', peer: 250, target: '< 1' , note: 'fresh production build' });
  figure({ name: 'bundle.webviewJs', value: statSync(join(dir, 'webview.js')).size / 1024, unit: 'KB', note: 'fresh production build' });
  // Where the host bundle's bytes come from, by package (top 5).
  const byPackage = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, info] of Object.entries(output.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)(\/v4\/locales)?/.exec(path);
      const key = m ? `${m[1]}${m[2] ?? ''}` : path.startsWith('src/') ? 'src' : path;
      byPackage.set(key, (byPackage.get(key) ?? 0) + info.bytesInOutput);
    }
  }
  for (const [key, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 5)) figure({ name: `bundle.extensionJs.from ${key}`, value: bytes / 1024, unit: 'KB' });
}

/**
 * require + activate of the production bundle against a stub `vscode` module (every API a
 * no-op that returns a disposable): the bundle's own cost, not VS Code's. The real host's
 * figure comes from the integration layer (see the notes).
 */
async function activation(dir: string): Promise<void> {
  const disposable = { dispose() {} };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const handler: ProxyHandler<any> = {
    get: (_t, prop) => (prop === 'then' ? undefined : prop === Symbol.toPrimitive ? () => '' : stub),
    apply: () => stub,
    construct: () => stub as object,
    // a bundle reads the module's namespaces through its own property names (__toESM)
    ownKeys: (t) => [...Reflect.ownKeys(t), 'window', 'workspace', 'commands', 'lm', 'chat', 'languages', 'env', 'extensions', 'l10n', 'Uri', 'EventEmitter', 'Disposable', 'ThemeIcon', 'ThemeColor', 'StatusBarAlignment', 'ViewColumn', 'ConfigurationTarget', 'LanguageModelChatMessage', 'LanguageModelTextPart', 'LanguageModelError', 'CancellationTokenSource', 'TreeItem', 'Range', 'Position', 'RelativePattern', 'ProgressLocation'],
    getOwnPropertyDescriptor: (t, k) => Reflect.getOwnPropertyDescriptor(t, k) ?? { configurable: true, enumerable: true, writable: true, value: stub },
  };
  const stub: object = new Proxy(function () {
    return disposable;
  }, handler);
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const realLoad = loader._load;
  loader._load = (request, ...rest) => (request === 'vscode' ? stub : realLoad(request, ...rest));
  const file = join(dir, 'extension.js');
  const samples: number[] = [];
  try {
    for (let i = 0; i < 5; i++) {
      delete require.cache[file];
      const t0 = performance.now();
      const ext = require(file) as { activate(context: unknown): unknown };
      const context = { subscriptions: [], secrets: stub, globalState: stub, workspaceState: stub, extensionUri: stub, extension: stub, extensionPath: dir, environmentVariableCollection: stub, storageUri: stub, globalStorageUri: stub, logUri: stub, extensionMode: 1 };
      try {
        await ext.activate(context);
      } catch (error) {
        figure({ name: 'activation.stubHost', value: NaN, unit: 'ms', note: `activate() threw against the stub: ${String(error).slice(0, 100)}` });
        return;
      }
      samples.push(performance.now() - t0);
    }
  } finally {
    loader._load = realLoad;
  }
  samples.sort((a, b) => a - b);
  figure({ name: 'activation.requireAndActivate.first', value: samples[0] === undefined ? NaN : samples[samples.length - 1]!, unit: 'ms', note: 'stub host, slowest of 5 (the cold one)' });
  figure({ name: 'activation.requireAndActivate.median', value: samples[2]!, unit: 'ms', peerName: 'target', peer: 20, target: '< 1', note: 'stub host, median of 5 (module cache cleared each time)' });
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const meta = { node: process.version, nproc: cpus().length, cpu: cpus()[0]?.model, date: new Date().toISOString(), command: `npm run bench${only ? ` -- ${only}` : ''}` };
  console.log(`Modelgate benchmarks — node ${meta.node}, ${meta.nproc} CPUs (${meta.cpu}), ${meta.date}`);
  let build: { dir: string; metafile: esbuild.Metafile } | undefined;
  const suites: [string, () => Promise<void>][] = [
    ['sse', () => benchSse()],
    ['client', async () => printLegacy(await benchClient())],
    ['render', async () => printLegacy(await benchRender({ naiveSizes: [10_000, 20_000] }))],
    ['conversations', benchConversationList],
    ['bundle', async () => bundleSizes((build ??= await productionBuild()).dir, build.metafile)],
    ['activation', async () => activation((build ??= await productionBuild()).dir)],
    ['panel', async () => benchPanel(join((build ??= await productionBuild()).dir, 'webview.js'))],
  ];
  try {
    for (const [name, run] of suites) {
      if (only && only !== name) continue;
      const t = performance.now();
      await run();
      console.log(`  (${name} took ${((performance.now() - t) / 1000).toFixed(1)} s)`);
    }
  } finally {
    if (build) rmSync(build.dir, { recursive: true, force: true });
  }
  console.log(`\nwrote ${writeBenchJson(meta)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
