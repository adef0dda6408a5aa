// The panel's tools plus Modelgate's `generate_image` (src/images/panelImageTool.ts, built on first
// use by src/featureLoading/lazyFeatures.ts and handed in here). It is offered only where the
// workspace tools are (a trusted workspace with a folder open). Image calls run one after another
// (each may ask the user); the other calls go to the workspace tools unchanged, so their own rules
// and guards apply. What the images cost is kept per conversation for the answer's usage line.
import type * as vscode from 'vscode';
import type { ToolCall, ToolDefinition } from '../core/client/types';
import type { ChatTools } from './answers/activeAnswers';
import type { ToolResult } from './answers/answerLoop';

/** What the chat needs of the image tool. */
export interface PanelImageToolLike {
  definition(): ToolDefinition;
  run(call: ToolCall, conversationId: string, token: vscode.CancellationToken): Promise<ToolResult & { cost?: number }>;
}

export const PANEL_IMAGE_TOOL_NAME = 'generate_image';

export function withPanelImageTool(tools: ChatTools, image: (() => PanelImageToolLike) | undefined): ChatTools {
  if (!image) return tools;
  const costs = new Map<string, number>();
  return {
    definitions: (conversationId) => {
      const base = tools.definitions(conversationId);
      return base.length ? [...base, image().definition()] : base;
    },
    runAll: async (calls, token, context) => {
      const conversationId = context?.conversationId;
      const others = calls.filter((c) => c.name !== PANEL_IMAGE_TOOL_NAME);
      const otherResults = others.length ? tools.runAll(others, token, context) : Promise.resolve([]);
      const imageResults = new Map<ToolCall, ToolResult>();
      for (const call of calls.filter((c) => c.name === PANEL_IMAGE_TOOL_NAME)) {
        const r = await image().run(call, conversationId ?? '', token);
        if (r.cost !== undefined && conversationId !== undefined) costs.set(conversationId, (costs.get(conversationId) ?? 0) + r.cost);
        imageResults.set(call, { content: r.content, isError: r.isError });
      }
      const rest = await otherResults;
      let i = 0;
      return calls.map((c) => imageResults.get(c) ?? rest[i++]!);
    },
    takeImageCost: (conversationId) => {
      const cost = costs.get(conversationId);
      costs.delete(conversationId);
      return cost;
    },
  };
}
