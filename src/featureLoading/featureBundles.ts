// Platform seam, Node build: the chat, images, language-model and completions features are separate bundles
// (dist/chat.js, dist/images.js, dist/lm.js, dist/completions.js) next to dist/extension.js, required on first use, so
// activation parses only the main bundle. The feature bundles do not carry their own copy of the
// code the main bundle already has (src/core, the services, zod): esbuild.mjs replaces those
// imports with the main bundle's live modules, handed over here (provideSharedModules), so there
// is one GatewayError class, one l10n translator, one zod, one of every module's state. zod itself
// is dist/zod.js, which the main bundle's stand-in for it requires on the first call of a zod function.
import type * as Chat from '../chat';
import type * as Images from '../images';
import type * as Lm from '../lm';
import type * as Completions from '../completions';

/** Set by the main bundle's generated entry (esbuild.mjs) before activate() runs. */
let shared: unknown;
export function provideSharedModules(modules: unknown): void {
  shared = modules;
}

/** The global the feature bundles read their shared modules from (only while they load). */
const KEY = Symbol.for('modelgate.sharedModules');

function load<T>(file: string, requireIt: () => unknown): T {
  if (!shared) throw new Error(`Modelgate: ${file} cannot load: the main bundle handed over no shared modules (build with esbuild.mjs)`);
  const g = globalThis as Record<symbol, unknown>;
  g[KEY] = shared;
  try {
    return requireIt() as T;
  } finally {
    delete g[KEY];
  }
}

// Literal requires: esbuild.mjs keeps exactly these four external (paths relative to dist/extension.js).
export const loadChatModule = (): typeof Chat => load('dist/chat.js', () => require('./chat.js'));
export const loadImagesModule = (): typeof Images => load('dist/images.js', () => require('./images.js'));
export const loadLmModule = (): typeof Lm => load('dist/lm.js', () => require('./lm.js'));
export const loadCompletionsModule = (): typeof Completions => load('dist/completions.js', () => require('./completions.js'));
