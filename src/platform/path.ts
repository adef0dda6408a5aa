// Platform seam: the path module. This file is the Node build's; the browser build (esbuild.mjs,
// `platformSeam`) swaps in path.web.ts at bundle time. No runtime sniffing.
import * as nodePath from 'node:path';

export type PathModule = typeof nodePath;
export const path: PathModule = nodePath;
