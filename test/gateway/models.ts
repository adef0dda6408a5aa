// What the simulated gateway serves: the models of the service interface (spec section 1 and
// 4.2), under the ids the extension's built-in catalogue expects (src/core/catalogue/modelCatalogue.ts).
// The simulator deliberately does not import the catalogue: it stands for the real service,
// which knows nothing about the client.
import type { Channel } from '../../src/core/client/types';

export interface SimChatModel {
  kind: 'chat';
  id: string;
  imageInput: boolean;
  contextWindow: number;
  maxOutput: number;
  /** explicit prompt caching (spec 4.1 rule 3) */
  caching: boolean;
}

export type SimImageSize = '256x256' | '512x512' | '1024x1024' | '1792x1024' | '1024x1792';

export interface SimImageModel {
  kind: 'image';
  id: string;
  sizes: readonly SimImageSize[];
  maxN: number;
  /** quality and style "apply to <image_model_restricted> only" (spec 4.2) */
  qualityAndStyle: boolean;
  /** only the third-generation model refines prompts */
  revisesPrompt: boolean;
}

export const SIM_CHAT_MODELS: readonly SimChatModel[] = [
  { kind: 'chat', id: 'flagship-text', imageInput: false, contextWindow: 1_000_000, maxOutput: 128_000, caching: true },
  { kind: 'chat', id: 'long-context-tools', imageInput: true, contextWindow: 2_000_000, maxOutput: 2_000_000, caching: true },
];

export const SIM_IMAGE_MODELS: readonly SimImageModel[] = [
  { kind: 'image', id: 'image-restricted', sizes: ['1024x1024', '1792x1024', '1024x1792'], maxN: 1, qualityAndStyle: true, revisesPrompt: true },
  { kind: 'image', id: 'image-small', sizes: ['256x256', '512x512', '1024x1024'], maxN: 10, qualityAndStyle: false, revisesPrompt: false },
  // Listed by GET /models only: the extension's built-in catalogue does not know its rules
  // (issue 12: such a model must work on the first call, with the options the caller asked for).
  { kind: 'image', id: 'image-gateway-only', sizes: ['256x256', '512x512', '1024x1024'], maxN: 4, qualityAndStyle: false, revisesPrompt: false },
];

/** Spec 2.4: "When `provider` is omitted, the service picks the default channel." The sim picks this one. */
export const DEFAULT_CHANNEL: Channel = 'stable';
export const SIM_CHANNELS: readonly Channel[] = ['direct', 'stable', 'economical'];

export function chatModel(id: string): SimChatModel | undefined {
  return SIM_CHAT_MODELS.find((m) => m.id === id);
}

export function imageModel(id: string): SimImageModel | undefined {
  return SIM_IMAGE_MODELS.find((m) => m.id === id);
}
