// Platform seam, web build: no direct file system. The shared folders go through vscode.workspace.fs
// (src/services/storageFiles.ts), the only way the web extension host reaches its global storage.
import type { DirectFolder } from './sharedFolder';

export const directFolder: DirectFolder | undefined = undefined;
