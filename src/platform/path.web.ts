// Platform seam, web build: Node's posix path code as ported by path-browserify. Every path the web
// build handles is a URI path ('/'-separated); there is no native path flavour in a browser.
// path-browserify's resolve() reads process.cwd() only for a relative input; Modelgate resolves only
// absolute URI paths (relative() of two absolute paths never reaches it).
import posix from 'path-browserify';
import type { PathModule } from './path';

/** Only isAbsolute is used of win32 (a Windows path typed into a setting must not be taken as relative). */
const win32 = { isAbsolute: (p: string) => /^(?:[a-zA-Z]:[\\/]|[\\/]{2})/.test(p) };

export const path: PathModule = Object.assign(Object.create(posix) as object, posix, { posix, win32 }) as unknown as PathModule;
