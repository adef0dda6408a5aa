// Platform seam: direct file-system access. The Node build reads `file` URIs with Node's fs (about
// 14x faster than vscode.workspace.fs in a remote host, see src/agentTools/fileAccess.ts) and
// resolves symlinks with realpath (src/core/workspace/pathGuard.ts). The browser build swaps in fs.web.ts,
// where there is no such access: everything goes through vscode.workspace.fs.
import { createHash, randomUUID } from 'node:crypto';
import { constants as fsc, promises as fsp } from 'node:fs';
import { hostname, platform } from 'node:os';
import { basename, dirname, join, parse, sep } from 'node:path';

export interface NodeFs {
  stat(p: string): Promise<{ isFile(): boolean; isDirectory(): boolean; size: number }>;
  readFile(p: string): Promise<Uint8Array>;
  realpath(p: string): Promise<string>;
  /** what is at `p` itself: a symbolic link is reported as 'link', never followed; 'missing' when nothing is there */
  lstatKind(p: string): Promise<'file' | 'directory' | 'link' | 'other' | 'missing'>;
  /** creates one folder; EEXIST when anything (a link too) is at that name */
  mkdir(p: string): Promise<void>;
  /**
   * Creates `p` with `bytes` only when nothing (file, folder, link, even a dangling one) is at
   * that name, and the name appears only with every byte in it: the bytes go to a temporary
   * file beside it, which is then hard-linked to `p` (link() fails with EEXIST when anything is
   * at `p` and never follows a link there) and removed. A process killed mid-write leaves at
   * most the hidden temporary file, never half an image under its name; the next save into
   * that folder removes such leftovers (isStaleTemp).
   */
  createExclusive(p: string, bytes: Uint8Array): Promise<'created' | 'taken'>;
  /**
   * Replaces the content of the existing regular file `p` (an absolute path with every link
   * already resolved) without following a link anywhere: each folder above it is checked with
   * lstat (a link there refuses), the file is opened with O_NOFOLLOW (a link at the name
   * refuses), and the opened handle must be the regular file lstat saw (same device and inode)
   * and still sit at `p` after the open; only then are the bytes written through that handle
   * and the rest cut off. Nothing is written when the answer is not 'written'.
   */
  writeExisting(p: string, bytes: Uint8Array, hooks?: WriteExistingHooks): Promise<WriteExistingResult>;
  /** how many names the regular file at `p` has (hard links; a link at `p` is not followed); 0 when none is there */
  hardLinks(p: string): Promise<number>;
  /**
   * The bytes of the regular file at `p`, read without following a link at the name (O_NOFOLLOW)
   * and only when the file has no other name (one hard link): undefined otherwise, or when missing.
   */
  readOwnFile(p: string): Promise<Uint8Array | undefined>;
}

/** why writeExisting wrote nothing; `at` is the path where it found the problem */
export type WriteExistingResult = { ok: true } | { ok: false; cause: 'link' | 'hardLink' | 'notDirectory' | 'notFile' | 'missing' | 'changed'; at: string };

/** test seam: runs between the checks and the open (a swap there is what the inode check catches) */
export interface WriteExistingHooks {
  beforeOpen?(): Promise<void> | void;
}

export const nodeFs: NodeFs | undefined = {
  stat: (p) => fsp.stat(p),
  readFile: (p) => fsp.readFile(p),
  realpath: (p) => fsp.realpath(p),
  async lstatKind(p) {
    try {
      const st = await fsp.lstat(p);
      return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'other';
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
      throw err;
    }
  },
  mkdir: (p) => fsp.mkdir(p).then(() => undefined),
  writeExisting,
  async hardLinks(p) {
    const st = await fsp.lstat(p).catch((err: unknown) => (codeOf(err) === 'ENOENT' || codeOf(err) === 'ENOTDIR' ? undefined : Promise.reject(err)));
    return st && st.isFile() ? st.nlink : 0;
  },
  async readOwnFile(p) {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(p, fsc.O_RDONLY | (fsc.O_NOFOLLOW ?? 0) | (fsc.O_NONBLOCK ?? 0));
    } catch {
      return undefined; // missing, a link (ELOOP), a FIFO: nothing to read here
    }
    try {
      const st = await handle.stat();
      if (!st.isFile() || st.nlink !== 1) return undefined;
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  },
  async createExclusive(p, bytes) {
    // Cheap early answer for a taken name (no temporary write); link() below is the real check.
    if (
      await fsp.lstat(p).then(
        () => true,
        () => false,
      )
    )
      return 'taken';
    const temp = join(dirname(p), `.${basename(p)}.${randomUUID()}.${WRITER}.tmp`);
    try {
      await writeNew(temp, bytes);
      try {
        await fsp.link(temp, p);
        await removeStaleTemps(dirname(p));
        return 'created';
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'EEXIST') return 'taken';
        // A file system without hard links (some network and FAT mounts): create in place.
        if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS' || code === 'EXDEV') return await createInPlace(p, bytes);
        throw err;
      }
    } finally {
      await fsp.rm(temp, { force: true }).catch(() => undefined);
    }
  },
};

const codeOf = (err: unknown) => (err as { code?: string }).code;

/** Every folder above `p`, outermost first (the file system root excluded). */
function parentsOf(p: string): string[] {
  const root = parse(p).root;
  const parts = p.slice(root.length).split(sep).filter(Boolean);
  const out: string[] = [];
  for (let i = 1; i < parts.length; i++) out.push(root + parts.slice(0, i).join(sep));
  return out;
}

/** lstat of each folder above `p`: the first that is a link or no folder, or undefined */
async function linkAbove(p: string): Promise<WriteExistingResult | undefined> {
  for (const dir of parentsOf(p)) {
    const st = await fsp.lstat(dir).catch((err: unknown) => (codeOf(err) === 'ENOENT' || codeOf(err) === 'ENOTDIR' ? undefined : Promise.reject(err)));
    if (!st) return { ok: false, cause: 'missing', at: dir };
    if (st.isSymbolicLink()) return { ok: false, cause: 'link', at: dir };
    if (!st.isDirectory()) return { ok: false, cause: 'notDirectory', at: dir };
  }
  return undefined;
}

// O_NOFOLLOW: open fails (ELOOP) when the last component is a link; O_NONBLOCK: a FIFO swapped in
// fails (ENXIO) instead of blocking the host; no O_TRUNC, nothing is cut before every check passed.
// Windows has neither flag: the inode comparison below does the work there.
const OPEN_FLAGS = fsc.O_WRONLY | (fsc.O_NOFOLLOW ?? 0) | (fsc.O_NONBLOCK ?? 0);

async function writeExisting(p: string, bytes: Uint8Array, hooks?: WriteExistingHooks): Promise<WriteExistingResult> {
  const above = await linkAbove(p);
  if (above) return above;
  const seen = await fsp.lstat(p).catch((err: unknown) => (codeOf(err) === 'ENOENT' || codeOf(err) === 'ENOTDIR' ? undefined : Promise.reject(err)));
  if (!seen) return { ok: false, cause: 'missing', at: p };
  if (seen.isSymbolicLink()) return { ok: false, cause: 'link', at: p };
  if (!seen.isFile()) return { ok: false, cause: 'notFile', at: p };
  // Another name of the same file may be outside the workspace: writing here would change it there.
  if (seen.nlink > 1) return { ok: false, cause: 'hardLink', at: p };
  await hooks?.beforeOpen?.();
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(p, OPEN_FLAGS);
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ELOOP' || code === 'EMLINK') return { ok: false, cause: 'link', at: p }; // EMLINK: FreeBSD's O_NOFOLLOW
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, cause: 'missing', at: p };
    if (code === 'ENXIO' || code === 'EISDIR') return { ok: false, cause: 'notFile', at: p };
    throw err;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { ok: false, cause: 'notFile', at: p };
    if (st.nlink > 1) return { ok: false, cause: 'hardLink', at: p };
    if (st.dev !== seen.dev || st.ino !== seen.ino) return { ok: false, cause: 'changed', at: p };
    // The open followed no link at the name, but one swapped in above it would have been
    // followed: the handle must still be the file at `p`, reached through real folders.
    if (!(await stillAt(handle, p, st))) return { ok: false, cause: 'changed', at: p };
    await handle.truncate(0);
    for (let done = 0; done < bytes.length;) {
      const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, done);
      done += bytesWritten;
    }
    return { ok: true };
  } finally {
    await handle.close();
  }
}

/** Whether the opened `handle` is the file at `p` now (no link above it, same inode). */
async function stillAt(handle: fsp.FileHandle, p: string, st: { dev: number; ino: number }): Promise<boolean> {
  // Linux names the file an open handle refers to: the truth, whatever was swapped meanwhile
  if (platform() === 'linux') {
    const named = await fsp.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (named !== undefined) return named === p;
  }
  if (await linkAbove(p)) return false;
  const now = await fsp.lstat(p).catch(() => undefined);
  return !!now && !now.isSymbolicLink() && now.dev === st.dev && now.ino === st.ino;
}

/** open 'wx' (O_CREAT|O_EXCL, never follows a link), the bytes through that handle, no half file on failure */
async function writeNew(p: string, bytes: Uint8Array): Promise<void> {
  const handle = await fsp.open(p, 'wx');
  try {
    await handle.writeFile(bytes);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fsp.rm(p, { force: true }).catch(() => undefined);
    throw err;
  }
  await handle.close();
}

async function createInPlace(p: string, bytes: Uint8Array): Promise<'created' | 'taken'> {
  try {
    await writeNew(p, bytes);
    return 'created';
  } catch (err) {
    if ((err as { code?: string }).code === 'EEXIST') return 'taken';
    throw err;
  }
}

/**
 * Temporary files of createExclusive: `.<name>.<uuid>.<host>-<pid>.tmp`, where host is a hash of
 * this machine's name and pid the writing process (the extension host); `.<name>.<uuid>.tmp`
 * from earlier versions. Groups: 1 host, 2 pid.
 */
export const TEMP_NAME = /^\..+\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:\.([0-9a-f]{8})-(\d{1,10}))?\.tmp$/;
/** older than this, a temporary file is no write in progress (another window's) but a crash's leftover */
export const STALE_TEMP_MS = 10 * 60_000;
/** this machine (a pid means something only on the machine that wrote it: folders can be shared) */
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const WRITER = `${HOST}-${process.pid}`;

/** false only when no process `pid` runs on this machine (signal 0 checks, sends nothing) */
function processRuns(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 1) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code !== 'ESRCH'; // EPERM: it runs, as another user
  }
}

/**
 * A leftover, not a write in progress: written on this machine by a process that is gone (a
 * killed window's extension host; removed by the next save right after the restart), or, from
 * any writer, untouched for STALE_TEMP_MS.
 */
export function isStaleTemp(name: string, mtimeMs: number, now = Date.now()): boolean {
  const m = TEMP_NAME.exec(name);
  if (!m) return false;
  if (now - mtimeMs > STALE_TEMP_MS) return true;
  return m[1] === HOST && Number(m[2]) !== process.pid && !processRuns(Number(m[2]));
}

/** Best effort: removes the temporary files a killed write left in `dir` (regular files only). */
async function removeStaleTemps(dir: string): Promise<void> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    if (!TEMP_NAME.test(name)) continue;
    const file = join(dir, name);
    const st = await fsp.lstat(file).catch(() => undefined);
    if (st?.isFile() && isStaleTemp(name, st.mtimeMs, now)) await fsp.rm(file, { force: true }).catch(() => undefined);
  }
}
