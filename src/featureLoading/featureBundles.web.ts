// Platform seam, web build: the web extension host loads one file (dist/web/extension.js), so the
// features' code is in it; src/featureLoading/lazyFeatures.ts still constructs them on first use only.
import * as Chat from '../chat';
import * as Images from '../images';
import * as Lm from '../lm';
import * as Completions from '../completions';

export function provideSharedModules(_modules: unknown): void {}

export const loadChatModule = (): typeof Chat => Chat;
export const loadImagesModule = (): typeof Images => Images;
export const loadLmModule = (): typeof Lm => Lm;
export const loadCompletionsModule = (): typeof Completions => Completions;
