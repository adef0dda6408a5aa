// The tools VS Code lists in `vscode.lm.tools` that the panel may offer its model: tools of the
// MCP servers the user configured (tagged `mcp`; VS Code 1.139 names them `mcp_<server>_<tool>`
// and gives a `source` with the server's label from mcp.json) and tools that other extensions
// contribute (`contributes.languageModelTools`). Left out: Modelgate's own `modelgate_*` tools
// (the panel has them natively) and VS Code's built-in agent tools (run_in_terminal,
// vscode_editFile_internal, ...), which belong to VS Code's own chat sessions.
// A foreign tool never takes the name of one of Modelgate's tools: a clash is offered under a
// `vscode_` prefix, and a name still taken after that is dropped (docs/mcp-tools.md).
// A tool whose description or whole definition is larger than any tool needs is listed but
// refused: it would go with every request once switched on (a 10 MB description is 10 MB a request).
import * as vscode from 'vscode';
import type { ToolDefinition } from '../../core/client/types';
import { estimateTokens } from '../../core/prompt/tokens';

export const OWN_TOOL_PREFIX = 'modelgate_';
const OWN_EXTENSION_ID = 'modelgate.modelgate';

export type ToolSource = { kind: 'mcp'; server: string } | { kind: 'extension'; extension: string };

export interface VscodeToolEntry {
  /** the name VS Code knows it by (vscode.lm.invokeTool) */
  name: string;
  /** the name the model sees (unique, never one of Modelgate's) */
  modelName: string;
  definition: ToolDefinition;
  source: ToolSource;
  /** rough tokens the definition adds to every request */
  tokens: number;
  /** set when the tool is too large to offer: never sent, cannot be switched on */
  refused?: ToolRefusal;
}

/** Why a tool is not offered: its description, or its whole definition (input schema included), is `chars` long, over `max`. */
export interface ToolRefusal {
  part: 'description' | 'definition';
  chars: number;
  max: number;
}

/** Characters of a tool's description past which it is refused (about 2,000 tokens; real tools use a few hundred). */
export const TOOL_DESCRIPTION_MAX_CHARS = 8_000;
/** Characters of a whole definition (name, description, input schema as JSON) past which it is refused (about 8,000 tokens). */
export const TOOL_DEFINITION_MAX_CHARS = 32_000;

/** What the catalogue reads of VS Code (tests pass their own). */
export interface ToolHost {
  tools(): readonly vscode.LanguageModelToolInformation[];
  /** tool name -> the extension that contributes it (display name or id) */
  contributors(): Map<string, string>;
}

export const vscodeToolHost: ToolHost = {
  tools: () => vscode.lm.tools,
  contributors: () => {
    const out = new Map<string, string>();
    for (const ext of vscode.extensions.all) {
      if (ext.id.toLowerCase() === OWN_EXTENSION_ID) continue;
      const pkg = ext.packageJSON as { displayName?: unknown; contributes?: { languageModelTools?: unknown } };
      const tools = pkg.contributes?.languageModelTools;
      if (!Array.isArray(tools)) continue;
      const label = typeof pkg.displayName === 'string' && pkg.displayName && !pkg.displayName.startsWith('%') ? pkg.displayName : ext.id;
      for (const t of tools as { name?: unknown }[]) if (typeof t?.name === 'string') out.set(t.name, label);
    }
    return out;
  },
};

/** Where an MCP tool comes from: `source.label` (1.139), else the server part of `mcp_<server>_<tool>`. */
export function mcpServerOf(tool: vscode.LanguageModelToolInformation): string {
  const source = (tool as { source?: { label?: unknown; name?: unknown } }).source;
  if (typeof source?.label === 'string' && source.label) return source.label;
  if (typeof source?.name === 'string' && source.name) return source.name;
  return /^mcp_(.+?)_/.exec(tool.name)?.[1] ?? tool.name;
}

const sanitize = (name: string) => name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);

function parametersOf(schema: object | undefined): Record<string, unknown> {
  if (!schema || typeof schema !== 'object') return { type: 'object', properties: {} };
  const { $schema: _drop, ...rest } = schema as Record<string, unknown>;
  return rest;
}

/**
 * The foreign tools VS Code lists now, in its order. `reserved`: the names of Modelgate's own
 * tools (whether offered now or not), which no foreign tool may take.
 */
export function listVscodeTools(host: ToolHost, reserved: ReadonlySet<string>): VscodeToolEntry[] {
  const contributors = host.contributors();
  const taken = new Set(reserved);
  const out: VscodeToolEntry[] = [];
  for (const tool of host.tools()) {
    if (tool.name.startsWith(OWN_TOOL_PREFIX)) continue;
    let source: ToolSource;
    if (tool.tags.includes('mcp')) source = { kind: 'mcp', server: mcpServerOf(tool) };
    else {
      const extension = contributors.get(tool.name);
      if (extension === undefined) continue; // VS Code's own agent tools
      source = { kind: 'extension', extension };
    }
    let modelName = sanitize(tool.name);
    if (taken.has(modelName)) modelName = sanitize(`vscode_${tool.name}`);
    if (!modelName || taken.has(modelName)) continue;
    taken.add(modelName);
    const description = typeof tool.description === 'string' ? tool.description : '';
    // a huge description is not even serialised (that would cost as much on every listing)
    const definition: ToolDefinition | undefined =
      description.length > TOOL_DESCRIPTION_MAX_CHARS
        ? undefined
        : { type: 'function', function: { name: modelName, description, parameters: parametersOf(tool.inputSchema) } };
    const json = definition ? JSON.stringify(definition) : undefined;
    const chars = json?.length ?? description.length;
    const refused: ToolRefusal | undefined = !definition
      ? { part: 'description', chars, max: TOOL_DESCRIPTION_MAX_CHARS }
      : chars > TOOL_DEFINITION_MAX_CHARS
        ? { part: 'definition', chars, max: TOOL_DEFINITION_MAX_CHARS }
        : undefined;
    if (refused) {
      // listed for the picker's note; its definition is never built into a request
      const empty: ToolDefinition = { type: 'function', function: { name: modelName, description: '', parameters: { type: 'object', properties: {} } } };
      out.push({ name: tool.name, modelName, definition: empty, source, tokens: Math.ceil(chars / 4), refused });
    } else out.push({ name: tool.name, modelName, definition: definition!, source, tokens: estimateTokens(json!) + 8 });
  }
  return out;
}
