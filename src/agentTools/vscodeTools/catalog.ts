// The tools VS Code lists in `vscode.lm.tools` that the panel may offer its model: tools of the
// MCP servers the user configured (tagged `mcp`; VS Code 1.139 names them `mcp_<server>_<tool>`
// and gives a `source` with the server's label from mcp.json) and tools that other extensions
// contribute (`contributes.languageModelTools`). Left out: Modelgate's own `modelgate_*` tools
// (the panel has them natively) and VS Code's built-in agent tools (run_in_terminal,
// vscode_editFile_internal, ...), which belong to VS Code's own chat sessions.
// A foreign tool never takes the name of one of Modelgate's tools: a clash is offered under a
// `vscode_` prefix, and a name still taken after that is dropped (docs/mcp-tools.md).
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
}

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
    const definition: ToolDefinition = {
      type: 'function',
      function: { name: modelName, description: tool.description, parameters: parametersOf(tool.inputSchema) },
    };
    out.push({ name: tool.name, modelName, definition, source, tokens: estimateTokens(JSON.stringify(definition)) + 8 });
  }
  return out;
}
