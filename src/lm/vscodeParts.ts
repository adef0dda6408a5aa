// vscode.lm's message classes -> the plain shapes of lmMessages.ts. The only file of the
// mapping that needs `vscode`: the modules after it (PLAIN_NODE in eslint.config.mjs) run without it.
import * as vscode from 'vscode';
import type { LmMessage, LmPart, LmToolResultContent } from './lmMessages';
import { openAiUsage } from '../core/client/openAiUsage';
import type { Usage } from '../core/client/types';

// Classes newer than the @types/vscode this extension compiles against (1.104): present in
// VS Code 1.139 at runtime, looked up defensively so an older VS Code still works.
type AnyClass = abstract new (...args: never[]) => unknown;
const api = vscode as unknown as Record<string, AnyClass | undefined>;
const DataPart = api.LanguageModelDataPart;
const ThinkingPart = api.LanguageModelThinkingPart;

const isInstance = (value: unknown, cls: AnyClass | undefined): boolean => !!cls && value instanceof cls;

function asData(value: unknown): { mimeType: string; data: Uint8Array } | undefined {
  if (!isInstance(value, DataPart) && (typeof value !== 'object' || value === null)) return undefined;
  const v = value as { mimeType?: unknown; data?: unknown };
  if (typeof v.mimeType !== 'string' || !(v.data instanceof Uint8Array)) return undefined;
  return { mimeType: v.mimeType, data: v.data };
}

function kindName(value: unknown): string {
  if (value === null || typeof value !== 'object') return typeof value;
  return (value as object).constructor?.name || 'object';
}

function toolResultContent(value: unknown): LmToolResultContent {
  if (value instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: value.value };
  if (typeof value === 'string') return { kind: 'text', text: value };
  const data = asData(value);
  if (data) return { kind: 'data', ...data };
  if (value instanceof vscode.LanguageModelPromptTsxPart) return { kind: 'other', value: value.value };
  return { kind: 'other', value };
}

/** A LanguageModelThinkingPart's text (`value` is a string or an array of strings). */
function thinkingText(part: unknown): string {
  const value = (part as { value?: unknown }).value;
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').join('') : '';
}

/** A part that reports reasoning, where the running VS Code has LanguageModelThinkingPart (detected at runtime). */
export function thinkingPart(text: string): vscode.LanguageModelResponsePart | undefined {
  if (!ThinkingPart) return undefined;
  return new (ThinkingPart as unknown as new (value: string) => vscode.LanguageModelResponsePart)(text);
}

/** the mime type of the data part that carries a request's usage (what VS Code's chat reads for its context meter) */
export const USAGE_MIME = 'usage';

/** A data part with the usage as OpenAI-shaped JSON, where the running VS Code has LanguageModelDataPart (detected at runtime). */
export function usagePart(usage: Usage): vscode.LanguageModelResponsePart | undefined {
  if (!DataPart) return undefined;
  const bytes = new TextEncoder().encode(JSON.stringify(openAiUsage(usage)));
  return new (DataPart as unknown as new (data: Uint8Array, mimeType: string) => vscode.LanguageModelResponsePart)(bytes, USAGE_MIME);
}

export function toLmPart(part: unknown): LmPart {
  if (isInstance(part, ThinkingPart)) return { kind: 'thinking', text: thinkingText(part) };
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (typeof part === 'string') return { kind: 'text', text: part };
  if (part instanceof vscode.LanguageModelToolCallPart) return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) {
    return { kind: 'toolResult', callId: part.callId, content: part.content.map(toolResultContent) };
  }
  const data = asData(part);
  if (data) return { kind: 'data', ...data };
  return { kind: 'ignored', what: kindName(part) };
}

export function toLmMessage(message: vscode.LanguageModelChatRequestMessage): LmMessage {
  // System (3) exists at runtime although the stable typings name only User and Assistant.
  const role =
    message.role === vscode.LanguageModelChatMessageRole.User
      ? 'user'
      : message.role === vscode.LanguageModelChatMessageRole.Assistant
        ? 'assistant'
        : 'system';
  return { role, parts: message.content.map(toLmPart) };
}
