// Platform seam: direct file-system access. The Node build reads `file` URIs with Node's fs (about
// 14x faster than vscode.workspace.fs in a remote host, see src/chat/tools/fileAccess.ts) and
// resolves symlinks with realpath (src/core/pathGuard.ts). The browser build swaps in fs.web.ts,
// where there is no such access: everything goes through vscode.workspace.fs.
import { promises as fsp } from 'node:fs';

export interface NodeFs {
  stat(p: string): Promise<{ isFile(): boolean; isDirectory(): boolean; size: number }>;
  readFile(p: string): Promise<Uint8Array>;
  realpath(p: string): Promise<string>;
  /**
   * Creates `p` with `bytes` only when nothing (file, folder, link, even a dangling one) is at
   * that name: open 'wx' (O_CREAT|O_EXCL never follows a link), the bytes written through that
   * handle, and no half file left when the write fails.
   */
  createExclusive(p: string, bytes: Uint8Array): Promise<'created' | 'taken'>;
}

export const nodeFs: NodeFs | undefined = {
  stat: (p) => fsp.stat(p),
  readFile: (p) => fsp.readFile(p),
  realpath: (p) => fsp.realpath(p),
  async createExclusive(p, bytes) {
    let handle;
    try {
      handle = await fsp.open(p, 'wx');
    } catch (err) {
      if ((err as { code?: string }).code === 'EEXIST') return 'taken';
      throw err;
    }
    try {
      await handle.writeFile(bytes);
    } catch (err) {
      await handle.close().catch(() => undefined);
      await fsp.rm(p, { force: true }).catch(() => undefined); // never leave half a file
      throw err;
    }
    await handle.close();
    return 'created';
  },
};
