// `modelgate.generateImage`: the three ways it starts, told apart by its argument.
//  - a Uri: the Explorer (folder or file) or an editor's context menu / title bar (the document);
//  - nothing: the command palette;
//  - an argument object: a programmatic call, which asks no questions, validates against the
//    catalogue before any request, and resolves with the Uris written (or rejects; errors are
//    also shown as a non-modal notification, never a modal dialog that would block the caller).
// The active text editor is read once, when the command starts: its selection prefills the
// prompt and, for Markdown and HTML, it receives the link.
import * as vscode from 'vscode';
import { GatewayError } from '../core';
import { unknownImageModel, type ImageModelInfo, type ModelCatalogue } from '../core/catalogue/modelCatalogue';
import { IMAGE_COMMANDS } from '../shared/featureIds';
import type { Services } from '../services/serviceContainer';
import { showError } from '../shared/userErrors';
import { isResourceArgument, parseImageArgs, type ImageArgs } from './imageArgs';
import { endUserFor } from './endUser';
import { ImageArgumentsError } from './imageErrors';
import { insertImageLinks, linkSpotFor, openImages, showRevisedPrompts, type LinkSpot } from './imageFollowUp';
import { runImageJob, type ImageJob } from './imageJob';
import { validateChoices } from './imageOptions';
import { askModel, askOptions, askPrompt, asksOptions, confirmRequest } from './imageQuestions';
import { checkImageFolder, configuredTarget, requireWorkspace, targetForPath, targetForResource, workspaceFolderOf, type ImageTarget } from './imageTarget';
import { LastImageChoices } from './lastChoices';
import { errorText } from '../core/errorText';

export const GENERATE_IMAGE_COMMAND = IMAGE_COMMANDS.generateImage;

const MAX_PREFILL = 2000;

interface FollowUp {
  link?: LinkSpot;
  open: boolean;
}

export function registerGenerateImageCommand(services: Services): vscode.Disposable {
  const last = new LastImageChoices(services.context.globalState);
  return vscode.commands.registerCommand(GENERATE_IMAGE_COMMAND, (arg?: unknown) => {
    const editor = vscode.window.activeTextEditor;
    if (arg === undefined || isResourceArgument(arg)) return generateInteractively(services, last, arg, editor);
    return generateProgrammatically(services, arg, editor);
  });
}

// ---------- interactive ----------

async function generateInteractively(
  services: Services,
  last: LastImageChoices,
  resource: vscode.Uri | undefined,
  editor: vscode.TextEditor | undefined,
): Promise<vscode.Uri[] | undefined> {
  let job: ImageJob;
  let followUp: FollowUp;
  try {
    requireWorkspace();
    // Started from the editor: the palette while it is active, or its own menus (which pass its Uri).
    const fromEditor = !!editor && (!resource || resource.toString() === editor.document.uri.toString());
    const target =
      resource && resource.scheme !== 'untitled' ? await targetForResource(resource) : await configuredTarget(editor, services.settings().imageFolder, true);
    if (!target) return undefined;
    services.gateway.client(); // an invalid base URL is reported now, not after five questions
    if (!(await services.gateway.ensureKey())) return undefined;
    const user = await endUserFor(services, undefined); // a bad “modelgate.endUserId” too

    const prompt = await askPrompt(fromEditor && editor ? selectionText(editor) : '');
    if (!prompt) return undefined;
    const catalogue = await catalogueWith(services, services.settings().imageModel);
    if (!catalogue.imageModels().length)
      throw new ImageArgumentsError([vscode.l10n.t('the model catalogue has no image model (add one under “modelgate.models” with kind "image")')]);
    const model = await askModel(catalogue, services.settings().imageModel);
    if (!model) return undefined;
    const choices = await askOptions(model, last);
    if (!choices) return undefined;
    // nothing was chosen, so no row showed the price: the request and its price, before spending
    if (!asksOptions(model) && !(await confirmRequest(model, choices))) return undefined;
    await last.remember(model.id, choices);

    job = { prompt, model, choices, target, user };
    followUp = { link: fromEditor ? linkSpotFor(editor) : undefined, open: true };
  } catch (err) {
    void showError(err, services);
    return undefined;
  }

  const attempt = async (): Promise<vscode.Uri[] | undefined> => {
    try {
      return await execute(services, job, followUp);
    } catch (err) {
      if (err instanceof vscode.CancellationError) return undefined;
      void showError(err, services, () => attempt());
      return undefined;
    }
  };
  return attempt();
}

function selectionText(editor: vscode.TextEditor): string {
  const text = editor.document.getText(editor.selection).trim();
  return text.length > MAX_PREFILL ? text.slice(0, MAX_PREFILL) : text;
}

// ---------- programmatic ----------

async function generateProgrammatically(services: Services, arg: unknown, editor: vscode.TextEditor | undefined): Promise<vscode.Uri[]> {
  try {
    const parsed = parseImageArgs(arg);
    if (!parsed.ok) throw new ImageArgumentsError(parsed.problems);
    const args = parsed.args;
    requireWorkspace();
    const user = await endUserFor(services, args.user);
    const model = await imageModelFor(services, args.model);
    const valid = validateChoices(model, args);
    if (!valid.ok) throw new ImageArgumentsError(valid.problems);
    const target = await programmaticTarget(services, args, editor);
    services.gateway.client();
    await requireKey(services);
    const job: ImageJob = { prompt: args.prompt.trim(), model, choices: valid.choices, format: args.format, user, target };
    return await execute(services, job, {
      link: args.insertLink === false ? undefined : linkSpotFor(editor),
      open: args.open !== false,
    });
  } catch (err) {
    if (!(err instanceof vscode.CancellationError)) void showError(err, services);
    throw err;
  }
}

/**
 * The catalogue once it knows `id`, or once the gateway's list has been (re)fetched: at
 * start-up the background GET /models may still be in flight, and a model it lists must not be
 * refused because the answer has not landed yet. refreshCatalogue() joins a fetch in flight.
 */
async function catalogueWith(services: Services, id: string): Promise<ModelCatalogue> {
  if (services.catalogue().get(id)) return services.catalogue();
  // Without a key there is no list to wait for: ask for the key first (the request needs it
  // anyway), rather than refusing a model the gateway would list.
  services.gateway.client(); // an invalid base URL is reported as such, not as an unknown model
  await requireKey(services);
  await services.refreshCatalogue();
  return services.catalogue();
}

/** The image model `requested` (default: “modelgate.image.model”) from the catalogue, with its rules. */
export async function imageModelFor(services: Services, requested: string | undefined): Promise<ImageModelInfo> {
  const id = requested ?? services.settings().imageModel;
  const catalogue = await catalogueWith(services, id);
  const model = catalogue.imageModel(id);
  if (model) return model;
  // The user named it in “modelgate.image.model”: trust that, send what was asked, show the answer.
  if (id === services.settings().imageModel && !catalogue.get(id)) return unknownImageModel(id, 'settings');
  const known = catalogue.imageModels().map((m) => m.id);
  throw new ImageArgumentsError([
    vscode.l10n.t(
      'model “{0}” is not an image model of the catalogue (image models: {1})',
      id,
      known.length ? known.join(', ') : vscode.l10n.t('none; add one under “modelgate.models”'),
    ),
  ]);
}

export async function requireKey(services: Services): Promise<void> {
  if (!(await services.gateway.ensureKey())) {
    throw new GatewayError('auth', vscode.l10n.t('No Modelgate API key is set, so no image was generated. Set one with “Modelgate: Set API Key”.'), {
      retryable: false,
    });
  }
}

async function programmaticTarget(services: Services, args: ImageArgs, editor: vscode.TextEditor | undefined): Promise<ImageTarget> {
  if (args.folder instanceof vscode.Uri) return checkImageFolder(args.folder);
  if (typeof args.folder === 'string') {
    const base = workspaceFolderOf(editor) ?? vscode.workspace.workspaceFolders![0];
    return targetForPath(args.folder, base);
  }
  return (await configuredTarget(editor, services.settings().imageFolder, false))!;
}

// ---------- both ----------

async function execute(services: Services, job: ImageJob, followUp: FollowUp): Promise<vscode.Uri[]> {
  const client = services.gateway.client();
  const { choices, model } = job;
  const cost = services.catalogue().imageCost(model.id, choices.size, choices.n, choices.quality);
  // a used-up budget (or, while one is set, a model without a price) asks first (src/services/budgetGuard.ts)
  if (!(await services.budget.confirm('image', { model: model.id, priced: cost !== undefined })).send) throw new vscode.CancellationError();
  // the request's cost is reserved until it is recorded (a burst of requests cannot all pass the budget)
  const hold = services.budget.hold(cost);
  services.log.info(`images: ${choices.n} × ${choices.size} with ${model.id} into ${job.target.folder.toString(true)}`);
  const result = await Promise.resolve(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Modelgate'), cancellable: true }, (progress, token) =>
      runImageJob(
        {
          client,
          onProgress: (message) => progress.report({ message }),
          // No provider field is sent for images, so the gateway's default channel served it.
          onResponse: (response) => {
            services.usage.record({
              source: 'image',
              model: model.id,
              channel: 'default',
              images: response.data.length,
              cost: services.catalogue().imageCost(model.id, choices.size, response.data.length, choices.quality),
            });
            hold.settle();
          },
        },
        job,
        token,
      ),
    ),
  ).finally(() => hold.settle());
  services.log.info(`images: saved ${result.uris.map((u) => vscode.workspace.asRelativePath(u, true)).join(', ')}`);
  if (followUp.link) {
    try {
      await insertImageLinks(followUp.link, result.uris, job.prompt, job.target.workspaceFolder.uri);
    } catch (err) {
      services.log.warn(`images: could not insert the link: ${errorText(err)}`);
    }
  }
  if (followUp.open) await openImages(result.uris, !!followUp.link, services.log);
  showRevisedPrompts(result.revisedPrompts);
  return result.uris;
}
