// The panel's tools plus Modelgate's `generate_image` (src/images/panelImageTool.ts, built on first
// use by src/featureLoading/lazyFeatures.ts and handed in here). It is offered only where the
// workspace tools are (a trusted workspace with a folder open). Image calls run one after another
// (each may ask the user); the other calls go to the workspace tools unchanged, so their own rules
// and guards apply. Before an image request is sent the user is asked on the panel's approval card
// (./approvals.ts): Generate, Always allow in this conversation, or Skip, which is
// the default (money is at stake) and the answer on Stop. What the images cost is kept per
// conversation for the answer's usage line; the files' workspace paths go with the tool result, so
// the answer shows them inline.
import * as vscode from 'vscode';
import type { ToolCall, ToolDefinition } from '../core/client/types';
import type { Approvals } from './approvals';
import type { ChatTools, ToolResult } from './chatTools';
import type { ToolRunContext } from './toolContext';

export type ImageApprovalAnswer = 'once' | 'conversation' | undefined;

/** What the user is asked before an image request is sent (title, then one line per fact). */
export interface ImageQuestionLike {
  title: string;
  detail: string[];
}

/** What the chat needs of the image tool. */
export interface PanelImageToolLike {
  definition(): ToolDefinition;
  run(
    call: ToolCall,
    conversationId: string,
    token: vscode.CancellationToken,
    approve: ((question: ImageQuestionLike) => Thenable<ImageApprovalAnswer>) | undefined,
  ): Promise<ToolResult & { cost?: number }>;
}

export const PANEL_IMAGE_TOOL_NAME = 'generate_image';

/** The card's choices, by id; `skip` is the safe one. */
export const IMAGE_CHOICES = { generate: 'generate', always: 'always', skip: 'skip' } as const;

/** Asks on the approval card of the answer `context` names. */
export function askOnCard(
  approvals: Approvals,
  context: ToolRunContext,
  token: vscode.CancellationToken,
): (question: ImageQuestionLike) => Promise<ImageApprovalAnswer> {
  return async (question) => {
    const choice = await approvals.ask(
      {
        conversationId: context.conversationId,
        messageId: context.messageId,
        title: question.title,
        detail: question.detail,
        choices: [
          { id: IMAGE_CHOICES.generate, label: vscode.l10n.t('Generate') },
          { id: IMAGE_CHOICES.always, label: vscode.l10n.t('Always allow in this conversation') },
          { id: IMAGE_CHOICES.skip, label: vscode.l10n.t('Skip') },
        ],
        safeChoiceId: IMAGE_CHOICES.skip,
      },
      token,
    );
    return choice === IMAGE_CHOICES.generate ? 'once' : choice === IMAGE_CHOICES.always ? 'conversation' : undefined;
  };
}

export function withPanelImageTool(tools: ChatTools, image: (() => PanelImageToolLike) | undefined, approvals: Approvals): ChatTools {
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
        const r = await image().run(call, conversationId ?? '', token, context ? askOnCard(approvals, context, token) : undefined);
        if (r.cost !== undefined && conversationId !== undefined) costs.set(conversationId, (costs.get(conversationId) ?? 0) + r.cost);
        imageResults.set(call, { content: r.content, isError: r.isError, ...(r.images?.length ? { images: [...r.images] } : {}) });
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
