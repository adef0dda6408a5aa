// The chat panel's `generate_image` tool: the panel's model asks for images; the image
// model and its rules come from the catalogue as for the command (“modelgate.image.model”); the
// files go into the folder the user set for images (“modelgate.image.folder”), or, when none is
// set, the folder the user names once per conversation. The model's input has prompt, size and
// count only: it cannot choose a folder, and whatever a hostile prompt writes, the folder is the
// user's and the write guard checks it again before each write. Before anything is spent the user
// is asked on the panel's approval card (Generate, Always allow in this conversation, Skip; Skip
// is the default), unless they allowed it for the conversation; a used-up budget asks as for the
// command. The cost goes to the ledger and back to the panel's usage line, and the saved files'
// workspace paths go to the answer, which shows them inline (src/chat/view/chatImages.ts).
import * as vscode from 'vscode';
import type { ToolCall, ToolDefinition } from '../core/client/types';
import type { Services } from '../services/serviceContainer';
import { IMAGE_TOOL_JSON_SCHEMA, parseImageToolInput, planImage, planLines, workspacePath, type ImagePlan } from './imagePlan';
import { resultText, runPlan } from './imageTool';
import { targetForPath } from './imageTarget';
import { errorText } from '../core/errorText';

export const PANEL_IMAGE_TOOL = 'generate_image';

export type ImageApproval = 'once' | 'conversation' | undefined;
/** What the user is asked before an image request is sent: the panel shows it as a card. */
export interface ImageQuestion {
  title: string;
  /** prompt, size, count, model, folder, price: one line each */
  detail: string[];
}
/** Asks before an image request is sent (the chat panel's approval card); undefined = Skip. */
export type ApproveImage = (question: ImageQuestion) => Thenable<ImageApproval>;
/** Asks for the workspace-relative folder of this conversation's images; undefined = cancelled. */
export type AskImageFolder = () => Thenable<string | undefined>;

export interface PanelImageResult {
  content: string;
  isError: boolean;
  /** USD of the images made (for the answer's usage line); already in the ledger */
  cost?: number;
  /** the files written, as workspace paths (the content names them the same way): shown inline in the answer */
  images?: string[];
}

/** The question's lines: the prompt on one line, cut at 500 characters. */
export function imageQuestion(plan: ImagePlan): ImageQuestion {
  return {
    title:
      plan.job.choices.n === 1 ? vscode.l10n.t('Generate an image with Modelgate?') : vscode.l10n.t('Generate {0} images with Modelgate?', plan.job.choices.n),
    detail: planLines(plan).map((l) => vscode.l10n.t('{0}: {1}', l.label, oneLine(l.value))),
  };
}

function oneLine(value: string): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > 500 ? `${line.slice(0, 499)}…` : line;
}

const defaultAskFolder: AskImageFolder = () =>
  vscode.window.showInputBox({
    title: vscode.l10n.t('Modelgate: folder for generated images'),
    prompt: vscode.l10n.t(
      'Save the images of this conversation in which workspace folder? (relative to the workspace; set “modelgate.image.folder” to stop this question)',
    ),
    value: 'images',
    ignoreFocusOut: true,
  });

export class PanelImageTool {
  /** replaced by tests (the input box cannot be typed into from the extension host) */
  askFolder: AskImageFolder = defaultAskFolder;
  private readonly allowed = new Set<string>();
  private readonly folders = new Map<string, string>();

  constructor(private readonly services: Services) {}

  definition(): ToolDefinition {
    return {
      type: 'function',
      function: {
        name: PANEL_IMAGE_TOOL,
        description:
          'Generates images from a text prompt with the image model the user chose, and saves them as files in the workspace (in the folder the user chose for images). Returns the workspace paths. Each call costs money and the user is asked first.',
        parameters: structuredClone(IMAGE_TOOL_JSON_SCHEMA) as unknown as Record<string, unknown>,
      },
    };
  }

  /**
   * Never throws: every failure is a tool error the model can read. `approve` asks the user in the
   * panel (undefined: there is no panel to ask in, and nothing is generated).
   */
  async run(call: ToolCall, conversationId: string, token: vscode.CancellationToken, approve: ApproveImage | undefined): Promise<PanelImageResult> {
    try {
      let input: unknown;
      try {
        input = JSON.parse(call.arguments || '{}');
      } catch {
        return { content: 'generate_image: the arguments are not valid JSON.', isError: true };
      }
      parseImageToolInput(input); // a bad input is reported before the user is asked anything
      const folder = await this.folderFor(conversationId);
      if (folder === undefined) return { content: 'The user did not choose a folder for the images; nothing was generated.', isError: true };
      const plan = await planImage(this.services, input, folder === null ? undefined : folder);
      if (!this.allowed.has(conversationId)) {
        if (!approve)
          return { content: 'generate_image needs the user to approve each request in the chat panel, which is not available here.', isError: true };
        const answer = await approve(imageQuestion(plan));
        if (answer === undefined)
          return { content: 'The user skipped this image request; nothing was generated or spent. Do not ask again unless the user asks.', isError: true };
        if (answer === 'conversation') this.allowed.add(conversationId);
      }
      if (token.isCancellationRequested) return { content: 'Cancelled: the user stopped the request.', isError: true };
      // as for the command: a used-up budget (or a model without a price while one is set) asks first
      const budget = await this.services.budget.confirm('image', { model: plan.job.model.id, priced: plan.cost !== undefined });
      if (!budget.send) return { content: `No image was generated: ${budget.message}`, isError: true };
      // booked with the conversation (the chat's own requests carry its title)
      const run = await runPlan(this.services, plan, token, (p) => this.services.budget.hold(p.cost), {
        via: 'panel',
        ...(conversationId ? { conversation: { id: conversationId, title: '' } } : {}),
      });
      return { content: resultText(plan, run), isError: false, cost: run.cost, images: run.uris.map(workspacePath) };
    } catch (err) {
      if (err instanceof vscode.CancellationError || token.isCancellationRequested) return { content: 'Cancelled: nothing was generated.', isError: true };
      const message = errorText(err);
      return { content: `generate_image failed: ${message.slice(0, 500)}`, isError: true };
    }
  }

  /** The user's images folder: the setting when set (null = use it), else the one asked once per conversation. */
  private async folderFor(conversationId: string): Promise<string | null | undefined> {
    const set = vscode.workspace.getConfiguration('modelgate').inspect<string>('image.folder');
    if (set?.globalValue !== undefined || set?.workspaceValue !== undefined || set?.workspaceFolderValue !== undefined) return null;
    const known = this.folders.get(conversationId);
    if (known !== undefined) return known;
    const answer = (await this.askFolder())?.trim();
    if (answer === undefined) return undefined;
    // checked now (inside the workspace, through the write guard), so a bad answer is not kept
    await targetForPath(answer, vscode.workspace.workspaceFolders![0]!);
    this.folders.set(conversationId, answer);
    return answer;
  }
}
