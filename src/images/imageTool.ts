// Image generation as a tool for every other agent: `modelgate_generate_image`, declared
// in package.json's contributes.languageModelTools and registered with vscode.lm.registerTool
// (src/featureLoading/lazyFeatures.ts registers a proxy at activation and builds this on first use).
// - prepareInvocation returns a confirmation with the prompt, size, count, model, folder and the
//   price when the catalogue knows it: VS Code shows it in its chat, and as a dialog when another
//   extension calls vscode.lm.invokeTool outside a chat.
// - the confirmation shows what each budget leaves; a call the budget will refuse (used up, or a
//   budget set and the model without a price) is refused by prepareInvocation, before VS Code
//   asks, with the budget named. invoke checks again and reserves the estimated cost through the
//   budget guard, as vscode.lm requests do (src/lm/provider.ts).
// - the images are booked under the caller (see callerOf), never as the image command.
// - the images go where the command puts them (“modelgate.image.folder”), through the write
//   guard; the result lists their workspace paths so the calling agent can link them.
import * as vscode from 'vscode';
import type { Services } from '../services/serviceContainer';
import type { UsageEntry } from '../services/usageLedger';
import { requireKey } from './generateImageCommand';
import { runImageJob } from './imageJob';
import { planImage, planLines, priceText, workspacePath, type ImagePlan } from './imagePlan';

export interface ImageRun {
  uris: vscode.Uri[];
  revisedPrompts: string[];
  /** USD recorded in the ledger (undefined: no price known) */
  cost?: number;
}

/**
 * Sends the planned request and saves the images. `reserve` decides about the budget before
 * anything is sent (throws to refuse); the cost goes to the ledger once the gateway answered.
 */
export async function runPlan(
  services: Services,
  plan: ImagePlan,
  token: vscode.CancellationToken,
  reserve: (plan: ImagePlan) => { settle(): void },
  booking: Pick<UsageEntry, 'via' | 'requester' | 'conversation'>,
): Promise<ImageRun> {
  const client = services.gateway.client();
  await requireKey(services);
  const hold = reserve(plan);
  const { model, choices } = plan.job;
  let cost: number | undefined;
  try {
    const result = await runImageJob(
      {
        client,
        onResponse: (response) => {
          cost = services.catalogue().imageCost(model.id, choices.size, response.data.length, choices.quality);
          services.usage.record({ source: 'image', ...booking, model: model.id, channel: 'default', images: response.data.length, cost });
          hold.settle();
        },
      },
      plan.job,
      token,
    );
    services.log.info(`images (tool): saved ${result.uris.map(workspacePath).join(', ')}`);
    return { uris: result.uris, revisedPrompts: result.revisedPrompts, cost };
  } finally {
    hold.settle();
  }
}

/** What the calling model reads: the workspace paths, the model, the cost. */
export function resultText(plan: ImagePlan, run: ImageRun): string {
  const lines = [
    run.uris.length === 1
      ? vscode.l10n.t('Generated 1 image with {0} ({1}); cost {2}. Saved in the workspace:', plan.job.model.id, plan.job.choices.size, priceText(run.cost))
      : vscode.l10n.t(
          'Generated {0} images with {1} ({2}); cost {3}. Saved in the workspace:',
          run.uris.length,
          plan.job.model.id,
          plan.job.choices.size,
          priceText(run.cost),
        ),
    ...run.uris.map((u) => `- ${workspacePath(u)}`),
  ];
  if (run.revisedPrompts.length) lines.push(vscode.l10n.t('The image model revised the prompt to: {0}', run.revisedPrompts.join(' | ')));
  return lines.join('\n');
}

export class ImageLmTool implements vscode.LanguageModelTool<unknown> {
  /** the last confirmation returned (tests read it: VS Code shows it in a dialog the tests cannot read) */
  lastConfirmation: vscode.LanguageModelToolConfirmationMessages | undefined;
  /** why the last call was refused before its confirmation (tests read it) */
  lastRefusal: string | undefined;

  constructor(private readonly services: Services) {}

  async prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<unknown> & { toolInvocationToken?: unknown },
  ): Promise<vscode.PreparedToolInvocation> {
    let plan: ImagePlan;
    try {
      plan = await planImage(this.services, options.input);
    } catch {
      // invalid input (or no workspace): nothing will be spent, invoke reports the problem
      this.lastConfirmation = undefined;
      return { invocationMessage: vscode.l10n.t('Checking the image request') };
    }
    const message = new vscode.MarkdownString();
    for (const { label, value } of planLines(plan)) {
      message.appendMarkdown(`**${label}:** ${markdownText(value)}  \n`);
    }
    // What the budgets leave, with the other windows' spending read first. A call the budget
    // will refuse is refused here, before VS Code asks: never a Yes that then fails.
    await this.services.usage.refreshSpend().catch(() => undefined);
    const refusal = this.services.budget.lmRefusal(callerOf(options, this.services), plan.job.model.id, plan.cost);
    if (refusal) {
      this.lastConfirmation = undefined;
      this.lastRefusal = refusal;
      throw new Error(refusal);
    }
    this.lastRefusal = undefined;
    for (const line of this.services.budget.remainingLines()) message.appendMarkdown(`**${markdownText(vscode.l10n.t('Budget'))}:** ${markdownText(line)}  \n`);
    const confirmation = {
      title:
        plan.job.choices.n === 1
          ? vscode.l10n.t('Generate an image with Modelgate?')
          : vscode.l10n.t('Generate {0} images with Modelgate?', plan.job.choices.n),
      message,
    };
    this.lastConfirmation = confirmation;
    return {
      invocationMessage: vscode.l10n.t('Generating an image with Modelgate ({0})', priceText(plan.cost)),
      confirmationMessages: confirmation,
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const plan = await planImage(this.services, options.input);
    const requester = callerOf(options, this.services);
    // refused like a vscode.lm request from another extension: the budget is named in the error
    const run = await runPlan(this.services, plan, token, (p) => this.services.budget.reserveForLm(requester, p.job.model.id, p.cost), {
      via: 'imageTool',
      ...(requester ? { requester } : {}),
    });
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(resultText(plan, run))]);
  }
}

/**
 * Who the images are booked under. VS Code does not pass the calling extension to a tool: a call
 * from a chat request (it carries the chat's invocation token) is VS Code's chat ('core'); any
 * other is the one extension whose vscode.lm requests this window just answered, else not reported.
 */
export function callerOf(options: { toolInvocationToken?: unknown }, services: Pick<Services, 'usage'>): string | undefined {
  if (options.toolInvocationToken !== undefined) return 'core';
  return services.usage.recentLmRequester() || undefined;
}

/** Text (a model's prompt) shown as itself in Markdown: one line, every character that could start markup escaped. */
export function markdownText(value: string): string {
  return value.replace(/\s+/g, ' ').replace(/[\\`*_{}[\]<>!#|~&]/g, (c) => `\\${c}`);
}
