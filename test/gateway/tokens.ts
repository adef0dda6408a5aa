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

/** How an image input appears in the serialized prompt (its bytes replaced by a digest). */
export const IMAGE_PLACEHOLDER = '<image ';

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
      return { ...(value as object), url: `${IMAGE_PLACEHOLDER}${hashHex((value as { url: string }).url)}>` };
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

// --- DeepSeek's counting (the `reasoner` model) -------------------------------------------------
// DeepSeek "Token & Token Usage": "1 English character ≈ 0.3 token; 1 Chinese character ≈ 0.6
// token". The simulator takes that as its count: 0.3 per ASCII character, 0.6 per other code
// point, rounded up, over the conversation as the model reads it (rendered below: its chat
// template, not the request's JSON, so key order and reasoning sent back change nothing).

export function deepseekTokens(text: string): number {
  let tenths = 0;
  for (const ch of text) tenths += (ch.codePointAt(0) as number) < 0x80 ? 3 : 6;
  return Math.ceil(tenths / 10);
}

/** The rendered form of one message: role marker, text, images by digest, tool calls. Reasoning is never part of it. */
export function renderMessage(m: { role: string; content?: unknown; tool_calls?: { function: { name: string; arguments: string } }[] }): string {
  let text = '';
  if (typeof m.content === 'string') text = m.content;
  else if (Array.isArray(m.content)) {
    for (const p of m.content as { type: string; text?: string; image_url?: { url: string } }[]) {
      text += p.type === 'text' ? (p.text ?? '') : `<｜image ${hashHex(p.image_url?.url ?? '')}｜>`;
    }
  }
  const calls = (m.tool_calls ?? []).map((c) => `<｜call｜>${c.function.name}(${c.function.arguments})`).join('');
  return `<｜${m.role}｜>${text}${calls}`;
}

/** The rendered conversation: the tools, then every message. */
export function renderPrompt(rawTools: unknown, rawMessages: readonly Parameters<typeof renderMessage>[0][]): string {
  const tools = rawTools === undefined ? '' : `<｜tools｜>${JSON.stringify(rawTools)}`;
  return tools + rawMessages.map(renderMessage).join('');
}
