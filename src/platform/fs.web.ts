// Platform seam, web build: no direct file system. Callers fall back to vscode.workspace.fs, and the
// path guard treats every workspace folder as a URI root (lexical containment) while
// src/agentTools/symlinkGuard.ts refuses any path that goes through a symbolic link.
import type { NodeFs } from './fs';

export const nodeFs: NodeFs | undefined = undefined;
