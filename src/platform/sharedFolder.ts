// Platform seam: the folders several windows share in the extension's global storage (the chat
// history, the spend ledger), read and written with Node's fs where the folder is on this host's
// disk. Through vscode.workspace.fs each call of a remote or desktop extension host is a round
// trip to the window first (VS Code asks the window to activate the scheme's provider, and a
// rename goes through the window to the server), so a save of the chat (read the index, write a
// temporary file, rename it, the same for the index) waited for the window several times, behind
// whatever the panel was drawing. The web build swaps in sharedFolder.web.ts: no direct access.
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';

export interface DirectFolder {
  /** names of the regular files in `dir`; empty when it does not exist */
  list(dir: string): Promise<string[]>;
  /** the file's text; undefined when it does not exist (other failures throw) */
  read(path: string): Promise<string | undefined>;
  /**
   * Replaces `dir/name` with `text` as a whole: the text goes to a temporary file of its own
   * (`name.<uuid>.tmp`, so two windows saving the same name never rename each other's) and is
   * renamed over the old file, which the file system does in one step: a reader, or a process
   * killed at any point, finds the old content or the new. Creates `dir` when missing.
   */
  replace(dir: string, name: string, text: string): Promise<void>;
  /** removes the file; nothing when it is already gone */
  remove(path: string): Promise<void>;
  /** the modification time of `path` in ms, which every create, rename and delete in a folder changes; undefined when missing */
  mtime(path: string): Promise<number | undefined>;
}

const missing = (err: unknown) => {
  const code = (err as { code?: string }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/** Windows refuses a rename over a file another process holds open for a moment (a reader in another window). */
const busy = (err: unknown) => {
  const code = (err as { code?: string }).code;
  return code === 'EPERM' || code === 'EACCES' || code === 'EBUSY';
};

export const directFolder: DirectFolder | undefined = {
  async list(dir) {
    try {
      return (await fsp.readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
    } catch (err) {
      if (missing(err)) return [];
      throw err;
    }
  },
  async read(path) {
    try {
      return await fsp.readFile(path, 'utf8');
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
  },
  async replace(dir, name, text) {
    await fsp.mkdir(dir, { recursive: true });
    const temp = join(dir, `${name}.${randomUUID()}.tmp`);
    await fsp.writeFile(temp, text, { flag: 'wx' });
    for (let attempt = 1; ; attempt++) {
      try {
        await fsp.rename(temp, join(dir, name));
        return;
      } catch (err) {
        if (attempt >= 8 || !busy(err)) {
          await fsp.rm(temp, { force: true }).catch(() => undefined);
          throw err;
        }
        await new Promise((r) => setTimeout(r, 10 * attempt));
      }
    }
  },
  async remove(path) {
    await fsp.rm(path, { force: true });
  },
  async mtime(path) {
    try {
      return (await fsp.stat(path)).mtimeMs;
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
  },
};
