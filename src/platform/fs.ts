// Platform seam: direct file-system access. The Node build reads `file` URIs with Node's fs (about
// 14x faster than vscode.workspace.fs in a remote host, see src/chat/tools/fileAccess.ts) and
// resolves symlinks with realpath (src/core/workspace/pathGuard.ts). The browser build swaps in fs.web.ts,
// where there is no such access: everything goes through vscode.workspace.fs.
import { createHash, randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

export interface NodeFs {
  stat(p: string): Promise<{ isFile(): boolean; isDirectory(): boolean; size: number }>;
  readFile(p: string): Promise<Uint8Array>;
  realpath(p: string): Promise<string>;
  /**
   * Creates `p` with `bytes` only when nothing (file, folder, link, even a dangling one) is at
   * that name, and the name appears only with every byte in it: the bytes go to a temporary
   * file beside it, which is then hard-linked to `p` (link() fails with EEXIST when anything is
   * at `p` and never follows a link there) and removed. A process killed mid-write leaves at
   * most the hidden temporary file, never half an image under its name; the next save into
   * that folder removes such leftovers (isStaleTemp).
   */
  createExclusive(p: string, bytes: Uint8Array): Promise<'created' | 'taken'>;
}

export const nodeFs: NodeFs | undefined = {
  stat: (p) => fsp.stat(p),
  readFile: (p) => fsp.readFile(p),
  realpath: (p) => fsp.realpath(p),
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
