// Platform seam, Node build: the OpenAI tokenizers (npm gpt-tokenizer) are two bundles of their
// own, dist/tokenizer-o200k.js (2.4 MB) and dist/tokenizer-cl100k.js (1.2 MB), required on the
// first token count of a model of that family: activation and the lm feature's first use never
// parse them. The web build (tokenizers.web.ts) has none and keeps the estimate.
import { counterOf, type EncodingApi, type Encoding, type TokenCounter } from './tokenizerChoice';

const loaded = new Map<Encoding, TokenCounter>();

// Literal requires: esbuild.mjs keeps exactly these two external (paths relative to dist/lm.js).
function requireEncoding(encoding: Encoding): EncodingApi {
  return encoding === 'o200k_base' ? (require('./tokenizer-o200k.js') as EncodingApi) : (require('./tokenizer-cl100k.js') as EncodingApi);
}

/** The counter of `encoding`, loaded on first use; undefined where this build has no tokenizer. */
export function tokenCounter(encoding: Encoding): TokenCounter | undefined {
  let counter = loaded.get(encoding);
  if (!counter) {
    counter = counterOf(requireEncoding(encoding));
    loaded.set(encoding, counter);
  }
  return counter;
}

/** Which tokenizers this build has (the web build: none). */
export const HAS_TOKENIZERS = true;
