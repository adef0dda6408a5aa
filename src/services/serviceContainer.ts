// The few long-lived services that features share, constructed once in activate().
// Deliberately small: each feature receives only this record, not a service locator.
import type * as vscode from 'vscode';
import type { GatewayClient } from '../core';
import type { ChannelChoice, ModelCatalogue } from '../core/catalogue/modelCatalogue';
import type { Settings } from './settings';
import type { KeyStore } from './keyStore';
import type { Log } from './log';
import type { UsageLedger } from './usageLedger';
import type { BudgetGuard } from './budgetGuard';
import type { ChannelHealthStore } from './channelHealthStore';
import type { CompletionsState } from './completionsState';
import type { LearnedWindowStore } from './learnedWindowStore';

export interface Gateway {
  /**
   * The shared client for the configured base URL. Throws a GatewayError of kind 'bad_request'
   * with an actionable message when the base URL setting is invalid.
   */
  client(): GatewayClient;
  /**
   * Returns the API key, asking the user for one when none is stored (input box).
   * Undefined when the user dismissed the prompt.
   */
  ensureKey(): Promise<string | undefined>;
}

export interface Services {
  context: vscode.ExtensionContext;
  settings: () => Settings;
  onDidChangeSettings: vscode.Event<Settings>;
  keys: KeyStore;
  catalogue: () => ModelCatalogue;
  onDidChangeCatalogue: vscode.Event<ModelCatalogue>;
  /** refetches the gateway's model list in the background (pickers call it when they open) */
  refreshCatalogue(): Promise<void>;
  gateway: Gateway;
  /** records what each request cost; the status bar shows the last one */
  usage: UsageLedger;
  /** the budgets (modelgate.budget.*): asks or refuses before a request while one is used up */
  budget: BudgetGuard;
  /** channel health measured from the user's requests, and the failover client that measures it */
  health: ChannelHealthStore;
  /** completions as you type: the snooze, today's counts, what stops them (shared by the status bar and the feature) */
  completions: CompletionsState;
  /** context windows the gateway named in overflow errors, which replace larger ones from the settings or /models */
  windows: LearnedWindowStore;
  log: Log;
  /**
   * Set by `noteSimulatorDemo()` of the public API (the `npm start` demo's seeder calls it, with a
   * loopback gateway only): the chat panel says once that the gateway is a simulator.
   */
  simulatorDemo: { on: boolean };
}

export type { ChannelChoice };
