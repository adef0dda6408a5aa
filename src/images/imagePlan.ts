// One image request asked for by a model (through Modelgate's `modelgate_generate_image` tool in
// vscode.lm, or the panel's `generate_image` tool): the input checked, the image model and its
// rules from the catalogue (as for the command: “modelgate.image.model”), the folder where the
// command puts images (“modelgate.image.folder”, inside the workspace, through the write guard),
// and the price when the catalogue knows it. The model never chooses the folder or the model:
// the input has prompt, size and count only, and anything else is refused.
import * as vscode from 'vscode';
import * as z from 'zod';
import { formatUsd } from '../core/spend/cost';
import type { Services } from '../services/serviceContainer';
import { imageModelFor } from './generateImageCommand';
import { ImageArgumentsError } from './imageErrors';
import type { ImageJob } from './imageJob';
import { validateChoices } from './imageOptions';
import { configuredTarget, requireWorkspace, targetForPath, type ImageTarget } from './imageTarget';

/** what a model may send: the prompt, and optionally size and count (n) */
export const imageToolInputSchema = z.strictObject({
  prompt: z
    .string()
    .max(4000)
    .refine((p) => p.trim().length > 0, 'must not be empty'),
  size: z.string().max(20).optional(),
  count: z.number().int().optional(),
});
export type ImageToolInput = z.infer<typeof imageToolInputSchema>;

/** The JSON schema of the same input (package.json's languageModelTools and the panel's tool list carry it too). */
export const IMAGE_TOOL_JSON_SCHEMA = {
  type: 'object',
  properties: {
    prompt: { type: 'string', description: 'What the image shows, in detail.' },
    size: { type: 'string', enum: ['256x256', '512x512', '1024x1024', '1792x1024', '1024x1792'], description: 'Image size in pixels (default 1024x1024).' },
    count: { type: 'integer', minimum: 1, maximum: 10, description: 'How many images (default 1).' },
  },
  required: ['prompt'],
  additionalProperties: false,
} as const;

export interface ImagePlan {
  job: ImageJob;
  /** USD for the whole request, when the catalogue has the model's price */
  cost?: number;
}

/** Parses the input; throws ImageArgumentsError that lists every problem. */
export function parseImageToolInput(raw: unknown): ImageToolInput {
  const parsed = imageToolInputSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new ImageArgumentsError(parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)));
}

/**
 * The request the input asks for. `folder` (workspace-relative) replaces “modelgate.image.folder”
 * when the user chose one (the panel asks once per conversation); it goes through the same checks.
 */
export async function planImage(services: Services, raw: unknown, folder?: string): Promise<ImagePlan> {
  const input = parseImageToolInput(raw);
  requireWorkspace();
  const model = await imageModelFor(services, undefined);
  const valid = validateChoices(model, { size: input.size, n: input.count });
  if (!valid.ok) throw new ImageArgumentsError(valid.problems);
  const target = await targetFor(services, folder);
  const cost = services.catalogue().imageCost(model.id, valid.choices.size, valid.choices.n, valid.choices.quality);
  return { job: { prompt: input.prompt.trim(), model, choices: valid.choices, target }, cost };
}

async function targetFor(services: Services, folder: string | undefined): Promise<ImageTarget> {
  const editor = vscode.window.activeTextEditor;
  if (folder === undefined) return (await configuredTarget(editor, services.settings().imageFolder, false))!;
  const base = (editor && vscode.workspace.getWorkspaceFolder(editor.document.uri)) ?? vscode.workspace.workspaceFolders![0]!;
  return targetForPath(folder, base);
}

/** A folder or file as the user reads it: workspace-relative (with the folder's name when there are several). */
export function workspacePath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** "$0.08", or words saying the price is not known. */
export function priceText(cost: number | undefined): string {
  return cost === undefined ? vscode.l10n.t('unknown (no price for this model in the catalogue)') : formatUsd(cost);
}

/** The lines a confirmation shows: prompt, size, count, model, folder, price. */
export function planLines(plan: ImagePlan): { label: string; value: string }[] {
  const { job } = plan;
  const folder = workspacePath(job.target.folder);
  return [
    { label: vscode.l10n.t('Prompt'), value: job.prompt },
    { label: vscode.l10n.t('Size'), value: job.choices.size },
    { label: vscode.l10n.t('Count'), value: String(job.choices.n) },
    { label: vscode.l10n.t('Model'), value: job.model.id },
    { label: vscode.l10n.t('Folder'), value: folder === job.target.folder.fsPath || !folder ? job.target.workspaceFolder.name : folder },
    { label: vscode.l10n.t('Price'), value: priceText(plan.cost) },
  ];
}
