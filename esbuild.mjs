// Build script. One bundle per runtime: the extension host (node, cjs, `vscode` external), the web
// extension host (browser, cjs) and the chat webview (browser, iife). Test, simulator and benchmark bundles are built on request.
// Type-checking is a separate step (`npm run typecheck`), as in the esbuild-sample.
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const root = new URL('.', import.meta.url).pathname;

function walk(dir, accept) {
  const out = [];
  let entries = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, accept));
    else if (accept(p)) out.push(p);
  }
  return out;
}

// The layer rules (src/core never imports 'vscode', ...) are checked by lint (eslint.config.mjs), not here.

// The browser bundles (the web extension, package.json `browser`, and the chat webview): a module src/**/X.ts
// with a sibling X.web.ts is the Node build's side of a platform seam (src/platform/, src/agentTools/regexScan,
// src/featureLoading/featureBundles, src/lm/tokenizers); these bundles take X.web.ts instead, chosen here at
// build time (no runtime sniffing).
const srcDir = join(root, 'src');
const platformSeam = {
  name: 'platform-seam',
  setup(build) {
    build.onResolve({ filter: /^\./ }, (a) => {
      const abs = resolve(a.resolveDir, a.path);
      if (!abs.startsWith(srcDir + sep) || abs.endsWith('.web')) return undefined;
      const web = `${abs.replace(/\.ts$/, '')}.web.ts`;
      return existsSync(web) ? { path: web } : undefined;
    });
  },
};

// A browser bundle must not pull a Node module: fail the build on `node:x` or a bare builtin name.
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const noNodeModules = (bundle) => ({
  name: 'no-node-modules',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (a) => {
      if (a.path.startsWith('node:') || builtins.has(a.path)) {
        return {
          errors: [
            {
              text: `the ${bundle} bundle must not use Node's '${a.path}' (imported by ${relative(root, a.importer)}); put it behind src/platform/*.web.ts`,
            },
          ],
        };
      }
      return undefined;
    });
  },
});

// Globals that exist only in Node; esbuild leaves them as free names, so check the output. The web
// extension host's bundle keeps a library's `process.cwd()` (path-browserify, behind a check); the
// panel's bundle has no library that needs one, so there any use of `Buffer` or `process` fails too.
const NODE_GLOBALS = [
  /\bBuffer\.(from|alloc|byteLength|concat|isBuffer)\b/,
  /\brequire\(\s*["'](?!vscode["'])/,
  /\b__dirname\b|\b__filename\b/,
  /\bsetImmediate\(/,
];
const STRICT_NODE_GLOBALS = [...NODE_GLOBALS, /(?<![.\w$])Buffer\b/, /(?<![.\w$])process\s*(\?\.|\.|\[)/];
function assertBundleIsNodeFree(file, patterns = NODE_GLOBALS) {
  const code = readFileSync(file, 'utf8');
  const hits = patterns.map((re) => re.exec(code)?.[0]).filter(Boolean);
  if (hits.length) throw new Error(`${relative(root, file)} uses Node-only globals: ${hits.join(', ')} (use src/platform/*.web.ts)`);
}

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  absWorkingDir: root,
};

const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] };

// The Node extension host gets one main bundle (dist/extension.js) plus one bundle per lazily
// loaded feature (dist/chat.js, images.js, lm.js, completions.js; src/featureLoading/lazyFeatures.ts,
// src/featureLoading/featureBundles.ts), and zod apart (dist/zod.js, required on its first call: lazyZod). A
// feature bundle must not carry its own copy of what the main bundle has: two GatewayError classes
// or two l10n translators would break instanceof and translation. So, in passes:
//  1. build the main bundle alone and list the src modules that end up in it ("shared");
//  2. list the zod functions the feature-only modules call (z.object, ...), and those the whole host calls;
//  3. build the main bundle from a generated entry that also hands those modules' live namespaces
//     (and the lazy zod stand-in) to src/featureLoading/featureBundles.ts (provideSharedModules);
//  4. build each feature with every import of a shared module (and of zod) replaced by a lookup in
//     what the main bundle handed over (read from a global only while the feature's require runs);
//  5. build dist/zod.js with the zod functions of step 2.
/**
 * first line of the extension host bundles: when they started to run (src/extension.ts
 * activationTiming), by the clock and by the main thread's CPU time (Node 23.9+; absent elsewhere)
 */
const LOAD_START = 'var __modelgateLoadStart = performance.now(), __modelgateLoadStartCpu = globalThis.process?.threadCpuUsage?.();';
/** last line of the same bundles: when their module code had run (loadMs = LOAD_END - LOAD_START) */
const LOAD_END = 'var __modelgateLoadEnd = performance.now(), __modelgateLoadEndCpu = globalThis.process?.threadCpuUsage?.();';
const FEATURES = { chat: 'src/chat/index.ts', images: 'src/images/index.ts', lm: 'src/lm/index.ts', completions: 'src/completions/index.ts' };
const featureRequire = {
  name: 'feature-bundles',
  setup(build) {
    build.onResolve({ filter: /^\.\/(chat|images|lm|completions)\.js$/ }, (a) =>
      a.importer.endsWith(join('src', 'featureLoading', 'featureBundles.ts')) ? { path: a.path, external: true } : undefined,
    );
    // src/lm/tokenizers.ts requires the tokenizer bundles (below) on a model's first token count
    build.onResolve({ filter: /^\.\/tokenizer-(o200k|cl100k)\.js$/ }, (a) =>
      a.importer.endsWith(join('src', 'lm', 'tokenizers.ts')) ? { path: a.path, external: true } : undefined,
    );
  },
};
// The OpenAI tokenizers (npm gpt-tokenizer, one vocabulary each): bundles of their own next to
// dist/lm.js, required by src/lm/tokenizers.ts only when a model of that family counts tokens.
const TOKENIZERS = { 'tokenizer-o200k': 'gpt-tokenizer/encoding/o200k_base', 'tokenizer-cl100k': 'gpt-tokenizer/encoding/cl100k_base' };
// `import * as vscode from 'vscode'` compiles to `__toESM(require("vscode"))` in every module that
// imports it: a fresh copy of the ~200 getters of VS Code's API object per module (16 in
// dist/extension.js, a few ms of loading the bundle in the real host). Nothing uses a
// default import of 'vscode', so the API object itself does: the written bundle is rewritten to
// `require("vscode")`. The build fails if the pattern is not what it expects.
const plainVscode = {
  name: 'plain-vscode',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length || !result.metafile || build.initialOptions.write === false) return;
      for (const out of Object.keys(result.metafile.outputs)) {
        if (!out.endsWith('.js')) continue;
        const file = resolve(root, out);
        const code = readFileSync(file, 'utf8');
        const requires = code.split('require("vscode")').length - 1;
        if (!requires) continue;
        const wrappers = new Set([...code.matchAll(/([\w$]+)\(require\("vscode"\)\)/g)].map((m) => m[1]));
        const wrapped = code.split(/[\w$]+\(require\("vscode"\)\)/).length - 1;
        if (wrappers.size !== 1 || wrapped !== requires)
          throw new Error(
            `${out}: expected every require("vscode") wrapped by one __toESM helper, found ${wrapped} of ${requires} wrapped by [${[...wrappers].join(', ')}]`,
          );
        const [helper] = wrappers;
        writeFileSync(file, code.replaceAll(`${helper}(require("vscode"))`, 'require("vscode")'));
      }
    });
  },
};
const relPath = (p) => relative(root, p).split(sep).join('/');
const SKIP = Symbol('skip');
function sharedModules(shared, zodNames) {
  return {
    name: 'shared-modules',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (a) => {
        if (a.pluginData === SKIP || a.kind === 'entry-point') return undefined;
        if (a.path === 'zod') return zodNames ? { path: 'zod', namespace: 'modelgate-shared' } : undefined;
        if (!a.path.startsWith('.')) return undefined;
        const r = await build.resolve(a.path, { resolveDir: a.resolveDir, kind: a.kind, importer: a.importer, pluginData: SKIP });
        if (r.errors.length || !r.path) return undefined;
        const rel = relPath(r.path);
        return shared.has(rel) ? { path: rel, namespace: 'modelgate-shared' } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'modelgate-shared' }, (a) => ({
        contents: a.path === 'zod' ? 'module.exports = __modelgateShared.zod;' : `module.exports = __modelgateShared.modules[${JSON.stringify(a.path)}];`,
        loader: 'js',
      }));
    },
  };
}
// zod (about 100 KB minified) is a bundle of its own, dist/zod.js, required on the first call of a zod
// function, so activation does not load it: every zod schema of the main bundle is built on first use
// (src/core/lazy.ts), and the main bundle's `import * as z from 'zod'` resolves to this stand-in, whose
// members are getters that require dist/zod.js when first read. The feature bundles get the same
// stand-in through the shared modules, so there is one zod (one ZodError class) in the host.
const ZOD_BUNDLE = './zod.js';
const lazyZod = (names) => ({
  name: 'lazy-zod',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, () => ({ path: 'zod', namespace: 'modelgate-lazy-zod' }));
    build.onResolve({ filter: /^\.\/zod\.js$/ }, (a) => (a.namespace === 'modelgate-lazy-zod' ? { path: ZOD_BUNDLE, external: true } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'modelgate-lazy-zod' }, () => ({
      contents: [
        'let zod;',
        `const load = () => (zod ??= require(${JSON.stringify(ZOD_BUNDLE)}));`,
        'const api = {};',
        `for (const name of ${JSON.stringify([...names].sort())}) Object.defineProperty(api, name, { enumerable: true, get: () => load()[name] });`,
        'module.exports = api;',
      ].join('\n'),
      loader: 'js',
    }));
  },
});
/** the zod functions (`z.object`, ...) that these src modules call (zod is imported as a namespace: eslint.config.mjs) */
async function zodFunctions(paths) {
  const zod = await import('zod');
  const names = new Set();
  for (const p of paths) {
    if (!p.startsWith('src/')) continue;
    for (const m of readFileSync(join(root, p), 'utf8').matchAll(/\bz\.([A-Za-z_$][\w$]*)/g))
      if (m[1] in zod && typeof zod[m[1]] !== 'undefined') names.add(m[1]);
  }
  return names;
}
const srcInOutput = (metafile) => {
  const found = new Set();
  for (const o of Object.values(metafile.outputs)) for (const [p, i] of Object.entries(o.inputs)) if (i.bytesInOutput > 0 && p.startsWith('src/')) found.add(p);
  return found;
};

/** Builds dist/extension.js + the feature bundles into `outdir`; returns the metafiles (by output name). */
async function buildNodeHost(outdir) {
  const host = { ...node, plugins: [featureRequire, plainVscode] };
  // 1. what the main bundle has
  const probe = await esbuild.build({ ...host, entryPoints: { extension: 'src/extension.ts' }, outdir, write: false, metafile: true, sourcemap: false });
  const shared = srcInOutput(probe.metafile);
  // 2. the zod functions the feature-only modules call, and those the whole host calls (for dist/zod.js)
  const featureProbe = await esbuild.build({
    ...host,
    plugins: [featureRequire, sharedModules(shared, undefined)],
    entryPoints: FEATURES,
    outdir,
    write: false,
    metafile: true,
    sourcemap: false,
  });
  const zodNames = await zodFunctions(Object.keys(featureProbe.metafile.inputs).filter((p) => !shared.has(p)));
  const hostZodNames = await zodFunctions([...Object.keys(probe.metafile.inputs), ...Object.keys(featureProbe.metafile.inputs)]);
  // 3. the main bundle, handing over the shared modules; repeated if keeping whole namespaces pulled in more modules
  let main;
  for (let round = 0; round < 4; round++) {
    const list = [...shared].sort();
    const entry = [
      `import { provideSharedModules } from ${JSON.stringify(join(root, 'src/featureLoading/featureBundles.ts'))};`,
      ...list.map((p, i) => `import * as m${i} from ${JSON.stringify(join(root, p))};`),
      zodNames.size ? `import * as z from 'zod';` : '',
      // z is the lazy stand-in (lazyZod): handing it over loads nothing
      `provideSharedModules({ modules: { ${list.map((p, i) => `${JSON.stringify(p)}: m${i}`).join(', ')} }, zod: ${zodNames.size ? 'z' : 'undefined'} });`,
      `export * from ${JSON.stringify(join(root, 'src/extension.ts'))};`,
    ].join('\n');
    const virtualEntry = {
      name: 'main-entry',
      setup(build) {
        build.onResolve({ filter: /^modelgate:main$/ }, () => ({ path: 'main', namespace: 'modelgate-main' }));
        build.onLoad({ filter: /.*/, namespace: 'modelgate-main' }, () => ({ contents: entry, loader: 'js', resolveDir: root }));
      },
    };
    main = await esbuild.build({
      ...host,
      plugins: [...host.plugins, virtualEntry, lazyZod(hostZodNames)],
      entryPoints: { extension: 'modelgate:main' },
      outdir,
      metafile: true,
      banner: { js: LOAD_START },
      footer: { js: LOAD_END },
    });
    const more = [...srcInOutput(main.metafile)].filter((p) => !shared.has(p));
    if (!more.length) break;
    for (const p of more) shared.add(p);
  }
  // zod stays out of the main bundle whatever imports it (a subpath such as 'zod/v4' would bypass the stand-in)
  const zodInMain = Object.keys(main.metafile.inputs).filter((p) => /(^|\/)node_modules\/zod\//.test(p));
  if (zodInMain.length)
    throw new Error(
      `dist/extension.js would carry zod (${zodInMain[0]}, ...): import it as \`import * as z from 'zod'\`, which loads dist/zod.js on first use`,
    );
  // 4. the feature bundles
  const features = await esbuild.build({
    ...host,
    plugins: [featureRequire, sharedModules(shared, zodNames.size ? zodNames : undefined), plainVscode],
    entryPoints: FEATURES,
    outdir,
    metafile: true,
    banner: {
      js: 'var __modelgateShared = globalThis[Symbol.for("modelgate.sharedModules")]; if (!__modelgateShared) throw new Error("Modelgate: this feature bundle is loaded by dist/extension.js on first use, not on its own");',
    },
  });
  // A module that is in no main bundle but in two feature bundles runs twice: fine for pure
  // functions, wrong for a class (instanceof) or module state. Fail the build for those.
  const seen = new Map();
  for (const o of Object.values(features.metafile.outputs))
    for (const [p, i] of Object.entries(o.inputs)) if (i.bytesInOutput > 0 && p.startsWith('src/')) seen.set(p, (seen.get(p) ?? 0) + 1);
  const twice = [...seen]
    .filter(([p, n]) => n > 1 && /^(export\s+)?(abstract\s+)?(class|let|var)\s/m.test(readFileSync(join(root, p), 'utf8')))
    .map(([p]) => p);
  if (twice.length)
    throw new Error(
      `these modules would run once per feature bundle but have a class or module state; import them from the main bundle's code too (so they are shared) or keep them in one feature:\n  ${twice.join('\n  ')}`,
    );
  // 5. dist/zod.js: the zod functions the host calls (and what they need), nothing else
  const zodBundle = await esbuild.build({
    ...node,
    stdin: { contents: `export { ${[...hostZodNames].sort().join(', ')} } from 'zod';`, resolveDir: root, loader: 'js', sourcefile: 'modelgate-zod.js' },
    outfile: join(outdir, 'zod.js'),
    metafile: true,
  });
  return {
    main: main.metafile,
    features: features.metafile,
    zodBundle: zodBundle.metafile,
    shared: [...shared].sort(),
    zod: [...zodNames].sort(),
    hostZod: [...hostZodNames].sort(),
  };
}

// --dist=DIR: the production bundles into DIR instead of dist/ (the bench builds a fresh copy), with DIR/meta.json.
const distArg = process.argv.find((a) => a.startsWith('--dist='));
const dist = distArg ? resolve(distArg.slice('--dist='.length)) : join(root, 'dist');

const builds = [];
let nodeHost = false;
// --sim and --bench build only what they run, so a half-finished extension never blocks them.
if (!args.has('--tests-only') && !args.has('--sim') && !args.has('--bench') && !args.has('--demo')) {
  nodeHost = true;
  builds.push({
    ...common,
    plugins: [noNodeModules('web extension'), platformSeam, plainVscode],
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    mainFields: ['browser', 'module', 'main'],
    external: ['vscode'],
    entryPoints: { extension: 'src/extension.ts' },
    outdir: join(dist, 'web'),
    metafile: true,
    banner: { js: LOAD_START },
    footer: { js: LOAD_END },
    define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
  });
  builds.push({ ...node, entryPoints: TOKENIZERS, outdir: dist, metafile: true });
  // the chat panel's page: the same platform seam as the web extension, and no Node at all
  builds.push({
    ...common,
    plugins: [noNodeModules('chat webview'), platformSeam],
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: { webview: 'src/webview/main.ts' },
    outdir: dist,
    metafile: true,
  });
}

const tests = (dir) => walk(join(root, dir), (p) => p.endsWith('.test.ts'));
if (args.has('--tests') || args.has('--tests-only')) {
  // unit tests of the product (test/unit mirrors src/) and the simulator's own tests (test/gateway/tests)
  const unit = [...tests('test/unit'), ...tests('test/gateway/tests')];
  // The packages stay in node_modules, required at run time (one copy in the process), not copied into
  // each of the ~160 test bundles: zod alone was 33 MB of the 60 MB written, ten copies of gpt-tokenizer
  // another 8 MB, and Node parsed each copy again as it loaded the files.
  if (unit.length) builds.push({ ...node, entryPoints: unit, outbase: 'test', outdir: 'out/test', packages: 'external', external: ['vscode'] });
  const integration = [...tests('test/integration'), ...walk(join(root, 'test/integration'), (p) => /index\.ts$/.test(p))];
  if (integration.length) builds.push({ ...node, entryPoints: integration, outbase: 'test', outdir: 'out/test', external: ['vscode', 'mocha'] });
  const harness = walk(join(root, 'test/harness'), (p) => p.endsWith('.ts'));
  if (harness.length)
    builds.push({ ...node, entryPoints: harness, outbase: 'test', outdir: 'out', external: ['vscode', 'mocha', 'playwright-core', '@vscode/test-electron'] });
  const e2e = walk(join(root, 'test/e2e'), (p) => p.endsWith('.ts'));
  if (e2e.length) builds.push({ ...node, entryPoints: e2e, outbase: 'test', outdir: 'out/test', external: ['playwright-core', 'mocha'] });
}
if (args.has('--tests') || args.has('--tests-only') || args.has('--sim') || args.has('--bench')) {
  builds.push({ ...node, entryPoints: { 'gateway/cli': 'test/gateway/cli.ts', 'gateway/index': 'test/gateway/index.ts' }, outdir: 'out' });
}
if (args.has('--demo')) {
  // `npm start` (test/demo/start.mjs): the demo launcher and the extension that seeds the demo key.
  builds.push({
    ...node,
    entryPoints: { 'demo/demo': 'test/demo/demo.ts', 'demo/seed-extension/extension': 'test/demo/seed-extension/extension.ts' },
    outdir: 'out',
  });
}
if (args.has('--bench')) {
  builds.push({ ...node, entryPoints: { 'bench/run': 'test/bench/run.ts' }, outdir: 'out', external: ['jsdom', 'esbuild', 'playwright-core'] });
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  if (nodeHost) {
    // The split host build is several passes: rerun them all whenever any input of the host or a feature changes.
    const rebuild = {
      name: 'node-host',
      setup: (b) =>
        b.onEnd(async (r) => {
          if (!r.errors.length) await buildNodeHost(dist).catch((e) => console.error(e));
        }),
    };
    await (
      await esbuild.context({
        ...node,
        plugins: [featureRequire, rebuild],
        entryPoints: { extension: 'src/extension.ts', ...FEATURES },
        outdir: dist,
        write: false,
      })
    ).watch();
  }
  console.log('[esbuild] watching');
} else {
  const [host, ...results] = await Promise.all([nodeHost ? buildNodeHost(dist) : undefined, ...builds.map((b) => esbuild.build(b))]);
  if (builds.some((b) => b.outdir === join(dist, 'web'))) assertBundleIsNodeFree(join(dist, 'web', 'extension.js'));
  if (builds.some((b) => b.entryPoints?.webview)) assertBundleIsNodeFree(join(dist, 'webview.js'), STRICT_NODE_GLOBALS);
  // The metafile of a production build (not shipped: .vscodeignore is an allow-list): the bundle
  // budget's unit test reads the package's own build from it instead of building another one.
  if (distArg || production) writeFileSync(join(dist, 'meta.json'), JSON.stringify({ host, others: results.map((r) => r.metafile) }));
}
