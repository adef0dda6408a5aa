// `npm run bench`: prints one line per figure (name, value, unit, peer or floor, ratio) and
// writes the same records to test-results/bench.json. Nothing here asserts a time: these
// machines are shared and noisy; the numbers are for people to read and compare.
// `npm run bench -- sse` (or client, render, conversations, search, models, regexScan, quote, compaction, firstWords, sendToWire, bundle, activation, edits, endurance, panel, completions) runs one suite.
import type * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchClient } from './client.bench';
import { benchCompletions } from './completions.bench';
import { benchConversationList } from './conversationList.bench';
import { benchConversationSearch } from './conversationSearch.bench';
import { benchEndurance } from './endurance.bench';
import { benchFirstWords } from './firstWords.bench';
import { benchModelList } from './models.bench';
import { benchPanel } from './panel.bench';
import { benchQuote } from './quote.bench';
import { benchCompaction } from './compaction.bench';
import { benchRegexScan } from './regexScan.bench';
import { benchRender } from './render.bench';
import { figure, writeBenchJson } from './report';
import { integrationBenchResult } from './integrationBench';
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

/**
 * A fresh production build into a temp dir, by esbuild.mjs itself (`--production --dist=DIR`), so
 * the figures are those of the shipped layout: dist/extension.js plus the feature bundles
 * (chat.js, images.js, lm.js, completions.js) and zod.js that it requires on first use, the web
 * host bundle and the webview.
 */
async function productionBuild(): Promise<{ dir: string; meta: DistMeta }> {
  const dir = mkdtempSync(join(tmpdir(), 'modelgate-bench-dist-'));
  execFileSync(process.execPath, ['esbuild.mjs', '--production', `--dist=${dir}`], { stdio: 'inherit' });
  return { dir, meta: JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as DistMeta };
}

interface DistMeta {
  host: { main: esbuild.Metafile; features: esbuild.Metafile; zodBundle?: esbuild.Metafile; shared: string[]; zod: string[]; hostZod?: string[] };
}

const FEATURE_BUNDLES = ['chat.js', 'images.js', 'lm.js', 'completions.js'];

async function bundleSizes(dir: string, meta: DistMeta): Promise<void> {
  const kb = (file: string) => statSync(join(dir, file)).size / 1024;
  figure({
    name: 'bundle.extensionJs',
    value: kb('extension.js'),
    unit: 'KB',
    peerName: 'target',
    peer: 250,
    target: '< 1',
    note: 'fresh production build; what activation loads',
  });
  for (const f of FEATURE_BUNDLES) figure({ name: `bundle.${f.replace('.js', 'Js')}`, value: kb(f), unit: 'KB', note: 'required on first use' });
  const host = ['extension.js', ...FEATURE_BUNDLES, 'zod.js'].reduce((sum, f) => sum + kb(f), 0);
  figure({
    name: 'bundle.nodeHostTotal',
    value: host,
    unit: 'KB',
    note: `extension.js + feature bundles + zod.js; ${meta.host.shared.length} modules and zod shared, not copied`,
  });
  figure({
    name: 'bundle.zodJs',
    value: kb('zod.js'),
    unit: 'KB',
    note: 'required on the first call of a zod function (a request, a message, a setting to check)',
  });
  zodLoad(dir);
  figure({ name: 'bundle.webExtensionJs', value: kb('web/extension.js'), unit: 'KB', note: 'web host: one file, features built on first use' });
  figure({ name: 'bundle.webviewJs', value: kb('webview.js'), unit: 'KB', note: 'fresh production build' });
  // Where the main bundle's bytes come from, by package / src folder (top 6).
  const byPackage = new Map<string, number>();
  for (const output of Object.values(meta.host.main.outputs)) {
    for (const [path, info] of Object.entries(output.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)(\/v4\/locales)?/.exec(path);
      const key = m ? `${m[1]}${m[2] ?? ''}` : path.startsWith('src/') ? path.split('/').slice(0, 2).join('/') : path;
      byPackage.set(key, (byPackage.get(key) ?? 0) + info.bytesInOutput);
    }
  }
  for (const [key, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 6))
    figure({ name: `bundle.extensionJs.from ${key}`, value: bytes / 1024, unit: 'KB' });
}

/**
 * What the first call of a zod function adds, once: requiring dist/zod.js in a fresh Node process
 * (no module or compile cache), median of 5. The first request, chat message or image pays it
 * when nothing needed zod before (the gateway's model list, fetched after activation, usually does).
 */
function zodLoad(dir: string): void {
  const coldRequire = (file: string) => {
    const script = `const t = performance.now(); require(${JSON.stringify(file)}); process.stdout.write(String(performance.now() - t));`;
    return Array.from({ length: 5 }, () => Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))).sort((a, b) => a - b);
  };
  const empty = join(dir, 'empty-for-bench.js');
  writeFileSync(empty, '');
  const floor = coldRequire(empty);
  rmSync(empty);
  const samples = coldRequire(join(dir, 'zod.js'));
  figure({
    name: 'bundle.zodJs.firstLoad',
    value: samples[2]!,
    unit: 'ms',
    peerName: 'floor',
    peer: floor[2]!,
    note: `require of dist/zod.js in a fresh process, median of 5 (${samples.map((v) => v.toFixed(1)).join(', ')}); floor: the first require of an empty file`,
  });
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
    // writes go nowhere (e.g. a subclass constructor setting `this.name` on the stubbed base)
    set: () => true,
    defineProperty: () => true,
    // a bundle reads the module's namespaces through its own property names (__toESM)
    ownKeys: (t) => [
      ...Reflect.ownKeys(t),
      'window',
      'workspace',
      'commands',
      'lm',
      'chat',
      'languages',
      'env',
      'extensions',
      'l10n',
      'Uri',
      'EventEmitter',
      'Disposable',
      'ThemeIcon',
      'ThemeColor',
      'StatusBarAlignment',
      'ViewColumn',
      'ConfigurationTarget',
      'LanguageModelChatMessage',
      'LanguageModelTextPart',
      'LanguageModelError',
      'CancellationTokenSource',
      'TreeItem',
      'Range',
      'Position',
      'RelativePattern',
      'ProgressLocation',
      'MarkdownString',
      'CancellationError',
      'Diagnostic',
      'DiagnosticSeverity',
      'FileSystemError',
      'FileType',
      'LanguageModelChatMessageRole',
      'LanguageModelChatToolMode',
      'LanguageModelToolCallPart',
      'LanguageModelToolResultPart',
      'LanguageModelPromptTsxPart',
      'QuickPickItemKind',
      'TabInputTextDiff',
      'WorkspaceEdit',
    ],
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
  // timers the extension starts (catalogue refresh, store polling) would later run against the
  // stub and throw; collect them and clear them once the samples are taken
  const realSetTimeout = globalThis.setTimeout;
  const realSetInterval = globalThis.setInterval;
  const timers: NodeJS.Timeout[] = [];
  globalThis.setTimeout = ((...a: Parameters<typeof setTimeout>) => {
    const t = realSetTimeout(...a);
    timers.push(t);
    return t;
  }) as typeof setTimeout;
  globalThis.setInterval = ((...a: Parameters<typeof setInterval>) => {
    const t = realSetInterval(...a);
    timers.push(t);
    return t;
  }) as typeof setInterval;
  try {
    for (let i = 0; i < 5; i++) {
      delete require.cache[file];
      const t0 = performance.now();
      const ext = require(file) as { activate(context: unknown): unknown };
      const context = {
        subscriptions: [],
        secrets: stub,
        globalState: stub,
        workspaceState: stub,
        extensionUri: stub,
        extension: stub,
        extensionPath: dir,
        environmentVariableCollection: stub,
        storageUri: stub,
        globalStorageUri: stub,
        logUri: stub,
        extensionMode: 1,
      };
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
    globalThis.setTimeout = realSetTimeout;
    globalThis.setInterval = realSetInterval;
    for (const t of timers) clearTimeout(t);
  }
  samples.sort((a, b) => a - b);
  figure({
    name: 'activation.requireAndActivate.first',
    value: samples[0] === undefined ? NaN : samples[samples.length - 1]!,
    unit: 'ms',
    note: 'stub host, slowest of 5 (the cold one)',
  });
  figure({
    name: 'activation.requireAndActivate.median',
    value: samples[2]!,
    unit: 'ms',
    peerName: 'target',
    peer: 20,
    target: '< 1',
    note: 'stub host, median of 5 (module cache cleared each time)',
  });
  realHostActivation();
}

/**
 * The real VS Code's figures, from the last integration run of test/integration/activation.test.ts
 * (`MODELGATE_SKIP=unit,e2e,install MODELGATE_TEST_GREP=activation npm test` writes
 * test-results/activation.json): activate()'s own time and each feature's first-use build.
 */
function realHostActivation(): void {
  const file = join(process.cwd(), 'test-results', 'activation.json');
  if (!existsSync(file)) {
    figure({
      name: 'activation.realVsCode.activate',
      value: NaN,
      unit: 'ms',
      note: 'no test-results/activation.json: run MODELGATE_SKIP=unit,e2e,install MODELGATE_TEST_GREP=activation npm test',
    });
    return;
  }
  const r = JSON.parse(readFileSync(file, 'utf8')) as {
    date: string;
    host: string;
    activateBodyMs: number;
    bundleLoadMs?: number;
    requireAndActivateMs?: number;
    cpuMs?: { loadMs?: number; activateMs?: number };
    activatePhasesMs?: Record<string, number>;
    featureLoads?: { feature: string; trigger: string; ms: number }[];
  };
  const from = `${r.host}, integration run of ${r.date}`;
  if (r.requireAndActivateMs !== undefined)
    figure({
      name: 'activation.realVsCode.requireAndActivate',
      value: r.requireAndActivateMs,
      unit: 'ms',
      peerName: 'target',
      peer: 20,
      target: '< 1',
      note: `bundle module code + activate() body (compile not included); ${from}`,
    });
  if (r.cpuMs?.loadMs !== undefined && r.cpuMs.activateMs !== undefined)
    figure({
      name: 'activation.realVsCode.requireAndActivate.cpu',
      value: r.cpuMs.loadMs + r.cpuMs.activateMs,
      unit: 'ms',
      peerName: 'target',
      peer: 20,
      target: '< 1',
      note: "the same, the extension host thread's CPU time (the clock also counts waiting for a core)",
    });
  if (r.bundleLoadMs !== undefined)
    figure({ name: 'activation.realVsCode.bundleLoad', value: r.bundleLoadMs, unit: 'ms', note: "the bundle's module code, first line to last" });
  figure({
    name: 'activation.realVsCode.activate',
    value: r.activateBodyMs,
    unit: 'ms',
    peerName: 'target',
    peer: 20,
    target: '< 1',
    note: `activate() body; ${from}`,
  });
  for (const [name, ms] of Object.entries(r.activatePhasesMs ?? {}))
    figure({ name: `activation.realVsCode.activate.${name}`, value: ms, unit: 'ms', note: 'part of the activate() body' });
  for (const f of r.featureLoads ?? [])
    figure({ name: `activation.realVsCode.firstUse.${f.feature}`, value: f.ms, unit: 'ms', note: `load + build on first use (${f.trigger})` });
}

/**
 * The edit tools in the real VS Code: runs the bench test of the integration suite
 * 'edits under review' (a VS Code session of its own: build, package, one extension host), which
 * stages an answer's 20 files with 50 search-and-replace pairs and keeps them all, each beside its
 * floor measured in the same run, and writes test-results/edits.json. The targets (200 ms to stage,
 * 500 ms to keep) are compared with the extension host thread's CPU time, which hardly changes with
 * the machine's load; the clock is printed as a ratio to its floor. MODELGATE_BENCH_EDITS_REUSE=1
 * prints the figures of the last run instead.
 */
function realHostEdits(): void {
  const r = integrationBenchResult<{
    date: string;
    host: string;
    stageMs: number;
    stageCpuMs: number;
    stageFloorMs?: number;
    stageFloorCpuMs?: number;
    keepAllMs: number;
    keepAllCpuMs: number;
    keepFloorMs?: number;
    keepFloorCpuMs?: number;
  }>({
    file: 'edits.json',
    grep: 'edits under review \\(real VS Code\\) bench:',
    reuseEnv: 'MODELGATE_BENCH_EDITS_REUSE',
    missing: {
      name: 'edits.stage20files50pairs.cpu',
      unit: 'ms',
      note: "no test-results/edits.json: the integration run failed (MODELGATE_SKIP=unit,e2e,install MODELGATE_TEST_GREP='edits under review' npm test shows why)",
    },
  });
  if (!r) return;
  const from = `${r.host}, integration run of ${r.date}`;
  const target = (name: string, value: number, peer: number, note: string) =>
    figure({ name, value, unit: 'ms', peerName: 'target', peer, target: '< 1', note });
  const floor = (name: string, value: number, peer: number | undefined, note: string) =>
    peer === undefined ? undefined : figure({ name, value, unit: 'ms', peerName: 'floor', peer, note });
  target('edits.stage20files50pairs.cpu', r.stageCpuMs, 200, `extension host thread CPU; ${from}`);
  floor('edits.stage20files50pairs.cpuVsFloor', r.stageCpuMs, r.stageFloorCpuMs, 'floor: read 20 files, apply the pairs, write 20 originals (thread CPU)');
  floor('edits.stage20files50pairs.clockVsFloor', r.stageMs, r.stageFloorMs, 'the clock, both waiting for cores alike');
  target('edits.keepAll20files.cpu', r.keepAllCpuMs, 500, 'extension host thread CPU');
  floor('edits.keepAll20files.cpuVsFloor', r.keepAllCpuMs, r.keepFloorCpuMs, 'floor: open + one WorkspaceEdit + save per file, side by side (thread CPU)');
  floor('edits.keepAll20files.clockVsFloor', r.keepAllMs, r.keepFloorMs, 'the clock; the workbench and the disk do most of it');
  target('edits.keepAll20files.clock', r.keepAllMs, 500, 'the clock (counts waiting for a core on a loaded machine)');
}

/**
 * Enter to the request on the wire in the real VS Code: runs the bench test of the integration
 * suite 'chat: Enter to the request on the wire' (a VS Code session of its own), which takes 40
 * sends from the chat view's `send` message arriving in the extension host to the request's
 * headers written to the socket, and writes test-results/sendToWire.json. On a shared machine,
 * run it under the VS Code lock (`flock /tmp/modelgate-vscode.lock npm run bench -- sendToWire`).
 * MODELGATE_BENCH_SEND_TO_WIRE_REUSE=1 prints the figures of the last run instead.
 */
function realHostSendToWire(): void {
  const r = integrationBenchResult<{
    date: string;
    host: string;
    sends: number;
    p50Ms: number;
    p95Ms: number;
    maxMs: number;
    cpuP50Ms: number;
  }>({
    file: 'sendToWire.json',
    grep: 'Enter to the request on the wire \\(real VS Code\\) bench:',
    reuseEnv: 'MODELGATE_BENCH_SEND_TO_WIRE_REUSE',
    env: { MODELGATE_BENCH_SENDS: '40' },
    missing: {
      name: 'chat.sendToWire.p50',
      unit: 'ms',
      note: "no test-results/sendToWire.json: the integration run failed (MODELGATE_SKIP=unit,e2e MODELGATE_TEST_GREP='Enter to the request on the wire' npm test shows why)",
    },
  });
  if (!r) return;
  const from = `${r.host}, integration run of ${r.date}`;
  figure({
    name: 'chat.sendToWire.p50',
    value: r.p50Ms,
    unit: 'ms',
    peerName: 'target',
    peer: 30,
    target: '< 1',
    note: `the send message arriving in the extension host to the request's headers on the socket, ${r.sends} sends; p95 ${r.p95Ms.toFixed(1)} ms, max ${r.maxMs.toFixed(1)} ms; ${from}`,
  });
  figure({
    name: 'chat.sendToWire.cpu.p50',
    value: r.cpuP50Ms,
    unit: 'ms',
    note: "the extension host thread's CPU time over the same span (the clock also counts waiting for a core)",
  });
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const meta = {
    node: process.version,
    nproc: cpus().length,
    cpu: cpus()[0]?.model,
    date: new Date().toISOString(),
    command: `npm run bench${only ? ` -- ${only}` : ''}`,
  };
  console.log(`Modelgate benchmarks — node ${meta.node}, ${meta.nproc} CPUs (${meta.cpu}), ${meta.date}`);
  let build: { dir: string; meta: DistMeta } | undefined;
  const suites: [string, () => Promise<void>][] = [
    ['sse', () => benchSse()],
    ['client', async () => printLegacy(await benchClient())],
    ['render', async () => printLegacy(await benchRender({ naiveSizes: [10_000, 20_000] }))],
    ['conversations', benchConversationList],
    ['search', benchConversationSearch],
    ['models', async () => benchModelList()],
    ['regexScan', benchRegexScan],
    ['quote', benchQuote],
    ['compaction', benchCompaction],
    ['firstWords', benchFirstWords],
    ['sendToWire', async () => realHostSendToWire()],
    [
      'bundle',
      async () => {
        await bundleSizes((build ??= await productionBuild()).dir, build.meta);
        await activation(build.dir);
      },
    ],
    ['activation', async () => activation((build ??= await productionBuild()).dir)],
    ['edits', async () => realHostEdits()],
    ['endurance', async () => benchEndurance()],
    ['panel', async () => benchPanel(join((build ??= await productionBuild()).dir, 'webview.js'))],
    ['completions', benchCompletions],
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
