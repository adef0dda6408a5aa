// What the extension host held before the first suite ran, recorded by index.ts (runWithResults)
// whichever suites a run selects and in whatever order they run: activation.test.ts checks
// "activation builds nothing" against it, so it needs no other suite to have kept its hands off.
// Not a suite itself (index.ts loads *.test.js only). Each suite is its own bundle: the record
// lives on globalThis.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelgateApi } from '../../src/extension';
import type { FeatureLoad } from '../../src/featureLoading/lazyFeatures';

export const FEATURE_FILES = { chat: 'chat.js', images: 'images.js', lm: 'lm.js' } as const;
export type Feature = keyof typeof FEATURE_FILES;

export interface StartState {
  /** whether the extension was active already (onStartupFinished) when the runner looked */
  wasActive: boolean;
  /** how long the runner's extension.activate() call took */
  activateCallMs: number;
  /** api.loadedFeatures() then */
  loadedFeatures: FeatureLoad[];
  /** whether the Node host had evaluated each feature's bundle then (undefined: no require cache, e.g. the web host) */
  required: Record<Feature, boolean | undefined>;
  /** whether it had evaluated dist/zod.js then (the main bundle requires it on the first call of a zod function) */
  zodRequired: boolean | undefined;
  /** the registered command ids starting with 'modelgate.', sorted */
  ownCommands: string[];
}

const SLOT = '__modelgateIntegrationStartState';
type Slot = { [SLOT]?: StartState | { error: string } };

/** whether the Node host has evaluated dist/<feature>.js (or dist/zod.js) of the extension (undefined where there is no require cache) */
export function isRequired(ext: vscode.Extension<unknown>, feature: Feature | 'zod'): boolean | undefined {
  const cache = typeof require === 'function' ? require.cache : undefined;
  return cache ? path.join(ext.extensionPath, 'dist', feature === 'zod' ? 'zod.js' : FEATURE_FILES[feature]) in cache : undefined;
}

export async function ownCommands(): Promise<string[]> {
  return (await vscode.commands.getCommands(true)).filter((c) => c.startsWith('modelgate.')).sort();
}

/** Called by index.ts before mocha runs the first suite. Never throws: a missing extension is the smoke suite's failure. */
export async function recordStartState(extensionId: string): Promise<void> {
  const slot = globalThis as Slot;
  try {
    const ext = vscode.extensions.getExtension<ModelgateApi>(extensionId);
    if (!ext) throw new Error(`${extensionId} is not installed`);
    const wasActive = ext.isActive;
    const t0 = performance.now();
    const api = await ext.activate();
    const activateCallMs = performance.now() - t0;
    slot[SLOT] = {
      wasActive,
      activateCallMs,
      loadedFeatures: api.loadedFeatures(),
      required: { chat: isRequired(ext, 'chat'), images: isRequired(ext, 'images'), lm: isRequired(ext, 'lm') },
      zodRequired: isRequired(ext, 'zod'),
      ownCommands: await ownCommands(),
    };
  } catch (err) {
    slot[SLOT] = { error: err instanceof Error ? err.message : String(err) };
  }
}

/** The record of recordStartState; fails the test when there is none. */
export function startState(): StartState {
  const s = (globalThis as Slot)[SLOT];
  if (!s) throw new Error('no start state: index.ts records it before the first suite (runWithResults)');
  if ('error' in s) throw new Error(`the start state could not be recorded: ${s.error}`);
  return s;
}
