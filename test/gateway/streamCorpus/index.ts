// The stream corpus (types.ts): every transcript, and one by name for the `[[replay:NAME]]` marker.
import { hostedApis } from './hostedApis';
import { localServers } from './localServers';
import { reasoningApis } from './reasoningApis';
import type { Transcript } from './types';

export type { ExpectedCall, ExpectedUsage, Transcript } from './types';

export const STREAM_CORPUS: readonly Transcript[] = [...reasoningApis, ...localServers, ...hostedApis];

export function transcript(name: string): Transcript | undefined {
  return STREAM_CORPUS.find((t) => t.name === name);
}
