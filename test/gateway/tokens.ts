// Deterministic token accounting: about one token per 4 characters of the serialized prompt,
// as the brief's contract with tests says. The serialization is the client's own JSON of
// `tools` then `messages` (key order as sent), so a client that reorders keys or puts a
// volatile value early loses its cache hits, as with a real prefix cache.
import { hashHex } from './rng';

export const CHARS_PER_TOKEN = 4;
/** What one image input costs, whatever its encoded size (real services bill by tiles). */
export const IMAGE_INPUT_TOKENS = 765;

export function tokensOf(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export interface SerializedPrompt {
  /** the text whose prefixes the prompt cache compares; image bytes replaced by a short digest */
  text: string;
  imageCount: number;
}

/**
 * Serializes the raw request's tools and messages. Image data URLs are replaced by a digest so
 * that a 1 MB screenshot is not billed as 250K tokens and different images still differ.
 */
export function serializePrompt(rawTools: unknown, rawMessages: unknown): SerializedPrompt {
  let imageCount = 0;
  const replacer = (key: string, value: unknown): unknown => {
    if (key === 'image_url' && value && typeof value === 'object' && typeof (value as { url?: unknown }).url === 'string') {
      imageCount++;
      return { ...(value as object), url: `<image ${hashHex((value as { url: string }).url)}>` };
    }
    return value;
  };
  const tools = rawTools === undefined ? '' : JSON.stringify(rawTools, replacer);
  const messages = JSON.stringify(rawMessages, replacer);
  return { text: tools + messages, imageCount };
}

export function promptTokens(prompt: SerializedPrompt): number {
  return tokensOf(prompt.text) + prompt.imageCount * IMAGE_INPUT_TOKENS;
}
