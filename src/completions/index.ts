// Completions as you type: ghost text from the user's own models, through the gateway.
// src/featureLoading/lazyFeatures.ts registers a cheap inline completion provider while the
// setting is on, and builds this feature (createCompletions) on the first keystroke that may
// complete. Its commands (the status-bar item's menu: on, off, snooze) are registered on their
// first use; its status-bar item (CompletionsStatusItem) is made a moment after activation while
// completions are on, and the model picker reads the cost of an hour of typing (hourlyText): both
// load this bundle without building the feature.
import type { CompletionsState } from '../services/completionsState';
import type { Services } from '../services/serviceContainer';
import { CompletionsFeature } from './completionsFeature';
import { CompletionTally } from './completionTally';
import { CompletionsStatusItem } from './completionsStatus';

export type { CompletionsProbe } from './completionsFeature';
export { registerCompletionCommands } from './completionsCommands';
export { ACCEPTED_COMMAND } from './completionsFeature';
export { hourlyText } from './completionsMoney';

export function createCompletions(services: Services, state: CompletionsState, tally: CompletionTally): CompletionsFeature {
  return new CompletionsFeature(services, state, tally);
}

/** Today's shown and accepted completions and the learned typing rhythm: one per window, shared by the feature and the status look. */
export function createStatusItem(services: Services, state: CompletionsState, tally: CompletionTally): CompletionsStatusItem {
  return new CompletionsStatusItem(services, state, tally);
}

export function createTally(services: Services, state: CompletionsState): CompletionTally {
  return new CompletionTally(services.context.globalState, () => state.notify());
}

export type { CompletionsFeature, CompletionTally, CompletionsStatusItem };
