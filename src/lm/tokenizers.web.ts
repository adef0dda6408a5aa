// Platform seam, web build: the web extension host loads one file (dist/web/extension.js), and the
// OpenAI vocabularies would add 3.6 MB to it, parsed at every activation. So the web build counts
// every model's tokens with the estimate (src/core/prompt/tokens.ts); the Node build has the
// real tokenizers (tokenizers.ts).
import type { Encoding, TokenCounter } from './tokenizerChoice';

export function tokenCounter(_encoding: Encoding): TokenCounter | undefined {
  return undefined;
}

export const HAS_TOKENIZERS = false;
