// Image generation: "Generate Image Here" (modelgate.generateImage). src/featureLoading/lazyFeatures.ts calls
// registerImageCommands on the command's first use and owns the returned disposables.
import type * as vscode from 'vscode';
import type { Services } from '../services/serviceContainer';
import { registerGenerateImageCommand } from './generateImageCommand';
import { ImageLmTool } from './imageTool';
import { PanelImageTool } from './panelImageTool';

export function registerImageCommands(services: Services): vscode.Disposable[] {
  return [registerGenerateImageCommand(services)];
}

export { GENERATE_IMAGE_COMMAND } from './generateImageCommand';
export { openImageQuestion, type ImageQuestionView } from './imageQuestions';
export { ImageLmTool, PanelImageTool };
export { runImageJob, type ImageJob, type ImageJobDeps, type ImageJobResult } from './imageJob';
/** The `modelgate_generate_image` tool of vscode.lm (registered by src/featureLoading/lazyFeatures.ts). */
export function createImageTool(services: Services): ImageLmTool {
  return new ImageLmTool(services);
}

/** The chat panel's `generate_image` tool (handed to the chat by src/featureLoading/lazyFeatures.ts). */
export function createPanelImageTool(services: Services): PanelImageTool {
  return new PanelImageTool(services);
}
