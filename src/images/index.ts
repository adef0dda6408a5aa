// Image generation: "Generate Image Here" (modelgate.generateImage). src/featureLoading/lazyFeatures.ts calls
// registerImageCommands on the command's first use and owns the returned disposables.
import type * as vscode from 'vscode';
import type { Services } from '../services/serviceContainer';
import { registerGenerateImageCommand } from './generateImageCommand';

export function registerImageCommands(services: Services): vscode.Disposable[] {
  return [registerGenerateImageCommand(services)];
}

export { GENERATE_IMAGE_COMMAND } from './generateImageCommand';
export { runImageJob, type ImageJob, type ImageJobDeps, type ImageJobResult } from './imageJob';
