// Lint: the layer rules of src/ (issue 16, plan: core -> platform -> services -> features -> webview),
// zod's import form, and no exclusive tests. Modelled on vscode-copilot-chat and GitLens: the layers are
// import zones (import-x/no-restricted-paths), what a layer may not load at all ('vscode', Node's
// builtins) is a small local rule that sees every import form, type-only ones included.
// Cycles are checked by dependency-cruiser (.dependency-cruiser.cjs, `npm run lint:cycles`), formatting
// by Prettier (.prettierrc.json). No rule here needs type information, so lint stays fast.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import mocha from 'eslint-plugin-mocha';

// ---------------------------------------------------------------------------------------------------
// modelgate/no-restricted-modules: forbid modules by name in every form a file can load them:
// import / import type / export ... from / import() / require() / typeof import('x') / import x = require().
// (no-restricted-imports sees only the first three; the build's old core guard also caught the rest.)
const noRestrictedModules = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid modules (by regular expression on the specifier) in every import form' },
    schema: [
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { pattern: { type: 'string' }, message: { type: 'string' } },
          required: ['pattern', 'message'],
          additionalProperties: false,
        },
      },
    ],
    messages: { banned: "'{{source}}': {{message}}" },
  },
  create(context) {
    const bans = (context.options[0] ?? []).map((b) => ({ re: new RegExp(b.pattern), message: b.message }));
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      const ban = bans.find((b) => b.re.test(source));
      if (ban) context.report({ node, messageId: 'banned', data: { source, message: ban.message } });
    };
    const literal = (n) =>
      n && n.type === 'Literal' ? n.value : n && n.type === 'TemplateLiteral' && !n.expressions.length ? n.quasis[0].value.cooked : undefined;
    return {
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => check(n, literal(n.source)),
      TSImportType: (n) => check(n, n.argument?.literal?.value ?? n.source?.value),
      TSExternalModuleReference: (n) => check(n, literal(n.expression)),
      'CallExpression[callee.type="Identifier"][callee.name="require"]': (n) => check(n, literal(n.arguments[0])),
    };
  },
};
const local = { rules: { 'no-restricted-modules': noRestrictedModules } };

const VSCODE = { pattern: '^vscode$', message: "this layer must not import 'vscode' (it runs in plain Node and in the webview; docs/architecture.md)" };
const nodeNames = [...new Set(builtinModules.map((m) => m.replace(/\/.*/, '')))].map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
const NODE = {
  pattern: `^(node:.*|(${nodeNames.join('|')})(/.*)?)$`,
  message:
    "Node's builtins only in the Node side of a platform seam (src/platform/*.ts; the web build swaps in its *.web.ts sibling; everything else is in the web bundle)",
};
const restrictModules = (...bans) => ({ 'modelgate/no-restricted-modules': ['error', bans] });

// Node-only globals: the same split as Node's modules (esbuild.mjs still scans the web bundle's output).
const NODE_GLOBALS = ['Buffer', '__dirname', '__filename', 'setImmediate', 'clearImmediate', 'require', 'module', 'exports', 'process', 'global'].map(
  (name) => ({
    name,
    message: `'${name}' exists only in Node: use src/platform/ (or globalThis.${name}?.x where its absence is handled)`,
  }),
);

// ---------------------------------------------------------------------------------------------------
// The layers (docs/architecture.md). `target`: the files a zone applies to; `from`: what they may not import;
// `except`: what under `from` they may import after all. Paths are relative to this file.
const FEATURES = ['chat', 'images', 'lm', 'statusBar', 'spendingView', 'onboarding'];
const zone = (target, from, except, message) => ({ target, from, ...(except ? { except } : {}), message });
const ZONES = [
  zone(
    './src/core',
    './src',
    ['./core', './platform'],
    'core/ is pure: it imports only core/ (and platform/ primitives), never services, features, the webview or extension.ts',
  ),
  zone('./src/platform', './src', ['./platform'], 'platform/ holds leaf primitives: it imports nothing of the app'),
  zone(
    './src/services',
    './src',
    ['./core', './platform', './services'],
    'services/ import only core/, platform/ and services/, never a feature, featureLoading/ or the webview',
  ),
  zone(
    `./src/{${FEATURES.join(',')},featureLoading}/**`,
    './src/webview',
    undefined,
    "the host never imports the webview's browser code (share types through chat/protocol.ts)",
  ),
  zone('./src/webview', './src', ['./webview', './core', './chat/protocol.ts'], 'webview/ imports only its own files, chat/protocol.ts and pure core/ modules'),
  zone('./src/**', './src/extension.ts', undefined, 'src/extension.ts is the wiring: nothing imports it'),
];

// ---------------------------------------------------------------------------------------------------
// zod (replaces test/unit/bundle/zodImports.test.ts): the host bundle stays small only if zod is
// imported as a namespace (`import * as z from 'zod'`): esbuild then keeps the members we use and
// drops zod's ~40 locale files (258 KB). A named or default import makes the whole namespace,
// locales included, reachable again. Type-only imports cost nothing and are allowed.
// (esquery regexes cannot contain '/', hence \x2F.)
const ZOD = '/^zod($|\\x2F)/';
const ZOD_RULES = [
  {
    selector: `ImportDeclaration[importKind!='type'][source.value=${ZOD}] > :matches(ImportDefaultSpecifier, ImportSpecifier[importKind!='type'])`,
    message: "import zod as a namespace (`import * as z from 'zod'`) or type-only: a named or default import brings zod's locales into the bundle",
  },
  { selector: `ImportDeclaration[importKind!='type'][source.value=/^zod\\x2F.*locales/]`, message: "zod's locales are not bundled (258 KB)" },
  {
    selector: `:matches(ExportNamedDeclaration, ExportAllDeclaration)[exportKind!='type'][source.value=${ZOD}]`,
    message: "re-exporting zod's values brings its locales into the bundle; import * as z from 'zod' where needed",
  },
];

const TS = ['src/**/*.ts', 'test/**/*.ts'];
// the Node sides of the platform seams (each has a sibling X.web.ts)
const NODE_SEAMS = ['src/platform/*.ts', 'src/agentTools/regexScan.ts'];
export default defineConfig(
  { ignores: ['dist/**', 'dist-vsix/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', 'media/**'] },
  // the general rules: eslint's and typescript-eslint's recommended sets (no type information: fast)
  { files: TS, extends: [js.configs.recommended, tseslint.configs.recommended] },
  {
    files: TS,
    plugins: { 'import-x': importX, modelgate: local },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
    rules: {
      // a relative import that does not resolve would slip past the zones: fail it instead
      'import-x/no-unresolved': ['error', { ignore: ['^[^.]'] }],
      // TypeScript checks names (and knows the globals of each tsconfig)
      'no-undef': 'off',
      // deliberate here: `_name` for what is unused on purpose, control characters in sanitizers'
      // regexes, `(a, b)` sequences in one-line loops and `const controller = this` for getters
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-this-alias': 'off',
      'no-fallthrough': ['error', { allowEmptyCase: true }],
      // a `let` that a closure reads before its one assignment (a stop handler set up before the server starts)
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: ZONES }],
      'import-x/no-cycle': 'off', // dependency-cruiser does cycles (npm run lint:cycles), type-only imports included
      'no-restricted-syntax': ['error', ...ZOD_RULES],
      'no-restricted-globals': ['error', ...NODE_GLOBALS],
      ...restrictModules(NODE),
    },
  },
  // X.ts with a sibling X.web.ts is the Node side of a platform seam (esbuild.mjs swaps in X.web.ts for
  // the web build): Node's modules and globals are what it is for. platform/ holds the primitives; the
  // regex scan is the workspace tools' own seam (it runs their line matcher under a time limit).
  { files: NODE_SEAMS, ignores: ['src/**/*.web.ts'], rules: { ...restrictModules(VSCODE), 'no-restricted-globals': 'off' } },
  { files: ['src/agentTools/regexScan.ts'], rules: restrictModules() },
  { files: ['src/**/*.web.ts', 'src/core/**/*.ts', 'src/webview/**/*.ts'], rules: restrictModules(VSCODE, NODE) },
  // the Node side of the feature seam requires the feature bundles by literal path (esbuild.mjs keeps them
  // external), and so does the lm tokenizer seam (src/lm/tokenizers.ts: the tokenizer bundles)
  {
    files: ['src/featureLoading/featureBundles.ts', 'src/lm/tokenizers.ts'],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      'no-restricted-globals': ['error', ...NODE_GLOBALS.filter((g) => g.name !== 'require')],
    },
  },
  {
    files: ['test/**/*.ts'],
    plugins: { mocha },
    rules: { 'mocha/no-exclusive-tests': 'error' },
  },
  // the simulator's wire fixtures are untyped JSON
  { files: ['test/gateway/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // the bench re-requires the built bundle (require.cache) to time activation
  { files: ['test/bench/run.ts'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
