// The languages of code blocks and files, and whether a block's language fits a document's.

// ---------------------------------------------------------------- languages

/** Fence names that are not VS Code language ids. */
const FENCE_ALIASES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  jsx: 'javascriptreact',
  mjs: 'javascript',
  cjs: 'javascript',
  node: 'javascript',
  py: 'python',
  python3: 'python',
  rb: 'ruby',
  rs: 'rust',
  golang: 'go',
  kt: 'kotlin',
  kts: 'kotlin',
  cs: 'csharp',
  'c#': 'csharp',
  'c++': 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  h: 'c',
  sh: 'shellscript',
  bash: 'shellscript',
  zsh: 'shellscript',
  shell: 'shellscript',
  ps1: 'powershell',
  pwsh: 'powershell',
  yml: 'yaml',
  md: 'markdown',
  htm: 'html',
  objc: 'objective-c',
  fs: 'fsharp',
  ex: 'elixir',
  exs: 'elixir',
  hs: 'haskell',
  pl: 'perl',
  docker: 'dockerfile',
  make: 'makefile',
  tf: 'terraform',
  patch: 'diff',
  text: 'plaintext',
  txt: 'plaintext',
  plain: 'plaintext',
};

const EXTENSIONS: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascriptreact',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  cs: 'csharp',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  m: 'objective-c',
  mm: 'objective-cpp',
  swift: 'swift',
  rb: 'ruby',
  php: 'php',
  sh: 'shellscript',
  bash: 'shellscript',
  zsh: 'shellscript',
  ps1: 'powershell',
  json: 'json',
  jsonc: 'jsonc',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  md: 'markdown',
  html: 'html',
  htm: 'html',
  css: 'css',
  scss: 'scss',
  less: 'less',
  sql: 'sql',
  lua: 'lua',
  dart: 'dart',
  scala: 'scala',
  vue: 'vue',
  svelte: 'svelte',
  xml: 'xml',
  ex: 'elixir',
  exs: 'elixir',
  hs: 'haskell',
  r: 'r',
  pl: 'perl',
  txt: 'plaintext',
  diff: 'diff',
  patch: 'diff',
};

/** The VS Code language id a fence name stands for ("ts" -> "typescript"); undefined for none. */
export function languageIdOfFence(lang: string | undefined): string | undefined {
  if (!lang) return undefined;
  const l = lang.toLowerCase();
  return FENCE_ALIASES[l] ?? l;
}

/** The language id a file name suggests, from its extension; undefined when unknown. */
export function languageIdOfPath(path: string): string | undefined {
  const base = path.split(/[/\\]/).pop() ?? '';
  if (base === 'Dockerfile') return 'dockerfile';
  if (base === 'Makefile') return 'makefile';
  const ext = /\.([A-Za-z0-9]+)$/.exec(base)?.[1]?.toLowerCase();
  return ext ? EXTENSIONS[ext] : undefined;
}

const FAMILIES: string[][] = [
  ['typescript', 'typescriptreact', 'javascript', 'javascriptreact', 'vue', 'svelte'],
  ['c', 'cpp', 'objective-c', 'objective-cpp', 'cuda-cpp'],
  ['json', 'jsonc', 'json5'],
  ['css', 'scss', 'less'],
  ['html', 'xml', 'vue', 'svelte', 'php'],
  ['shellscript', 'dockerfile', 'makefile'],
];
/** Languages whose blocks say nothing about the file they belong in. */
const NEUTRAL = new Set(['plaintext', 'text', 'markdown', 'output', 'console', 'log']);

/**
 * Whether a block of language `block` may go into a document of language `doc` without
 * asking. Unknown or neutral on either side is never a mismatch; a Go block into a
 * TypeScript file is.
 */
export function languagesCompatible(block: string | undefined, doc: string | undefined): boolean {
  if (!block || !doc || NEUTRAL.has(block) || NEUTRAL.has(doc)) return true;
  if (block === doc) return true;
  return FAMILIES.some((f) => f.includes(block) && f.includes(doc));
}

/** A readable name of a language id ("typescript" -> "TypeScript"). */
export function languageName(id: string): string {
  const names: Record<string, string> = {
    typescript: 'TypeScript',
    typescriptreact: 'TypeScript (TSX)',
    javascript: 'JavaScript',
    javascriptreact: 'JavaScript (JSX)',
    go: 'Go',
    python: 'Python',
    rust: 'Rust',
    java: 'Java',
    csharp: 'C#',
    cpp: 'C++',
    c: 'C',
    shellscript: 'shell script',
    json: 'JSON',
    yaml: 'YAML',
    html: 'HTML',
    css: 'CSS',
    ruby: 'Ruby',
    php: 'PHP',
    kotlin: 'Kotlin',
    swift: 'Swift',
    sql: 'SQL',
    diff: 'a diff',
    markdown: 'Markdown',
  };
  return names[id] ?? id;
}
