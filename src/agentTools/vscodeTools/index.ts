// VS Code's tools (MCP servers, other extensions; ./catalog.ts) in the panel, around the panel's
// own tools. Offered only where Modelgate's tools are (a trusted workspace with a folder open, a
// model with tool calls) and only those the user switched on for the conversation (./choice.ts).
// Each call is asked about in the answer's approval card first (tool, source, input; Skip is the
// safe default), then runs through `vscode.lm.invokeTool` with no chat session (VS Code itself may
// ask again for an MCP tool not marked read-only: docs/mcp-tools.md) and the answer's Stop token.
// Results go back capped; a tool that throws becomes a tool error the model reads. Modelgate's
// own tools are never replaced: their calls go to the inner tools unchanged, with their guards.
import * as vscode from 'vscode';
import type { ToolCall } from '../../core/client/types';
import type { Approvals } from '../approvals';
import type { ChatTools, ToolResult } from '../chatTools';
import { PANEL_IMAGE_TOOL_NAME } from '../imageGeneration';
import { TOOL_NAMES } from '../schemas';
import type { ToolRunContext } from '../toolContext';
import type { VscodeToolsPanel } from '../vscodeToolsPanel';

export type { VscodeToolsPanel } from '../vscodeToolsPanel';
import { listVscodeTools, vscodeToolHost, type ToolHost, type ToolRefusal, type VscodeToolEntry } from './catalog';
import { VscodeToolChoice } from './choice';
import { toolResultOf, type InvokeResult } from './results';
import { errorText } from '../../core/errorText';
import { clipForLog } from '../../core/logText';

export interface VscodeToolsDeps {
  approvals: Approvals;
  /** `modelgate.chat.vscodeTools` (user settings): tools on in every conversation */
  defaults: () => readonly string[];
  /** USD per 1M input tokens of the panel's model and channel now (the catalogue's price); undefined when none is known */
  inputPrice?: () => number | undefined;
  log: (line: string) => void;
  host?: ToolHost;
  invoke?: (name: string, input: object, token: vscode.CancellationToken) => Promise<InvokeResult>;
}

const RESERVED = new Set<string>([...TOOL_NAMES, PANEL_IMAGE_TOOL_NAME]);
/** The input shown on the card is cut here (the model's input can be long). */
const CARD_INPUT_CHARS = 4_000;

export const SKIPPED_MESSAGE = 'The user skipped this tool call: it was not run. Continue without it, or ask the user.';
export const NOT_ON_MESSAGE = 'This tool is not switched on in this conversation: it was not run. Use the tools you were offered.';
export const REFUSED_MESSAGE = 'This tool is not offered: its definition is too large to send. It was not run. Use the tools you were offered.';

/** The picker's note on a tool that is too large to offer. */
function refusalNote(r: ToolRefusal): string {
  return r.part === 'description'
    ? vscode.l10n.t('Not offered: its description has {0} characters (the limit is {1}), and it would be sent with every request.', r.chars, r.max)
    : vscode.l10n.t('Not offered: its definition has {0} characters (the limit is {1}), and it would be sent with every request.', r.chars, r.max);
}

/** A price that can be multiplied (a finite, non-negative number), else undefined: unknown. */
function usablePrice(perMillion: number | undefined): number | undefined {
  return typeof perMillion === 'number' && Number.isFinite(perMillion) && perMillion >= 0 ? perMillion : undefined;
}

/** Rough USD a tool's definition adds to every request: its tokens at the input price (USD per 1M tokens). */
export function requestCost(tokens: number, inputPricePerMillion: number): number {
  return (tokens * inputPricePerMillion) / 1_000_000;
}

export function withVscodeTools(inner: ChatTools, deps: VscodeToolsDeps): ChatTools & { vscodeTools: VscodeToolsPanel } {
  const host = deps.host ?? vscodeToolHost;
  const choice = new VscodeToolChoice(deps.defaults);
  const invoke =
    deps.invoke ??
    (async (name: string, input: object, token: vscode.CancellationToken) => vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token));
  /** the tools refused for their size that the log has named (once each per window) */
  const refusalsLogged = new Set<string>();
  const catalog = () => {
    const entries = listVscodeTools(host, RESERVED);
    for (const e of entries) {
      if (!e.refused || refusalsLogged.has(e.name)) continue;
      refusalsLogged.add(e.name);
      deps.log(`Chat: VS Code tool ${clipForLog(e.name)} not offered: its ${e.refused.part} has ${e.refused.chars} characters (limit ${e.refused.max}).`);
    }
    return entries;
  };
  const sourceLine = (e: VscodeToolEntry) =>
    e.source.kind === 'mcp' ? vscode.l10n.t('From MCP server “{0}”', e.source.server) : vscode.l10n.t('From extension “{0}”', e.source.extension);

  /** what picker() last listed (tools and price), so a refresh that finds the same posts nothing */
  let listed: string | undefined;
  const signature = (entries: readonly VscodeToolEntry[], price: number | undefined) =>
    JSON.stringify([price, entries.map((e) => [e.name, e.modelName, e.tokens, e.source, e.refused ?? null])]);

  const panel: VscodeToolsPanel = {
    picker: (conversationId) => {
      const entries = catalog();
      const price = usablePrice(deps.inputPrice?.());
      listed = signature(entries, price);
      return entries.map((e) => ({
        name: e.name,
        label: e.modelName,
        source: sourceLine(e),
        tokens: e.tokens,
        ...(price !== undefined ? { cost: requestCost(e.tokens, price) } : {}),
        on: !e.refused && choice.isOn(conversationId, e.name),
        ...(e.refused ? { refused: refusalNote(e.refused) } : {}),
      }));
    },
    changedSinceListed: () => {
      const now = signature(catalog(), usablePrice(deps.inputPrice?.()));
      const changed = now !== listed;
      listed = now;
      return changed;
    },
    toggle: (conversationId, name) => {
      if (!catalog().some((e) => e.name === name && !e.refused)) return false;
      choice.toggle(conversationId, name);
      return true;
    },
    forget: (conversationId) => choice.forget(conversationId),
    // no such event in VS Code 1.139's API (nor @types/vscode 1.104); used where a VS Code has it.
    // Otherwise the panel asks for a fresh list (refreshVscodeTools) when it gets the focus, when
    // the message box does and when the picker opens; a view made visible again reloads and gets a
    // snapshot, which lists them anew.
    onDidChange: (listener) => (vscode.lm as { onDidChangeTools?: vscode.Event<void> }).onDidChangeTools?.(listener) ?? { dispose: () => undefined },
  };

  async function runOne(e: VscodeToolEntry, call: ToolCall, token: vscode.CancellationToken, context: ToolRunContext): Promise<ToolResult> {
    let input: unknown;
    try {
      input = call.arguments.trim() ? JSON.parse(call.arguments) : {};
    } catch {
      return { content: `The arguments of ${call.name} are not valid JSON: nothing was run. Call it again with a JSON object.`, isError: true };
    }
    if (!input || typeof input !== 'object' || Array.isArray(input))
      return { content: `The arguments of ${call.name} must be a JSON object: nothing was run.`, isError: true };
    if (!choice.isAlwaysAllowed(context.conversationId, e.name)) {
      const shown = JSON.stringify(input, null, 2);
      const answer = await deps.approvals.ask(
        {
          conversationId: context.conversationId,
          messageId: context.messageId,
          title: vscode.l10n.t('Run the tool {0}?', e.modelName),
          detail: [sourceLine(e), vscode.l10n.t('Its input:')],
          code: shown.length > CARD_INPUT_CHARS ? `${shown.slice(0, CARD_INPUT_CHARS)}\n…` : shown,
          choices: [
            { id: 'once', label: vscode.l10n.t('Allow once') },
            { id: 'always', label: vscode.l10n.t('Always allow this tool in this conversation') },
            { id: 'skip', label: vscode.l10n.t('Skip') },
          ],
          safeChoiceId: 'skip',
        },
        token,
      );
      if (token.isCancellationRequested) return { content: 'Cancelled: the user stopped the request.', isError: true };
      if (answer === 'skip') return { content: SKIPPED_MESSAGE, isError: false, denied: true };
      if (answer === 'always') choice.allowAlways(context.conversationId, e.name);
    }
    try {
      const result = await invoke(e.name, input, token);
      return toolResultOf(result, { imageInput: context.imageInput === true });
    } catch (err) {
      if (token.isCancellationRequested) return { content: 'Cancelled: the user stopped the request.', isError: true };
      // VS Code's own confirmation (an MCP tool not marked read-only) answered Cancel
      if (err instanceof vscode.CancellationError) return { content: `${SKIPPED_MESSAGE} (declined in VS Code's confirmation)`, isError: false, denied: true };
      const message = errorText(err);
      deps.log(`Chat: VS Code tool ${clipForLog(e.name)} failed: ${clipForLog(message)}`);
      return { content: `The tool ${call.name} failed: ${message}`.slice(0, 4_000), isError: true };
    }
  }

  return {
    definitions: (conversationId) => {
      const base = inner.definitions(conversationId);
      if (!base.length || conversationId === undefined) return base;
      const own = new Set(base.map((d) => d.function.name));
      const extra = catalog()
        .filter((e) => !e.refused && choice.isOn(conversationId, e.name) && !own.has(e.modelName))
        .map((e) => e.definition);
      return extra.length ? [...base, ...extra] : base;
    },
    runAll: async (calls, token, context) => {
      const entries = new Map(catalog().map((e) => [e.modelName, e]));
      const foreign = (c: ToolCall) => !RESERVED.has(c.name) && entries.has(c.name);
      const others = calls.filter((c) => !foreign(c));
      const otherResults = others.length ? inner.runAll(others, token, context) : Promise.resolve([]);
      const mine = new Map<ToolCall, ToolResult>();
      // one after another: each may ask the user
      for (const call of calls.filter(foreign)) {
        const e = entries.get(call.name)!;
        mine.set(
          call,
          e.refused
            ? { content: REFUSED_MESSAGE, isError: true }
            : !context || !choice.isOn(context.conversationId, e.name)
              ? { content: NOT_ON_MESSAGE, isError: true }
              : await runOne(e, call, token, context),
        );
      }
      const rest = await otherResults;
      let i = 0;
      return calls.map((c) => mine.get(c) ?? rest[i++]!);
    },
    takeImageCost: inner.takeImageCost ? (id) => inner.takeImageCost!(id) : undefined,
    vscodeTools: panel,
  };
}
