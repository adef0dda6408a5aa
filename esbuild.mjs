// Build script. One bundle per runtime: the extension host (node, cjs, `vscode` external) and the
// chat webview (browser, iife). Test, simulator and benchmark bundles are built on request.
// Type-checking is a separate step (`npm run typecheck`), as in the esbuild-sample.
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const root = new URL('.', import.meta.url).pathname;

function walk(dir, accept) {
  const out = [];
  let entries = [];
  try { entries = readdirSync(dir); } catch { return out; }
  for (const name of entries) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, accept));
    else if (accept(p)) out.push(p);
  }
  return out;
}

// src/core must run in plain Node: fail the build on any `vscode` import there, type-only included.
function assertCoreIsPure() {
  const offenders = walk(join(root, 'src', 'core'), (p) => p.endsWith('.ts')).filter((p) =>
    /(^|\n)\s*(import|export)\b[^;]*?from\s*['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\)/.test(readFileSync(p, 'utf8')),
  );
  if (offenders.length) {
    throw new Error(`src/core must not import 'vscode' (it runs in plain Node):\n  ${offenders.map((p) => relative(root, p)).join('\n  ')}`);
  }
}

const coreGuard = {
  name: 'core-guard',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (a) => {
      if (a.importer.includes(`${sep}src${sep}core${sep}`)) {
        return { errors: [{ text: `src/core must not import 'vscode' (imported by ${relative(root, a.importer)})` }] };
      }
      return undefined;
    });
  },
};

// The web extension (package.json `browser`): src/platform/X.ts is the Node build's side of the platform
// seam; this bundle takes src/platform/X.web.ts instead, chosen here at build time (no runtime sniffing).
const platformDir = join(root, 'src', 'platform');
const platformSeam = {
  name: 'platform-seam',
  setup(build) {
    build.onResolve({ filter: /^\./ }, (a) => {
      const abs = resolve(a.resolveDir, a.path);
      if (dirname(abs) !== platformDir || abs.endsWith('.web')) return undefined;
      const web = `${abs.replace(/\.ts$/, '')}.web.ts`;
      return existsSync(web) ? { path: web } : undefined;
    });
  },
};

// The web bundle must not pull a Node module: fail the build on `node:x` or a bare builtin name.
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const noNodeModules = {
  name: 'no-node-modules',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (a) => {
      if (a.path.startsWith('node:') || builtins.has(a.path)) {
        return { errors: [{ text: `the web extension bundle must not use Node's '${a.path}' (imported by ${relative(root, a.importer)}); put it behind src/platform/*.web.ts` }] };
      }
      return undefined;
    });
  },
};

// Globals that exist only in Node; esbuild leaves them as free names, so check the output.
function assertWebBundleIsNodeFree(file) {
  const code = readFileSync(file, 'utf8');
  const hits = [/\bBuffer\.(from|alloc|byteLength|concat|isBuffer)\b/, /\brequire\(\s*["'](?!vscode["'])/, /\b__dirname\b|\b__filename\b/, /\bsetImmediate\(/]
    .map((re) => re.exec(code)?.[0])
    .filter(Boolean);
  if (hits.length) throw new Error(`${relative(root, file)} uses Node-only globals: ${hits.join(', ')} (use src/platform/*.web.ts)`);
}

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  plugins: [coreGuard],
  absWorkingDir: root,
};

const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] };

const builds = [];
// --sim and --bench build only what they run, so a half-finished extension never blocks them.
if (!args.has('--tests-only') && !args.has('--sim') && !args.has('--bench') && !args.has('--demo')) {
  builds.push({ ...node, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist' });
  builds.push({
    ...common,
    plugins: [coreGuard, noNodeModules, platformSeam],
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    mainFields: ['browser', 'module', 'main'],
    external: ['vscode'],
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist/web',
    define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
  });
  builds.push({
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: { webview: 'src/webview/main.ts' },
    outdir: 'dist',
  });
}

const tests = (dir) => walk(join(root, dir), (p) => p.endsWith('.test.ts'));
if (args.has('--tests') || args.has('--tests-only')) {
  const unit = tests('test/unit');
  if (unit.length) builds.push({ ...node, entryPoints: unit, outbase: 'test', outdir: 'out/test', external: ['vscode', 'jsdom', 'typescript'] });
  const integration = [...tests('test/integration'), ...walk(join(root, 'test/integration'), (p) => /index\.ts$/.test(p))];
  if (integration.length) builds.push({ ...node, entryPoints: integration, outbase: 'test', outdir: 'out/test', external: ['vscode', 'mocha'] });
  const harness = walk(join(root, 'test/harness'), (p) => p.endsWith('.ts'));
  if (harness.length) builds.push({ ...node, entryPoints: harness, outbase: 'test', outdir: 'out', external: ['vscode', 'mocha', 'playwright-core', '@vscode/test-electron'] });
  const e2e = walk(join(root, 'test/e2e'), (p) => p.endsWith('.ts'));
  if (e2e.length) builds.push({ ...node, entryPoints: e2e, outbase: 'test', outdir: 'out/test', external: ['playwright-core', 'mocha'] });
}
if (args.has('--tests') || args.has('--tests-only') || args.has('--sim') || args.has('--bench')) {
  builds.push({ ...node, entryPoints: { 'gateway/cli': 'test/gateway/cli.ts', 'gateway/index': 'test/gateway/index.ts' }, outdir: 'out' });
}
if (args.has('--demo')) {
  // `npm start` (test/demo/start.mjs): the demo launcher and the extension that seeds the demo key.
  builds.push({ ...node, entryPoints: { 'demo/demo': 'test/demo/demo.ts', 'demo/seed-extension/extension': 'test/demo/seed-extension/extension.ts' }, outdir: 'out' });
}
if (args.has('--bench')) {
  builds.push({ ...node, entryPoints: { 'bench/run': 'test/bench/run.ts' }, outdir: 'out', external: ['jsdom', 'esbuild', 'playwright-core'] });
}

assertCoreIsPure();
if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('[esbuild] watching');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  if (builds.some((b) => b.outdir === 'dist/web')) assertWebBundleIsNodeFree(join(root, 'dist', 'web', 'extension.js'));
}
