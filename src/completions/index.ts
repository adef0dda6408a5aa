// Completions as you type: ghost text from the user's own models, through the gateway.
// src/featureLoading/lazyFeatures.ts registers a cheap inline completion provider while the
// setting is on, and builds this feature (createCompletions) on the first keystroke that may
// complete; the status-bar item and the commands that turn completions on, off and snooze them
// live in src/statusBar/completionsItem.ts and work before this is built.
import type { CompletionsState } from '../services/completionsState';
import type { Services } from '../services/serviceContainer';
import { CompletionsFeature } from './completionsFeature';

export type { CompletionsProbe } from './completionsFeature';
export { registerCompletionCommands } from './completionsCommands';
export { ACCEPTED_COMMAND } from './completionsFeature';

export function createCompletions(services: Services, state: CompletionsState): CompletionsFeature {
  return new CompletionsFeature(services, state);
}

export type { CompletionsFeature };
