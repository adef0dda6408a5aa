// What the .vsix ships, as `vsce ls` lists it from .vscodeignore (the allow-list) with the flags of
// the `package` script. Fails on anything that must not ship (sources, tests, source maps, docs,
// build and test folders) and on a missing must-ship file. `vsce ls` lists only files that exist,
// so the built bundles are checked only when dist/ is there (`npm test` builds it before the unit
// stage; a bare `npm run test:unit` on a fresh clone does not): that check is skipped, with the
// reason printed, when dist/ is absent.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();
const vsce = join(root, 'node_modules/@vscode/vsce/vsce');

/** Files that are in the repository but must never be in the package, each with the reason. */
const NOT_SHIPPED: [RegExp, string][] = [
  [/\.(ts|mts|cts|tsx)$/, 'TypeScript source'],
  [/\.map$/, 'source map'],
  [/(^|\/)src\//, 'src/'],
  [/(^|\/)test\//, 'test/'],
  [/\.test\.js$/, 'compiled test'],
  [/(^|\/)out\//, 'out/ (compiled tests, harness, simulator)'],
  [/(^|\/)docs\//, 'docs/'],
  [/(^|\/)node_modules\//, 'node_modules'],
  [/(^|\/)\.vscode-test\//, '.vscode-test'],
  [/(^|\/)\.vscode\//, '.vscode/'],
  [/(^|\/)\.ci\//, '.ci/'],
  [/(^|\/)test-results\//, 'test-results/'],
  [/(^|\/)dist-vsix\/|\.vsix$/, 'a packaged .vsix'],
  [/(^|\/)\.git(\/|ignore$)/, 'git files'],
  [/^(esbuild\.mjs|package-lock\.json|tsconfig[^/]*\.json|eslint\.config\.[cm]?js|\.dependency-cruiser\.[cm]?js)$/, 'build or lint configuration'],
];
/** Everything shipped lives in one of these (a new top-level name has to be added here on purpose). */
const TOP_LEVEL = /^(package\.json|package\.nls(\.[\w-]+)?\.json|README\.md|CHANGELOG\.md|LICENSE|dist\/|media\/)/;

/** Each listed file that must not ship, with why. */
export function unwanted(files: string[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const hit = NOT_SHIPPED.find(([re]) => re.test(file));
    if (hit) out.push(`${file}: ${hit[1]}`);
    else if (!TOP_LEVEL.test(file)) out.push(`${file}: not under a shipped top-level name`);
  }
  return out;
}

const MUST_SHIP = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'media/icon.png'];
/**
 * The feature bundles esbuild.mjs builds (its FEATURES): dist/extension.js requires each on the
 * feature's first use, so a package without one fails only when that feature is first used.
 */
function featureBundles(): string[] {
  const m = /const FEATURES = \{([^}]*)\}/.exec(readFileSync(join(root, 'esbuild.mjs'), 'utf8'));
  assert.ok(m, 'esbuild.mjs declares its FEATURES');
  return [...m[1]!.matchAll(/(\w+):/g)].map((f) => `dist/${f[1]}.js`);
}
const MUST_SHIP_BUILT = [
  'dist/extension.js',
  ...featureBundles(),
  // zod, required by the main bundle on the first call of a zod function (esbuild.mjs, lazyZod)
  'dist/zod.js',
  'dist/web/extension.js',
  'dist/webview.js',
  'dist/tokenizer-o200k.js',
  'dist/tokenizer-cl100k.js',
];

interface Manifest {
  name: string;
  icon?: string;
  main?: string;
  browser?: string;
  repository?: { url?: string };
  scripts: Record<string, string>;
}

describe('packaging: what the .vsix ships (vsce ls)', () => {
  let manifest: Manifest;
  let files: string[];

  before(function () {
    this.timeout(120_000);
    manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
    assert.equal(manifest.name, 'modelgate', `the tests run from the repository root (cwd ${root})`);
    // The same dependency flag as the `package` script, so the list is what `npm run package` packs.
    const args = [vsce, 'ls', ...(/--no-dependencies\b/.test(manifest.scripts.package ?? '') ? ['--no-dependencies'] : [])];
    let stdout: string;
    try {
      stdout = execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 110_000 });
    } catch (err) {
      const e = err as { status?: number; stderr?: string; message: string };
      throw new Error(`vsce ls failed (exit ${e.status ?? '?'}): ${e.stderr || e.message}`);
    }
    files = stdout
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
  });

  it('vsce ls lists the package', () => {
    assert.ok(files.includes('package.json'), `package.json is listed (got ${files.length} lines: ${files.slice(0, 5).join(', ')})`);
  });

  it('ships nothing that is not meant to ship', () => {
    assert.deepEqual(unwanted(files), [], `files that must not ship:\n  ${unwanted(files).join('\n  ')}`);
  });

  it('the check names each kind of file that must not ship', () => {
    const bad = [
      'src/extension.ts',
      'dist/extension.js.map',
      'test/unit/a.test.ts',
      'out/test/unit/a.test.js',
      'docs/architecture.md',
      'node_modules/zod/index.js',
      '.vscode-test/demo/x.json',
      'dist/types.d.ts',
      'esbuild.mjs',
      'tsconfig.json',
      '.ci/run',
    ];
    assert.equal(unwanted(bad).length, bad.length, unwanted(bad).join('\n'));
    assert.deepEqual(unwanted([...MUST_SHIP, ...MUST_SHIP_BUILT, 'package.nls.json', 'media/l10n/bundle.l10n.json', 'dist/chat.js']), []);
  });

  it('ships the manifest, README, LICENSE, CHANGELOG and the icon', () => {
    const missing = MUST_SHIP.filter((f) => !files.includes(f));
    assert.deepEqual(missing, [], `missing from the package: ${missing.join(', ')}`);
    assert.equal(manifest.icon, 'media/icon.png', 'package.json names the shipped icon');
    const png = readFileSync(join(root, 'media/icon.png'));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', 'the icon is a PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], 'the icon is 128 x 128');
  });

  it('ships the built bundles: dist/extension.js, every feature bundle and dist/zod.js it requires on first use, dist/web/extension.js, dist/webview.js', function () {
    if (!existsSync(join(root, 'dist'))) {
      console.log('      skipped: dist/ is absent, and vsce ls lists only files that exist; run `npm run build` (npm test builds it) to check the bundles');
      this.skip();
    }
    const missing = MUST_SHIP_BUILT.filter((f) => !files.includes(f));
    assert.deepEqual(missing, [], `missing from the package: ${missing.join(', ')}`);
    assert.ok(files.includes(manifest.main?.replace(/^\.\//, '') ?? ''), `main (${manifest.main}) ships`);
    assert.ok(files.includes(manifest.browser?.replace(/^\.\//, '') ?? ''), `browser (${manifest.browser}) ships`);
  });

  it("the README's relative links and images point at files in the repository, rewritten by vsce to the repository", () => {
    // VS Code's extension page loads only https: and data: images, and docs/ is not packaged, so
    // vsce must rewrite relative links to the repository (https://github.com/…/raw|blob/HEAD/…).
    assert.match(manifest.repository?.url ?? '', /^https:\/\/github\.com\//, 'package.json has a GitHub repository');
    assert.doesNotMatch(manifest.scripts.package ?? '', /--no-rewrite-relative-links|--skip-license|--allow-missing-repository/);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1] as string).filter((t) => !/^(\w+:|#)/.test(t));
    assert.ok(
      targets.some((t) => t.startsWith('media/screenshots/')),
      'the screenshots are linked',
    );
    const broken = targets.filter((t) => !existsSync(join(root, t.replace(/#.*$/, ''))));
    assert.deepEqual(broken, [], `README links to missing files: ${broken.join(', ')}`);
  });
});
