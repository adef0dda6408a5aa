// Messages that VS Code's chat (or another extension, through vscode.lm) sends to this provider,
// turned into the gateway's wire format. Pure. The vscode classes
// (LanguageModelTextPart and friends) cannot be constructed outside VS Code, so vscodeParts.ts
// converts them to the plain shapes below first, and this file is unit-tested in plain Node.
import { toBase64 } from '../platform/bytes';
import { l10n } from '../core/l10n';
import { MAX_IMAGE_BYTES, sniffImage } from '../core/prompt/imageInput';
import type { ChatMessage, ContentPart, WireToolCall } from '../core/client/types';

/** One part of a message, as plain data. */
export type LmPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  | { kind: 'toolResult'; callId: string; content: LmToolResultContent[] }
  | { kind: 'data'; mimeType: string; data: Uint8Array }
  /** parts the gateway has no field for (model reasoning, unknown future part types) */
  | { kind: 'ignored'; what: string };

export type LmToolResultContent =
  | { kind: 'text'; text: string }
  | { kind: 'data'; mimeType: string; data: Uint8Array }
  /** a prompt-tsx part or anything else: its text is extracted best-effort */
  | { kind: 'other'; value: unknown };

export interface LmMessage {
  role: 'user' | 'assistant' | 'system';
  parts: LmPart[];
}

/** What the mapping needs to know about the target model. */
export interface LmTargetModel {
  id: string;
  label: string;
  imageInput: boolean;
}

/** A request that cannot be sent as asked; the message says what to change. */
export class LmInputError extends Error {
  override name = 'LmInputError';
}

/**
 * What a data part is, by its MIME type. Chat hosts also send markers as data parts
 * (e.g. `cache_control`, `stateful_marker`): those are not MIME types, carry no content and
 * mean nothing to this gateway, so they are skipped.
 */
export function dataKind(mimeType: string): 'image' | 'text' | 'marker' | 'other' {
  const m = mimeType.trim().toLowerCase();
  if (!m.includes('/')) return 'marker';
  if (m.startsWith('image/')) return 'image';
  if (m.startsWith('text/') || m === 'application/json' || m.endsWith('+json') || m === 'application/xml' || m.endsWith('+xml')) return 'text';
  return 'other';
}

const utf8 = new TextDecoder('utf-8');

function imageUrl(data: Uint8Array, model: LmTargetModel, mimeType: string): string {
  if (!model.imageInput) {
    throw new LmInputError(
      l10n.t(
        '{0} ({1}) accepts text only, and this request contains an image. Pick a Modelgate model with image input, or leave the image out.',
        model.label,
        model.id,
      ),
    );
  }
  if (data.byteLength > MAX_IMAGE_BYTES) {
    throw new LmInputError(
      l10n.t('An image of {0} MB is too large; images up to {1} MB can be sent.', (data.byteLength / 1048576).toFixed(1), MAX_IMAGE_BYTES / 1048576),
    );
  }
  // The bytes decide the type, not the claimed MIME type: the gateway accepts only these four.
  const mime = sniffImage(data);
  if (!mime) throw new LmInputError(l10n.t('An image part ({0}) is not a PNG, JPEG, WebP or GIF image, the formats the gateway accepts.', mimeType));
  return `data:${mime};base64,${toBase64(data)}`;
}

/** Text of a prompt-tsx value (or anything else): every string under a `text` key, in order. */
function extractText(value: unknown): string {
  if (typeof value === 'string') return value;
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 64 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if (k === 'text' && typeof x === 'string') out.push(x);
      else walk(x, depth + 1);
    }
  };
  walk(value, 0);
  if (out.length) return out.join('');
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/**
 * A tool result as the text of a `tool` message (the wire takes text only there). Parts are
 * independent outputs, so they are joined with line breaks; an image a tool returned is named,
 * not dropped silently, so the model knows it was there.
 */
export function toolResultText(content: readonly LmToolResultContent[]): string {
  const pieces: string[] = [];
  for (const c of content) {
    if (c.kind === 'text') pieces.push(c.text);
    else if (c.kind === 'other') pieces.push(extractText(c.value));
    else {
      const kind = dataKind(c.mimeType);
      if (kind === 'text') pieces.push(utf8.decode(c.data));
      else if (kind !== 'marker') pieces.push(`[${c.mimeType} content of ${c.data.byteLength} bytes omitted: tool results reach the model as text only]`);
    }
  }
  return pieces.join('\n');
}

/** Arguments of a tool call that is part of the history, as the JSON text the wire carries. */
function callArguments(input: unknown): string {
  if (input === undefined || input === null) return '{}';
  try {
    return JSON.stringify(input) ?? '{}';
  } catch {
    throw new LmInputError('A tool call in the conversation has input that cannot be written as JSON.');
  }
}

/** Merges neighbouring text parts so a message without images stays one string. */
function pushText(parts: ContentPart[], text: string): void {
  const last = parts[parts.length - 1];
  if (last?.type === 'text') last.text += text;
  else parts.push({ type: 'text', text });
}

function contentOf(parts: ContentPart[]): string | ContentPart[] {
  if (parts.every((p) => p.type === 'text')) return parts.map((p) => (p as { text: string }).text).join('');
  return parts;
}

function userMessages(message: LmMessage, model: LmTargetModel): ChatMessage[] {
  // Tool results first: a `tool` message must follow the assistant message that made the calls
  // directly, and VS Code puts results in the next user message, possibly beside other text.
  const tools: ChatMessage[] = [];
  const content: ContentPart[] = [];
  for (const p of message.parts) {
    switch (p.kind) {
      case 'toolResult':
        tools.push({ role: 'tool', tool_call_id: p.callId, content: toolResultText(p.content) });
        break;
      case 'text':
        pushText(content, p.text);
        break;
      case 'data': {
        const kind = dataKind(p.mimeType);
        if (kind === 'image') content.push({ type: 'image_url', image_url: { url: imageUrl(p.data, model, p.mimeType) } });
        else if (kind === 'text') pushText(content, utf8.decode(p.data));
        else if (kind === 'other')
          throw new LmInputError(l10n.t('Content of type {0} cannot be sent to the gateway; it takes text and images only.', p.mimeType));
        break;
      }
      case 'toolCall':
        throw new LmInputError('A user message contains a tool call; tool calls belong in assistant messages.');
      case 'ignored':
        break;
    }
  }
  const out = [...tools];
  // A message that carried only tool results needs no user message of its own.
  if (content.length || !tools.length) out.push({ role: 'user', content: contentOf(content) });
  return out;
}

function assistantMessage(message: LmMessage): ChatMessage {
  let text = '';
  const calls: WireToolCall[] = [];
  for (const p of message.parts) {
    switch (p.kind) {
      case 'text':
        text += p.text;
        break;
      case 'toolCall':
        calls.push({ id: p.callId, type: 'function', function: { name: p.name, arguments: callArguments(p.input) } });
        break;
      case 'data': {
        const kind = dataKind(p.mimeType);
        if (kind === 'text') text += utf8.decode(p.data);
        else if (kind !== 'marker')
          throw new LmInputError(l10n.t('An assistant message contains {0} content; the gateway takes images in user messages only.', p.mimeType));
        break;
      }
      case 'toolResult':
        throw new LmInputError(l10n.t('An assistant message contains a tool result; tool results belong in the user message after the call.'));
      case 'ignored':
        break;
    }
  }
  if (!calls.length) return { role: 'assistant', content: text };
  return { role: 'assistant', content: text || null, tool_calls: calls };
}

function systemMessage(message: LmMessage): ChatMessage {
  let text = '';
  for (const p of message.parts) {
    if (p.kind === 'text') text += p.text;
    else if (p.kind === 'data' && dataKind(p.mimeType) === 'text') text += utf8.decode(p.data);
  }
  return { role: 'system', content: text };
}

/** The wire messages of a request. Throws LmInputError when the request cannot be sent as asked. */
export function toWireMessages(messages: readonly LmMessage[], model: LmTargetModel): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'user') out.push(...userMessages(m, model));
    else if (m.role === 'assistant') out.push(assistantMessage(m));
    else out.push(systemMessage(m));
  }
  return out;
}
