// A VS Code tool's result (LanguageModelTextPart, LanguageModelDataPart, prompt-tsx parts) as the
// model gets it: text, capped; images only for a model that takes image input (they follow the
// tool results as a user message, src/chat/answers/answerLoop.ts), else a line saying one was left out.
import * as vscode from 'vscode';
import type { ToolResult } from '../chatTools';
import { toBase64 } from '../../platform/bytes';
import { capResult } from '../text';

export type InvokeResult = Pick<vscode.LanguageModelToolResult, 'content'>;

/** Text of one result, at most (the rest is cut with a note). */
export const VSCODE_TOOL_RESULT_CHARS = 100_000;
/** Images of one result that go to the model, at most, and bytes of one image. */
export const MAX_RESULT_IMAGES = 4;
export const MAX_RESULT_IMAGE_BYTES = 4 * 1024 * 1024;

const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
const decoder = new TextDecoder();

/** LanguageModelDataPart (VS Code 1.105+; not in @types/vscode 1.104), by its shape. */
function isDataPart(part: unknown): part is { mimeType: string; data: Uint8Array } {
  const p = part as { mimeType?: unknown; data?: unknown } | null;
  return typeof p === 'object' && p !== null && typeof p.mimeType === 'string' && p.data instanceof Uint8Array;
}

export function toolResultOf(result: InvokeResult, options: { imageInput: boolean }): ToolResult {
  const texts: string[] = [];
  /** what was left out or moved: kept whole after the capped text */
  const notes: string[] = [];
  const images: string[] = [];
  for (const part of result.content) {
    if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
    else if (isDataPart(part)) {
      const mime = part.mimeType.toLowerCase();
      if (mime.startsWith('image/')) {
        if (!options.imageInput) notes.push(`[An image (${mime}, ${part.data.byteLength} bytes) was left out: the model does not take image input.]`);
        else if (!IMAGE_MIMES.has(mime) || part.data.byteLength > MAX_RESULT_IMAGE_BYTES || images.length >= MAX_RESULT_IMAGES)
          notes.push(`[An image (${mime}, ${part.data.byteLength} bytes) was left out: too large, too many, or not PNG, JPEG, WebP or GIF.]`);
        else {
          images.push(`data:${mime};base64,${toBase64(part.data)}`);
          notes.push(`[Image ${images.length} (${mime}) follows in the next message.]`);
        }
      } else if (mime.startsWith('text/') || mime === 'application/json') texts.push(decoder.decode(part.data));
      else notes.push(`[Data of type ${mime} (${part.data.byteLength} bytes) was left out.]`);
    } else if (part instanceof vscode.LanguageModelPromptTsxPart) texts.push(JSON.stringify(part.value));
  }
  const text = texts.length ? capResult(texts.join('\n'), VSCODE_TOOL_RESULT_CHARS) : notes.length ? '' : '(The tool returned nothing.)';
  // An extension's tool may mark its result as an error (`hasError`, VS Code 1.105+; not in
  // @types/vscode 1.104): the model and the panel then see a failed call. MCP tools' errors come as
  // plain text (VS Code drops the flag; docs/mcp-tools.md).
  const isError = (result as { hasError?: unknown }).hasError === true;
  const out: ToolResult = { content: [text, ...notes].filter(Boolean).join('\n'), isError };
  if (images.length) out.modelImages = images;
  return out;
}
