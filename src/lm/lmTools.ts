// Tools offered by the caller, and the tool calls the model makes, between vscode.lm's shapes
// and the wire. Pure.
import * as z from 'zod';
import type { ChatRequest, ToolCall, ToolDefinition } from '../core/client/types';
import { LmInputError } from './lmMessages';
import { l10n } from '../core/l10n';

/** The plain shape of vscode.LanguageModelChatTool. */
export interface LmTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

/** vscode.LanguageModelChatToolMode: Auto = 1, Required = 2. */
export const TOOL_MODE_REQUIRED = 2;

const EMPTY_SCHEMA = { type: 'object', properties: {} };
const schemaObject = z.record(z.string(), z.unknown());

/**
 * The `tools` and `tool_choice` of a request. No tools -> neither field (OpenAI-compatible
 * services reject `tools: []`, and `tool_choice` without tools).
 */
export function toWireTools(
  tools: readonly LmTool[] | undefined,
  toolMode: number | undefined,
  model: { id: string; label: string; tools: boolean },
): Pick<ChatRequest, 'tools' | 'tool_choice'> {
  if (!tools?.length) return {};
  if (!model.tools) {
    throw new LmInputError(
      tools.length > 1
        ? l10n.t(
            '{0} ({1}) does not support tool calling, and this request offers {2} tools. Pick a Modelgate model with tool calling.',
            model.label,
            model.id,
            tools.length,
          )
        : l10n.t('{0} ({1}) does not support tool calling, and this request offers 1 tool. Pick a Modelgate model with tool calling.', model.label, model.id),
    );
  }
  const wire = tools.map((t): ToolDefinition => {
    // A schema that is not a JSON object (or none) becomes "no parameters": the wire needs an object.
    const parsed = schemaObject.safeParse(t.inputSchema);
    const fn: ToolDefinition['function'] = { name: t.name, parameters: parsed.success ? parsed.data : EMPTY_SCHEMA };
    if (t.description) fn.description = t.description;
    return { type: 'function', function: fn };
  });
  return toolMode === TOOL_MODE_REQUIRED ? { tools: wire, tool_choice: 'required' } : { tools: wire };
}

const argumentsObject = z.record(z.string(), z.unknown());

export type ParsedToolCall = { ok: true; id: string; name: string; input: Record<string, unknown> } | { ok: false; message: string };

/**
 * The input of a complete tool call from the stream. vscode.LanguageModelToolCallPart takes an
 * object, so arguments that are not a JSON object are an error the caller is told about rather
 * than a guess. Empty arguments mean "no parameters" (some models send "" for those).
 */
export function parseToolCall(call: ToolCall): ParsedToolCall {
  const text = call.arguments.trim();
  if (!text) return { ok: true, id: call.id, name: call.name, input: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: `The model called the tool "${call.name}" with arguments that are not valid JSON: ${preview(text)}` };
  }
  const parsed = argumentsObject.safeParse(value);
  if (!parsed.success || Array.isArray(value)) {
    return { ok: false, message: `The model called the tool "${call.name}" with arguments that are not a JSON object: ${preview(text)}` };
  }
  return { ok: true, id: call.id, name: call.name, input: parsed.data };
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}
