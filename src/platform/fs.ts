// Platform seam: direct file-system access. The Node build reads `file` URIs with Node's fs (about
// 14x faster than vscode.workspace.fs in a remote host, see src/chat/tools/fileAccess.ts) and
// resolves symlinks with realpath (src/core/pathGuard.ts). The browser build swaps in fs.web.ts,
// where there is no such access: everything goes through vscode.workspace.fs.
import { promises as fsp } from 'node:fs';

export interface NodeFs {
  stat(p: string): Promise<{ isFile(): boolean; isDirectory(): boolean; size: number }>;
  readFile(p: string): Promise<Uint8Array>;
  realpath(p: string): Promise<string>;
}

export const nodeFs: NodeFs | undefined = {
  stat: (p) => fsp.stat(p),
  readFile: (p) => fsp.readFile(p),
  realpath: (p) => fsp.realpath(p),
};
