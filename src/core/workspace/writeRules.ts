// The pure half of the write guard (the file-system half is src/shared/writeGuard.ts): which
// workspace paths no write from a model may reach, which files change how tools run (their diff
// carries a warning), and the walk that checks, right before a write, that no component of a
// path is a symbolic link. Unit-tested in plain Node with a fake file system.
//
// Refused for every write (Apply, the edit tools, checkpoint restore, image saving), judged on the
// path as the answer named it AND on where it really leads:
//  - anything inside `.git` (hooks run code, config points at programs);
//  - anything inside `.vscode` (settings.json can turn on automatic tasks, tasks.json and
//    launch.json run programs: code that runs when the folder opens, the CVE-2025-53773 class);
//  - a `*.code-workspace` file (the same settings and tasks, for a multi-root workspace).
// A name counts as what the file systems would open for it (`foldName`): Windows opens `.vscode.`,
// `.vscode::$DATA`, `.VSCODE` and its 8.3 short name `VSCODE~1` as `.vscode`; HFS+ drops
// ignorable code points, so `.vs<zero-width joiner>code` is `.vscode` there.

export type ProtectedArea = 'git' | 'vscode' | 'workspaceFile';

/** Code points a file system may drop from a name (HFS+ does) and a reader does not see: ZWJ, BOM, bidi marks... */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
/** An 8.3 short name: up to 6 characters (fewer with a longer tail), `~` and a number, an extension of up to 3. */
const SHORT_NAME = /^([^~.]{1,7})~(\d{1,7})(?:\.([^.]{1,3}))?$/;
/** The short-name basis of each protected folder: the long name without its leading dot. */
const SHORT_BASES: readonly [string, string][] = [
  ['vscode', '.vscode'],
  ['git', '.git'],
];

/**
 * The long name a short name may stand for, where it may stand for a protected one: `VSCODE~1`,
 * `VSCOD~10` and the hashed form `VS1A2B~1` (two characters and four hex digits, after four
 * collisions) for `.vscode`; `GIT~1` for `.git`; `TEAM~1.COD` for a `*.code-workspace` file.
 * Windows decides which long name a short one is, so any that could be is taken as it.
 */
function longNameOf(name: string): string {
  const m = SHORT_NAME.exec(name);
  if (!m) return name;
  const [, prefix, , ext] = m as unknown as [string, string, string, string | undefined];
  if (ext !== undefined) return ext === 'cod' ? `${name}.code-workspace` : name;
  for (const [basis, long] of SHORT_BASES) {
    if (basis.startsWith(prefix)) return long;
    if (/^.{2}[0-9a-f]{4}$/.test(prefix) && basis.startsWith(prefix.slice(0, 2))) return long;
  }
  return name;
}

/**
 * The name a file system would open for a segment, lower case: ignorable code points dropped,
 * `name:stream` -> `name`, trailing dots and spaces dropped, case folded (through upper case, as
 * NTFS's upcase table does: `ſ` is `s`, `ı` is `i`), a short name read as the long name it may be.
 */
export function foldName(segment: string): string {
  const visible = segment.replace(IGNORABLE, '').normalize('NFC');
  const colon = visible.indexOf(':');
  const name = (colon > 0 ? visible.slice(0, colon) : visible).replace(/[. ]+$/, '');
  const folded = name.toUpperCase().toLowerCase();
  return folded ? longNameOf(folded) : segment.toLowerCase();
}

function segmentsOf(relative: string): string[] {
  return relative.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
}

/** The protected area a workspace-relative path (`/` or `\`) lies in, if any. */
export function protectedArea(relative: string): ProtectedArea | undefined {
  const names = segmentsOf(relative).map(foldName);
  if (names.includes('.git')) return 'git';
  if (names.includes('.vscode')) return 'vscode';
  const last = names[names.length - 1];
  if (last?.endsWith('.code-workspace')) return 'workspaceFile';
  return undefined;
}

export type ToolConfigKind = 'editor' | 'ci' | 'packages' | 'build' | 'hooks';

const CI_FILES = new Set([
  '.gitlab-ci.yml',
  '.travis.yml',
  'azure-pipelines.yml',
  'jenkinsfile',
  'bitbucket-pipelines.yml',
  'appveyor.yml',
  '.drone.yml',
  'cloudbuild.yaml',
  'cloudbuild.yml',
]);
const CI_FOLDERS = ['.github/workflows', '.github/actions', '.circleci', '.buildkite', '.azure-pipelines', '.gitea/workflows', '.forgejo/workflows'];
const PACKAGE_FILES = new Set([
  'package.json',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  'pnpm-workspace.yaml',
  'bunfig.toml',
  '.nvmrc',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'pipfile',
  'poetry.toml',
  'pip.conf',
  '.pypirc',
  'tox.ini',
  'noxfile.py',
  'cargo.toml',
  'build.rs',
  '.cargo/config.toml',
  'go.mod',
  'gemfile',
  '.gemrc',
  'composer.json',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'settings.gradle.kts',
  'gradle.properties',
  'nuget.config',
  'directory.build.props',
]);
const BUILD_FILES = new Set([
  'makefile',
  'gnumakefile',
  'justfile',
  'taskfile.yml',
  'rakefile',
  'dockerfile',
  'docker-compose.yml',
  'docker-compose.yaml',
  'compose.yml',
  'compose.yaml',
  '.envrc',
  '.editorconfig',
  '.gitattributes',
  '.gitmodules',
  '.tool-versions',
  '.mise.toml',
]);
const HOOK_FOLDERS = ['.husky', '.githooks', '.devcontainer'];
const HOOK_FILES = new Set(['.pre-commit-config.yaml', 'lefthook.yml', '.lintstagedrc', '.huskyrc']);

/**
 * Whether a write to this path changes how tools, tasks, CI or packages run (the diff says so
 * before Accept): editor configuration (`.vscode/*`, `*.code-workspace`, `.devcontainer`), CI
 * workflows, package manifests and package-manager configuration, build files and git hooks.
 */
export function toolConfigKind(relative: string): ToolConfigKind | undefined {
  const names = segmentsOf(relative).map(foldName);
  if (names.length === 0) return undefined;
  const joined = names.join('/');
  const base = names[names.length - 1]!;
  const under = (folders: readonly string[]) => folders.some((f) => joined.startsWith(`${f}/`) || joined.includes(`/${f}/`));
  if (names.includes('.vscode') || base.endsWith('.code-workspace')) return 'editor';
  if (under(CI_FOLDERS) || CI_FILES.has(base)) return 'ci';
  if (under(HOOK_FOLDERS) || HOOK_FILES.has(base) || names.includes('.git')) return 'hooks';
  if (PACKAGE_FILES.has(base) || PACKAGE_FILES.has(names.slice(-2).join('/')) || /^requirements[\w.-]*\.(txt|in)$/.test(base)) return 'packages';
  if (
    BUILD_FILES.has(base) ||
    /^(eslint|prettier|babel|webpack|vite|rollup|jest|vitest|esbuild)\.config\.[cm]?[jt]s$/.test(base) ||
    /^\.eslintrc(\.[cm]?js)?$/.test(base)
  )
    return 'build';
  return undefined;
}

export type PathKind = 'file' | 'directory' | 'link' | 'other' | 'missing';

export type NoLinkResult = { ok: true; existing: number } | { ok: false; cause: 'link' | 'notDirectory'; at: string };

/**
 * Walks `relative` below `root` one component at a time (`kindOf` must NOT follow links: lstat)
 * and fails at the first component that is a symbolic link, or a parent that is not a folder.
 * Stops at the first missing component (nothing below it exists yet). `existing` counts the
 * components that exist. `join` builds the path of each component.
 */
export async function checkNoLinks(
  root: string,
  relative: string,
  kindOf: (p: string) => Promise<PathKind>,
  join: (a: string, b: string) => string,
): Promise<NoLinkResult> {
  const segments = segmentsOf(relative);
  let cur = root;
  let existing = 0;
  for (let i = 0; i < segments.length; i++) {
    cur = join(cur, segments[i]!);
    const kind = await kindOf(cur);
    if (kind === 'missing') break;
    if (kind === 'link') return { ok: false, cause: 'link', at: segments.slice(0, i + 1).join('/') };
    if (i < segments.length - 1 && kind !== 'directory') return { ok: false, cause: 'notDirectory', at: segments.slice(0, i + 1).join('/') };
    existing++;
  }
  return { ok: true, existing };
}
