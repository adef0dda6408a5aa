// Lint: the layer rules of src/ (docs/architecture.md: platform <- core <- services <- shared <- the features,
// the chat's two domains under the chat <- featureLoading <- extension.ts; the webview apart), zod's import
// form, and no exclusive tests. Modelled on vscode-copilot-chat and GitLens: the layers are import zones
// (import-x/no-restricted-paths), what a layer may not load at all ('vscode', Node's builtins) is a small
// local rule that sees every import form, type-only ones included.
// Cycles are checked by dependency-cruiser (.dependency-cruiser.cjs, `npm run lint:cycles`), formatting
// by oxfmt (.oxfmtrc.json, Prettier's style). No rule here needs type information, so lint stays fast.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import mocha from 'eslint-plugin-mocha';

// ---------------------------------------------------------------------------------------------------
// modelgate/no-restricted-modules: forbid modules by name in every form a file can load them:
// import / import type / export ... from / import() / require() / typeof import('x') / import x = require().
// (no-restricted-imports sees only the first three; the build's old core guard also caught the rest.)
// A ban with `allowTypeImports` lets `import type`, `export type` and `typeof import('x')` through: they
// are erased, so a file that must run without the module may still name its types.
const noRestrictedModules = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid modules (by regular expression on the specifier) in every import form' },
    schema: [
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { pattern: { type: 'string' }, message: { type: 'string' }, allowTypeImports: { type: 'boolean' } },
          required: ['pattern', 'message'],
          additionalProperties: false,
        },
      },
    ],
    messages: { banned: "'{{source}}': {{message}}" },
  },
  create(context) {
    const bans = (context.options[0] ?? []).map((b) => ({ re: new RegExp(b.pattern), message: b.message, types: b.allowTypeImports === true }));
    const check = (node, source, typeOnly = false) => {
      if (typeof source !== 'string') return;
      const ban = bans.find((b) => b.re.test(source) && !(typeOnly && b.types));
      if (ban) context.report({ node, messageId: 'banned', data: { source, message: ban.message } });
    };
    const literal = (n) =>
      n && n.type === 'Literal' ? n.value : n && n.type === 'TemplateLiteral' && !n.expressions.length ? n.quasis[0].value.cooked : undefined;
    return {
      ImportDeclaration: (n) => check(n, n.source.value, n.importKind === 'type'),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value, n.exportKind === 'type'),
      ExportAllDeclaration: (n) => check(n, n.source.value, n.exportKind === 'type'),
      ImportExpression: (n) => check(n, literal(n.source)),
      TSImportType: (n) => check(n, n.argument?.literal?.value ?? n.source?.value, true),
      TSExternalModuleReference: (n) => check(n, literal(n.expression)),
      'CallExpression[callee.type="Identifier"][callee.name="require"]': (n) => check(n, literal(n.arguments[0])),
    };
  },
};

// modelgate/plain-node-claim: a file whose opening comment says it is pure or runs in plain Node makes a
// promise that only a rule keeps. Outside core/ (pure as a layer), the webview and platform/, such a file
// belongs in PLAIN_NODE below, where 'vscode' is refused; this rule reports one that is not listed.
const CLAIM = /\bPure\b|\bplain Node\b/;
const plainNodeClaim = {
  meta: {
    type: 'problem',
    docs: { description: "a file that says it runs without VS Code is in the zone that refuses 'vscode'" },
    schema: [],
    messages: {
      unlisted: "this file's opening comment says '{{claim}}': add it to PLAIN_NODE in eslint.config.mjs (no 'vscode' there) or move it into src/core/",
    },
  },
  create(context) {
    return {
      Program(node) {
        const opening = /^(?:\s*(?:\/\/[^\n]*|\/\*[\s\S]*?\*\/))*/.exec(context.sourceCode.getText())[0];
        const claim = CLAIM.exec(opening);
        if (claim) context.report({ node, loc: { line: 1, column: 0 }, messageId: 'unlisted', data: { claim: claim[0] } });
      },
    };
  },
};
const local = { rules: { 'no-restricted-modules': noRestrictedModules, 'plain-node-claim': plainNodeClaim } };

const VSCODE = { pattern: '^vscode$', message: "this layer must not import 'vscode' (it runs in plain Node and in the webview; docs/architecture.md)" };
const VSCODE_AT_RUNTIME = {
  pattern: '^vscode$',
  allowTypeImports: true,
  message: "this file says it runs in plain Node: no 'vscode' at run time (types only: `import type`); docs/architecture.md",
};
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
// The features sit side by side and never import each other: they meet through an interface the caller
// declares, wired in featureLoading/ or extension.ts (the chat's generate_image: PanelImageToolLike).
const FEATURES = ['chat', 'images', 'lm', 'completions', 'statusBar', 'spendingView', 'onboarding'];
// The chat's lower domains, part of the chat feature (and of its bundle): what a model may call, and model
// text going into the user's files. Every arrow between the three is listed here; no other feature imports them.
const CHAT_DOMAINS = ['agentTools', 'workspaceEdits'];
const MAY_IMPORT = { chat: ['agentTools', 'workspaceEdits'], workspaceEdits: ['agentTools'], agentTools: [] };
const BELOW_FEATURES = ['./core', './platform', './services', './shared'];
const FEATURE_MESSAGES = {
  chat: 'chat/ (the panel) imports core/, platform/, services/, shared/ and its domains agentTools/ and workspaceEdits/, never another feature (features meet through an interface wired in featureLoading/ or extension.ts)',
  agentTools:
    'agentTools/ (what a model may call) imports only core/, platform/, services/ and shared/: never chat/ (the panel hands in Approvals) nor workspaceEdits/ (it implements EditHost)',
  workspaceEdits: 'workspaceEdits/ (model text into files) imports core/, platform/, services/, shared/ and agentTools/, never chat/ (the panel calls it)',
  other: (f) =>
    `${f}/ is a feature: it imports core/, platform/, services/ and shared/, never another feature (declare an interface; featureLoading/ or extension.ts wires it)`,
};
const zone = (target, from, except, message) => ({ target, from, ...(except ? { except } : {}), message });

// core/ files that reach Node code (a platform/ primitive, through any chain of core/ imports; `import type`
// is erased and does not count): the webview's bundle must not take them (its platform seam is a safety net).
function coreFilesReachingPlatform() {
  const root = import.meta.dirname;
  const core = join(root, 'src', 'core');
  const files = readdirSync(core, { recursive: true })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(core, f));
  const imports = new Map(
    files.map((f) => [
      f,
      [...readFileSync(f, 'utf8').matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^;]*?\sfrom\s+)?'(\.[^']+)'/gm)].map((m) => resolve(dirname(f), m[1])),
    ]),
  );
  const reaches = new Map();
  const visit = (f, seen = new Set()) => {
    if (reaches.has(f)) return reaches.get(f);
    if (seen.has(f)) return false;
    seen.add(f);
    const hit = (imports.get(f) ?? []).some((t) => t.startsWith(join(root, 'src', 'platform')) || visit(`${t}.ts`, seen) || visit(join(t, 'index.ts'), seen));
    reaches.set(f, hit);
    return hit;
  };
  return files.filter((f) => visit(f)).map((f) => `./${relative(root, f)}`);
}
const CORE_REACHING_NODE = coreFilesReachingPlatform();

const ZONES = [
  zone(
    './src/core',
    './src',
    ['./core', './platform'],
    'core/ is pure: it imports only core/ (and platform/ primitives), never services, shared helpers, features, the webview or extension.ts',
  ),
  zone('./src/platform', './src', ['./platform'], 'platform/ holds leaf primitives: it imports nothing of the app'),
  zone(
    './src/services',
    './src',
    ['./core', './platform', './services'],
    'services/ import only core/, platform/ and services/, never a shared helper, a feature, featureLoading/ or the webview',
  ),
  zone(
    './src/shared',
    './src',
    ['./core', './platform', './services', './shared'],
    'shared/ (helpers the features share) imports only core/, platform/, services/ and shared/, never a feature',
  ),
  ...[...FEATURES, ...CHAT_DOMAINS].map((f) =>
    zone(`./src/${f}`, './src', [...BELOW_FEATURES, `./${f}`, ...(MAY_IMPORT[f] ?? []).map((d) => `./${d}`)], FEATURE_MESSAGES[f] ?? FEATURE_MESSAGES.other(f)),
  ),
  zone(
    [`./src/{${[...FEATURES, ...CHAT_DOMAINS].join(',')},featureLoading}/**`, './src/*.ts'],
    './src/webview',
    undefined,
    "the host never imports the webview's browser code (share types through chat/protocol.ts)",
  ),
  zone('./src/webview', './src', ['./webview', './core', './chat/protocol.ts'], 'webview/ imports only its own files, chat/protocol.ts and pure core/ modules'),
  ...(CORE_REACHING_NODE.length
    ? [
        zone(
          './src/webview',
          CORE_REACHING_NODE,
          undefined,
          "this core/ file reaches platform/ (Node code in the Node build): the panel's bundle may take only core/ files that do not",
        ),
      ]
    : []),
  zone('./src/**', './src/extension.ts', undefined, 'src/extension.ts is the wiring: nothing imports it'),
  zone('./src', './test', undefined, 'src/ never imports test/ (tests, harness and simulator are no part of the product)'),
];

// Files outside core/ that say they run in plain Node ("Pure", "unit-tested in plain Node"): no 'vscode'
// at run time. modelgate/plain-node-claim reports such a file that is not listed here.
const PLAIN_NODE = [
  'src/agentTools/{approvalQueue,commandOutput,schemas,sensitivePrompt,stagedNote,text,textScan}.ts',
  'src/agentTools/vscodeTools/choice.ts',
  'src/chat/answers/{answerLoop,cacheLossWarning}.ts',
  'src/chat/compaction/overflowErrors.ts',
  'src/chat/cards/panelApprovals.ts',
  'src/chat/context/{systemPrompt,turnContext}.ts',
  'src/chat/conversations/{conversationFullText,conversationMerge,conversationSearch,conversationStore,conversationTranscript}.ts',
  'src/chat/view/{chatHtml,insertion}.ts',
  'src/images/{fileNames,imageLinks,imageOptions,imagePriceText,imageRequest,pngText}.ts',
  'src/lm/{keyPresence,lmMessages,lmTokens,lmTools,modelFamily,modelInformation,reasoningMemory,responseStream,tokenizerChoice,vsCodeChatPlan}.ts',
  'src/spendingView/spendHtml.ts',
  'src/spendingView/spendHistoryHtml.ts',
  'src/spendingView/spendCost.ts',
  'src/services/secretCache.ts',
  'src/workspaceEdits/apply/blockPaths.ts',
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
      'no-restricted-syntax': [
        'error',
        ...ZOD_RULES,
        { selector: 'TSImportType', message: "name a module's types with `import type` at the top: the layer zones do not see `import('...')` types" },
      ],
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
  // files outside core/ that say they run in plain Node: no 'vscode' at run time; one that says so and is not listed is reported
  { files: PLAIN_NODE, rules: restrictModules(VSCODE_AT_RUNTIME, NODE) },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/core/**', 'src/platform/**', 'src/webview/**', ...PLAIN_NODE],
    rules: { 'modelgate/plain-node-claim': 'error' },
  },
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
