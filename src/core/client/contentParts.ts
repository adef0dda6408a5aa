// `content` as a list of chunks instead of a string. Mistral's reasoning models ("Reasoning",
// docs.mistral.ai/capabilities/reasoning) stream and answer
// `[{type: "thinking", thinking: [{type: "text", text}]}, {type: "text", text}]`; OpenAI-style
// servers may send `[{type: "text", text}]`. Text parts are the answer, thinking parts its
// reasoning; parts without text (references, images) are left out. Lenient: a part of an unknown
// shape is skipped, never an error.

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function textOfThinking(thinking: unknown): string {
  if (typeof thinking === 'string') return thinking;
  if (!Array.isArray(thinking)) return '';
  let text = '';
  for (const item of thinking as unknown[]) if (isRecord(item) && typeof item.text === 'string' && (item.type ?? 'text') === 'text') text += item.text;
  return text;
}

export function contentParts(parts: readonly unknown[]): { text: string; reasoning: string } {
  let text = '';
  let reasoning = '';
  for (const part of parts) {
    if (typeof part === 'string') text += part;
    else if (!isRecord(part)) continue;
    else if (part.type === 'thinking') reasoning += textOfThinking(part.thinking);
    else if (typeof part.text === 'string') text += part.text;
  }
  return { text, reasoning };
}
