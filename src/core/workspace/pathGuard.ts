// Decides whether a path that a model asked for lies inside the workspace. Pure Node:
// the workspace tools call it before they touch a file, and it is unit-tested against real temp
// folders and symlinks.
//
// Two steps, both required:
//  1. lexical: pick the workspace folder (multi-root: `folderName/rest`, else the first folder; or an
//     absolute path inside a folder), normalise, and reject `..` escapes and absolute paths elsewhere
//     without touching the file system;
//  2. real: resolve symlinks with realpath for the target AND the folder root, then check containment
//     again. A symlink inside the workspace that points outside is an escape (tools that
//     skipped this step let prompt injection read and write outside the project).
import { path as nodePath } from '../../platform/path';
import { nodeFs } from '../../platform/fs';

export type PathApi = typeof nodePath.posix;
export type RealpathFn = (p: string) => Promise<string>;

export interface GuardRoot {
  /** the workspace folder's name (used for `folderName/path` in multi-root workspaces) */
  name: string;
  /** absolute path of the folder: a file-system path (kind 'fs') or the path of a non-file URI (kind 'uri') */
  path: string;
  /** 'fs' (default): native separators, symlinks resolved with realpath. 'uri': posix paths of a virtual
   * file system, where there is no realpath; containment is lexical only. */
  kind?: 'fs' | 'uri';
}

export interface GuardOptions {
  /** default fs.promises.realpath */
  realpath?: RealpathFn;
  /** path flavour of 'fs' roots; default the platform's (node:path) */
  fsPath?: PathApi;
}

export type GuardFailureReason = 'no_workspace' | 'empty' | 'invalid' | 'outside' | 'inaccessible';

export interface GuardFailure {
  ok: false;
  reason: GuardFailureReason;
  /** readable by the model; says what was wrong */
  message: string;
}

export interface LexicalLocation {
  ok: true;
  rootIndex: number;
  /** path inside the root, '/'-separated, '' for the root itself */
  relative: string;
}

export interface GuardedPath {
  ok: true;
  rootIndex: number;
  /** what the model asked for, normalised and relative to the root ('/'-separated, '' = root) */
  relative: string;
  /** absolute path after lexical normalisation (symlinks not resolved) */
  lexicalPath: string;
  /** absolute path with every symlink resolved; equals lexicalPath for 'uri' roots. Read from this one. */
  realPath: string;
  /** index of the root that contains realPath (differs from rootIndex when a symlink points into another folder) */
  realRootIndex: number;
  /** realPath relative to the real path of that root, '/'-separated */
  realRelative: string;
  /** false when the target does not exist (nothing to read; callers report "not found") */
  exists: boolean;
}

export type GuardResult = GuardedPath | GuardFailure;

const URI_LIKE = /^[a-zA-Z][a-zA-Z0-9+.-]+:\/\//;

function apiOf(root: GuardRoot, options: GuardOptions | undefined): PathApi {
  return root.kind === 'uri' ? nodePath.posix : (options?.fsPath ?? nodePath);
}

function fail(reason: GuardFailureReason, message: string): GuardFailure {
  return { ok: false, reason, message };
}

/** true when `target` is `root` or lies below it. Both must be absolute and normalised. */
export function isContained(root: string, target: string, api: PathApi = nodePath): boolean {
  // path.relative compares case-insensitively on win32 and is exact on posix; a sibling that only
  // shares a prefix (`/ws` vs `/ws-evil`) yields `../ws-evil`, so no string-prefix trap.
  const rel = api.relative(root, target);
  if (rel === '') return true;
  if (api.isAbsolute(rel)) return false; // another drive on win32
  return rel !== '..' && !rel.startsWith('..' + api.sep) && !(api.sep !== '/' && rel.startsWith('../'));
}

function toSlashes(p: string, api: PathApi): string {
  return api.sep === '/' ? p : p.split(api.sep).join('/');
}

/** Step 1 (no file system access): which root, and which path inside it. */
export function locate(requested: unknown, roots: readonly GuardRoot[], options?: GuardOptions): LexicalLocation | GuardFailure {
  if (roots.length === 0) return fail('no_workspace', 'No workspace folder is open.');
  if (typeof requested !== 'string' || requested.trim() === '') {
    return fail('empty', 'The path is empty. Give a path relative to the workspace folder, e.g. "src/index.ts" (use "." for the folder itself).');
  }
  if (requested.includes('\0')) return fail('invalid', 'The path contains a NUL character.');
  const p = requested.trim();
  if (URI_LIKE.test(p)) {
    return fail('invalid', `"${p}" looks like a URI. Give a path relative to the workspace folder instead.`);
  }

  // Absolute: must lie inside one of the folders (deepest folder first, for nested folders).
  const byDepth = roots.map((r, i) => ({ r, i })).sort((a, b) => b.r.path.length - a.r.path.length);
  for (const { r, i } of byDepth) {
    const api = apiOf(r, options);
    if (!api.isAbsolute(p)) continue;
    const target = api.normalize(p);
    const rootPath = api.normalize(r.path);
    if (isContained(rootPath, target, api)) {
      return { ok: true, rootIndex: i, relative: toSlashes(api.relative(rootPath, target), api) };
    }
  }
  if (roots.some((r) => apiOf(r, options).isAbsolute(p))) {
    return fail('outside', `"${p}" is outside the workspace. Only files inside the workspace folder${roots.length > 1 ? 's' : ''} can be read.`);
  }

  // Relative. Multi-root: a leading segment that names a folder selects it; otherwise the first folder.
  let rootIndex = 0;
  let rest = p;
  if (roots.length > 1) {
    const m = /^([^/\\]+)(?:[/\\]+(.*))?$/s.exec(p);
    const named = m ? roots.findIndex((r) => r.name === m[1]) : -1;
    if (m && named >= 0) {
      rootIndex = named;
      rest = m[2] ?? '';
    }
  }
  const root = roots[rootIndex]!;
  const api = apiOf(root, options);
  const rootPath = api.normalize(root.path);
  const target = api.join(rootPath, rest === '' ? '.' : rest);
  if (!isContained(rootPath, target, api)) {
    return fail('outside', `"${p}" points outside the workspace (\`..\` may not leave the workspace folder).`);
  }
  return { ok: true, rootIndex, relative: toSlashes(api.relative(rootPath, target), api) };
}

/** Web build without an injected realpath: 'fs' roots cannot be checked, so nothing inside them is accepted. */
const noRealpath: RealpathFn = () => Promise.reject(Object.assign(new Error('no realpath in this build'), { code: 'ENOREALPATH' }));

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * realpath that also works for a path that does not exist: resolve the deepest existing ancestor
 * and append the rest. `exists` is false then, and callers must not read anything.
 */
async function realpathAllowMissing(p: string, api: PathApi, realpath: RealpathFn): Promise<{ real: string; exists: boolean }> {
  try {
    return { real: await realpath(p), exists: true };
  } catch (e) {
    if (!isMissing(e)) throw e;
  }
  const tail: string[] = [];
  let cur = p;
  for (;;) {
    const parent = api.dirname(cur);
    tail.unshift(api.basename(cur));
    if (parent === cur) throw new Error('no existing ancestor');
    cur = parent;
    try {
      const real = await realpath(cur);
      return { real: api.join(real, ...tail), exists: false };
    } catch (e) {
      if (!isMissing(e)) throw e;
    }
  }
}

/**
 * Steps 1 and 2. Resolves symlinks of the target and of every folder root before the containment
 * check. A target inside ANY folder's real path is accepted (a symlink from one folder into another
 * stays inside the workspace); anything else is 'outside'.
 */
export async function guardPath(requested: unknown, roots: readonly GuardRoot[], options?: GuardOptions): Promise<GuardResult> {
  const realpath = options?.realpath ?? nodeFs?.realpath ?? noRealpath;
  let located = locate(requested, roots, options);

  // The real roots are needed for step 2 anyway; they also let an absolute path given in its
  // resolved form (the root itself is a symlink) be recognised.
  const realRoots: (string | undefined)[] = await Promise.all(
    roots.map(async (r) => {
      const api = apiOf(r, options);
      if (r.kind === 'uri') return api.normalize(r.path);
      try {
        return await realpath(api.normalize(r.path));
      } catch {
        return undefined; // a folder that vanished: nothing inside it can be read
      }
    }),
  );

  if (!located.ok && located.reason === 'outside' && typeof requested === 'string') {
    const p = requested.trim();
    for (let i = 0; i < roots.length; i++) {
      const api = apiOf(roots[i]!, options);
      const real = realRoots[i];
      if (real !== undefined && api.isAbsolute(p) && isContained(real, api.normalize(p), api)) {
        located = { ok: true, rootIndex: i, relative: toSlashes(api.relative(real, api.normalize(p)), api) };
        break;
      }
    }
  }
  if (!located.ok) return located;

  const root = roots[located.rootIndex]!;
  const api = apiOf(root, options);
  const lexicalPath = api.join(api.normalize(root.path), located.relative === '' ? '.' : located.relative);
  const realRoot = realRoots[located.rootIndex];
  if (realRoot === undefined) {
    return fail('inaccessible', `The workspace folder "${root.name}" cannot be accessed.`);
  }

  if (root.kind === 'uri') {
    // No symlinks to resolve on a virtual file system; step 1 already checked containment.
    return {
      ok: true,
      rootIndex: located.rootIndex,
      relative: located.relative,
      lexicalPath,
      realPath: lexicalPath,
      realRootIndex: located.rootIndex,
      realRelative: located.relative,
      exists: true,
    };
  }

  let resolved: { real: string; exists: boolean };
  try {
    resolved = await realpathAllowMissing(lexicalPath, api, realpath);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ELOOP') return fail('invalid', `"${located.relative}" is a symbolic link loop.`);
    return fail('inaccessible', `"${located.relative}" cannot be accessed${code ? ` (${code})` : ''}.`);
  }

  // The owning folder first, then any other folder of the workspace.
  const order = [located.rootIndex, ...roots.map((_, i) => i).filter((i) => i !== located.rootIndex)];
  for (const i of order) {
    const real = realRoots[i];
    const r = roots[i]!;
    if (real === undefined || r.kind === 'uri') continue;
    const rApi = apiOf(r, options);
    if (isContained(real, resolved.real, rApi)) {
      return {
        ok: true,
        rootIndex: located.rootIndex,
        relative: located.relative,
        lexicalPath,
        realPath: resolved.real,
        realRootIndex: i,
        realRelative: toSlashes(rApi.relative(real, resolved.real), rApi),
        exists: resolved.exists,
      };
    }
  }
  return fail('outside', `"${located.relative}" resolves through a symbolic link to a location outside the workspace.`);
}
