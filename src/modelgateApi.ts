// What activate() returns: to every other extension a read-only public API; in test mode the
// same plus the members only the tests may use.
import type * as vscode from 'vscode';
import type { ChatApi } from './chat';
import type { ModelCatalogue } from './core/catalogue/modelCatalogue';
import type { ActivationTiming } from './featureLoading/activationTiming';
import type { ImageLmTool, ImageQuestionView, PanelImageTool } from './images';
import type { FeatureLoad } from './featureLoading/lazyFeatures';
import type { KeyStore } from './services/keyStore';
import type { Settings } from './services/settings';
import type { UsageEntry, UsageLedger } from './services/usageLedger';
import type { SpendApi } from './spendingView';
import type { PickerItemView } from './statusBar/modelChannelPicker';
import type { VsCodeChatPrompts } from './lm';
import type { CompletionsProbe } from './completions';
import type { TurnOnAsk } from './services/completionsState';
import { startupEnvironmentValue } from './platform/startupEnvironment';

/**
 * What activate() returns to every other extension: figures to read, nothing that
 * sends a request or changes how Modelgate decides. Requests go through vscode.lm (vendor
 * `modelgate`) and the `modelgate.generateImage` command, with the budgets, the spend ledger and
 * the key rules. Every value is a copy: changing it changes nothing in Modelgate.
 */
export interface ModelgatePublicApi {
  readonly version: 1;
  /** the settings as Modelgate read them (a copy) */
  settings(): Settings;
  /** whether a key is stored for the configured gateway (never the key itself) */
  hasKey(): Promise<boolean>;
  /** the last request's usage record (model, channel, tokens, cost), as the status bar shows it (a copy) */
  lastUsage(): UsageEntry | undefined;
  /** what was spent in the current local day, week or month */
  readonly spend: Pick<SpendApi, 'summary'>;
  /**
   * For the `npm start` demo's seeder (never shipped): with a loopback gateway (127.0.0.1 or
   * localhost, the simulator), the chat panel says once that its answers are scripted and how to
   * point Modelgate at a real gateway. Only that notice: nothing about cost, keys or requests.
   */
  noteSimulatorDemo(): void;
}

/**
 * What activate() returns when the extension runs in test mode (the integration tests: VS Code's
 * extension test mode, or the test runner's MODELGATE_TEST_ENTRY in the extension host): the
 * public API plus the members only the tests may use (the chat controller, the budget prompt
 * hook, the view's receive function, activation timing). Outside test mode none of them exists.
 */
export interface ModelgateApi extends ModelgatePublicApi {
  /** exactly what other extensions get (outside test mode activate() returns this object) */
  readonly publicApi: ModelgatePublicApi;
  statusBarText(): string;
  catalogue(): ModelCatalogue;
  /** refetches GET /models (no-op without a key or base URL) */
  refreshCatalogue(): Promise<void>;
  /** the channel picker's rows as the user sees them (label, description, detail) */
  channelPickerItems(): PickerItemView[];
  /** the model picker's rows as the user sees them (label, description, detail) */
  modelPickerItems(): PickerItemView[];
  /** the status-bar tooltip's markdown */
  statusBarTooltip(): string;
  /** the row VS Code makes active in the open model/channel picker (the one Enter picks); undefined once it closes */
  pickerActiveRow(): string | undefined;
  /** the open model/channel picker's rows in order, separators included; undefined once it closes */
  pickerRows(): PickerItemView[] | undefined;
  /** the chat feature (built on first access, like the chat view's first use) */
  readonly chat: ChatApi;
  /** the vscode.lm image tool once built (its last confirmation: VS Code shows it in a dialog the tests cannot read) */
  imageTool(): ImageLmTool | undefined;
  /** the chat panel's generate_image tool once built (tests replace its questions), else undefined */
  panelImageTool(): PanelImageTool | undefined;
  /** the image command's open question as shown (title, rows with their prices), else undefined */
  imageQuestion(): ImageQuestionView | undefined;
  /** chat, images and lm are built on first use: which are built so far, and what triggered each */
  loadedFeatures(): FeatureLoad[];
  /** where activation's time goes, in ms (printed by the activation integration test) */
  readonly activationTiming: ActivationTiming;
  /** spending and budgets (src/spendingView), with the test hooks */
  spend: SpendApi;
  /** replaces the modal and the notification of "Use in VS Code Chat" (undefined: VS Code's own again) */
  useInVsCodeChatPrompts(prompts: VsCodeChatPrompts | undefined): void;
  /** completions as you type */
  readonly completions: {
    /** what the feature did, once built (the first keystroke that may complete), else undefined */
    probe(): CompletionsProbe | undefined;
    /** the status-bar item as shown */
    status(): { visible: boolean; text: string; tooltip: string };
    /** replaces the question before turning them on (the modal cannot be clicked from the extension host); undefined restores it */
    setTurnOnAsk(ask: TurnOnAsk | undefined): void;
  };
}

/** A copy of plain data (settings, usage records), so a caller cannot change Modelgate's own. */
const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export function publicApiOf(parts: {
  settings: () => Settings;
  keys: KeyStore;
  usage: UsageLedger;
  spend: SpendApi;
  noteSimulatorDemo: () => void;
}): ModelgatePublicApi {
  return Object.freeze({
    version: 1 as const,
    settings: () => copy(parts.settings()),
    hasKey: async () => !!(await parts.keys.get()),
    lastUsage: () => copy(parts.usage.last()),
    spend: Object.freeze({ summary: (period: Parameters<SpendApi['summary']>[0]) => parts.spend.summary(period) }),
    noteSimulatorDemo: () => parts.noteSimulatorDemo(),
  });
}

/**
 * What activate() returns: outside test mode the public API only (the test API is not even built),
 * in test mode the test API.
 */
export function exportsFor(testMode: boolean, publicApi: ModelgatePublicApi, testApi: () => ModelgateApi): ModelgatePublicApi | ModelgateApi {
  return testMode ? testApi() : publicApi;
}

/**
 * Test mode: VS Code's extension tests, or the test runner extension's suite in this extension
 * host, which the harness names in the host's environment at launch. Read from the environment
 * the host started with: another extension in the same host that sets the variable later does
 * not get the test-only members.
 */
export function inTestMode(
  context: Pick<vscode.ExtensionContext, 'extensionMode'>,
  testMode: vscode.ExtensionMode,
  startupValue: (name: string) => string | undefined = startupEnvironmentValue,
): boolean {
  return context.extensionMode === testMode || !!startupValue('MODELGATE_TEST_ENTRY');
}
