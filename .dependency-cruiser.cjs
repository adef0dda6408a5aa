// Cycle check (`npm run lint:cycles`, over src/ and test/). Type-only imports count: with
// tsPreCompilationDeps dependency-cruiser reads `import type` and `typeof import('x')` before
// TypeScript erases them. The layer rules themselves are import zones in eslint.config.mjs.
//  - no-circular: no module reaches itself again through its imports;
//  - no-circular-folders: no folder does either, counting every import of every file in it, so two
//    layers (or two features) that lean on each other through different files are caught too.
//    A folder includes its subfolders, so files directly in src/ are not compared with its folders.
// src/platform/X.web.ts is what the web build takes instead of X.ts (esbuild.mjs platformSeam); here
// imports resolve to X.ts, and X.web.ts's own imports count for the folder check. platform/ imports
// nothing of the app (eslint zone), so no cycle can run through it either way.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a cycle (type-only imports count) ties its modules into one: move the shared piece down a layer (docs/architecture.md)',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      scope: 'folder',
      severity: 'error',
      comment: 'two folders import each other (through any of their files): one of them belongs below the other (docs/architecture.md)',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|out|\\.vscode-test)/' },
    moduleSystems: ['es6', 'cjs'],
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
