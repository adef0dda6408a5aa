// activate(): construct the services, wire them, register commands and views. No logic of its own.
import * as vscode from 'vscode';
import { readSettings, SECTION, type Settings } from './services/settings';
import { KeyStore } from './services/keyStore';
import { GatewayService } from './services/gatewayService';
import { CatalogueService } from './services/catalogueService';
import { UsageLedger, type UsageEntry } from './services/usageLedger';
import { ModelStatusBar } from './statusBar/statusBar';
import { ChannelHealthStore } from './services/channelHealthStore';
import { channelPickerItems, pickChannel, pickerActiveRow, pickModel, pickModelOrChannel, type PickerItemView } from './statusBar/modelChannelPicker';
import { createLog } from './services/log';
import type { ChatApi } from './chat';
import { registerLazyFeatures, type FeatureLoad } from './featureLoading/lazyFeatures';
import { registerOnboarding } from './onboarding';
import { setApiKeyCommand } from './onboarding/setKeyFlow';
import type { Services } from './services/serviceContainer';
import type { ModelCatalogue } from './core/catalogue/modelCatalogue';
import { BudgetGuard, registerSpending, type SpendApi } from './spendingView';
import { setTranslator } from './core/l10n';
import { isLoopbackHost } from './core/client/baseUrl';

/**
 * What activate() returns to every other extension (issue 21): figures to read, nothing that
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
  /** the status-bar tooltip's markdown */
  statusBarTooltip(): string;
  /** the row the last model/channel picker opened on (the one Enter picks) */
  pickerActiveRow(): string | undefined;
  /** the chat feature (built on first access, like the chat view's first use) */
  readonly chat: ChatApi;
  /** chat, images and lm are built on first use: which are built so far, and what triggered each */
  loadedFeatures(): FeatureLoad[];
  /**
   * Where activation's time goes, in ms (printed by the activation integration test): `loadMs`
   * runs the bundle's module code (its first to its last line; esbuild.mjs banner and footer),
   * `activateMs` is activate()'s own time, `requireAndActivateMs` their sum (what this extension
   * costs; compiling the file is not in it). `hostWaitMs` is the time between the two that the
   * extension host spends elsewhere (other extensions, building the context), and
   * `sinceBundleStartMs` runs from the bundle's first line to activate() returning. `cpu` has
   * the main thread's CPU time of the same two stretches (Node 23.9+): on a loaded machine the
   * clock also counts the time the thread waited for a core.
   */
  readonly activationTiming: {
    activateMs: number;
    loadMs?: number;
    requireAndActivateMs?: number;
    hostWaitMs?: number;
    sinceBundleStartMs?: number;
    cpu: { loadMs?: number; activateMs?: number };
    phases: Record<string, number>;
  };
  /** spending and budgets (src/spendingView), with the test hooks */
  spend: SpendApi;
}

/** Test mode: VS Code's extension tests, or the test runner extension's suite in this extension host. */
function inTestMode(context: vscode.ExtensionContext): boolean {
  if (context.extensionMode === vscode.ExtensionMode.Test) return true;
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return !!env?.MODELGATE_TEST_ENTRY;
}

/** A copy of plain data (settings, usage records), so a caller cannot change Modelgate's own. */
const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/** performance.now() when the bundle's first and last lines ran (esbuild.mjs banner and footer; absent in other builds) */
declare const __modelgateLoadStart: number | undefined;
declare const __modelgateLoadEnd: number | undefined;
/** the main thread's CPU time at the same two lines (process.threadCpuUsage, Node 23.9+), µs */
interface CpuMark {
  user: number;
  system: number;
}
declare const __modelgateLoadStartCpu: CpuMark | undefined;
declare const __modelgateLoadEndCpu: CpuMark | undefined;
const threadCpu = (): CpuMark | undefined => (globalThis as { process?: { threadCpuUsage?: () => CpuMark } }).process?.threadCpuUsage?.();
const cpuMs = (from: CpuMark | undefined, to: CpuMark | undefined) => (from && to ? (to.user + to.system - from.user - from.system) / 1000 : undefined);

/** set while active, so deactivate() can finish the last transcript write before the host exits */
let flushOnDeactivate: (() => Promise<void> | undefined) | undefined;

export function activate(context: vscode.ExtensionContext): ModelgatePublicApi {
  const started = performance.now();
  const startedCpu = threadCpu();
  const phases: Record<string, number> = {}; // where activate()'s time goes (activationTiming)
  let mark = started;
  const phase = (name: string) => void ((phases[name] = performance.now() - mark), (mark = performance.now()));
  // Messages built by vscode-free modules (src/core/l10n.ts) are translated like the rest.
  setTranslator((message, ...args) => vscode.l10n.t(message, ...args));
  const log = createLog();
  let settings = readSettings();
  const settingsChanged = new vscode.EventEmitter<Settings>();
  const keys = new KeyStore(context.secrets, () => settings.baseUrlOrigin);
  const gateway = new GatewayService(() => settings, keys);
  const catalogue = new CatalogueService(
    () => settings,
    gateway,
    async () => !!(await keys.get()),
    log,
  );
  const usage = new UsageLedger(context.globalState);
  const budget = new BudgetGuard(usage, () => settings, context.globalState);
  const health = new ChannelHealthStore(context.globalState);
  gateway.connect(() => catalogue.current(), health);
  context.subscriptions.push(log, settingsChanged, keys, catalogue, usage, budget, health);

  const services: Services = {
    context,
    settings: () => settings,
    onDidChangeSettings: settingsChanged.event,
    keys,
    catalogue: () => catalogue.current(),
    onDidChangeCatalogue: catalogue.onDidChange,
    refreshCatalogue: () => catalogue.refresh(),
    gateway,
    usage,
    budget,
    health,
    log,
    simulatorDemo: { on: false },
  };

  const warnSettings = (s: Settings) => {
    for (const p of s.problems) {
      log.warn(p);
      void vscode.window.showWarningMessage(vscode.l10n.t('Modelgate: {0}', p));
    }
  };
  warnSettings(settings);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      settings = readSettings();
      warnSettings(settings);
      catalogue.settingsChanged();
      settingsChanged.fire(settings);
    }),
    keys.onDidChange(() => catalogue.keyChanged()),
  );

  phase('services');
  const statusBar = new ModelStatusBar(services);
  context.subscriptions.push(statusBar);
  phase('statusBar');

  const command = (id: string, run: (...args: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, run));

  command('modelgate.setApiKey', (arg?: unknown) => setApiKeyCommand(services, arg));
  command('modelgate.clearApiKey', async () => {
    await keys.clear();
    void vscode.window.showInformationMessage(vscode.l10n.t('Modelgate: API key removed from secret storage.'));
  });
  const reportPickerError = (err: unknown) => {
    void vscode.window.showErrorMessage(vscode.l10n.t('Modelgate: {0}', err instanceof Error ? err.message : String(err)));
    throw err;
  };
  // The walkthrough's "Pick a model and a channel" ticks on a pick, not when a picker is merely opened (issue 20 item 6).
  const picked = (done: boolean) =>
    done ? Promise.resolve(vscode.commands.executeCommand('setContext', 'modelgate.pickedModel', true)).then(() => done) : done;
  command('modelgate.pickModel', (arg?: unknown) => pickModel(services, arg).then(picked).catch(reportPickerError));
  command('modelgate.pickChannel', (arg?: unknown) => pickChannel(services, arg).then(picked).catch(reportPickerError));
  command('modelgate.pickModelOrChannel', () => pickModelOrChannel(services).then(picked));
  command('modelgate.resetChannelHealth', () => health.clear());
  command('modelgate.showLog', () => log.show());
  context.subscriptions.push(...registerOnboarding(services));
  phase('commands');

  // Chat, images and Modelgate's models in vscode.lm: registered now, built on first use.
  const features = registerLazyFeatures(services);
  // the last transcript write and the spend ledger's queued writes finish before the host exits
  flushOnDeactivate = () => Promise.all([features.flush(), usage.whenWritten()]).then(() => undefined);
  phase('lazyFeatures');
  const spend = registerSpending(services);
  context.subscriptions.push(...spend.disposables);
  phase('spend');

  // The gateway's model list is fetched after activation, off the critical path.
  setTimeout(() => void catalogue.refresh(), 0);

  const ended = performance.now();
  const endedCpu = threadCpu();
  const loadStart = typeof __modelgateLoadStart === 'number' ? __modelgateLoadStart : undefined;
  const loadEnd = typeof __modelgateLoadEnd === 'number' ? __modelgateLoadEnd : undefined;
  const loadMs = loadStart !== undefined && loadEnd !== undefined ? loadEnd - loadStart : undefined;
  const activationTiming = {
    activateMs: ended - started,
    loadMs,
    requireAndActivateMs: loadMs !== undefined ? loadMs + ended - started : undefined,
    hostWaitMs: loadEnd !== undefined ? started - loadEnd : undefined,
    sinceBundleStartMs: loadStart !== undefined ? ended - loadStart : undefined,
    cpu: {
      loadMs: cpuMs(
        typeof __modelgateLoadStartCpu === 'object' ? __modelgateLoadStartCpu : undefined,
        typeof __modelgateLoadEndCpu === 'object' ? __modelgateLoadEndCpu : undefined,
      ),
      activateMs: cpuMs(startedCpu, endedCpu),
    },
    phases,
  };
  const publicApi: ModelgatePublicApi = Object.freeze({
    version: 1 as const,
    settings: () => copy(settings),
    hasKey: async () => !!(await keys.get()),
    lastUsage: () => copy(usage.last()),
    spend: Object.freeze({ summary: (period: Parameters<SpendApi['summary']>[0]) => spend.api.summary(period) }),
    noteSimulatorDemo: () => {
      if (isLoopbackBaseUrl(settings.baseUrl)) services.simulatorDemo.on = true;
    },
  });
  if (!inTestMode(context)) return publicApi;
  const testApi: ModelgateApi = {
    ...publicApi,
    publicApi,
    statusBarText: () => statusBar.text,
    catalogue: () => catalogue.current(),
    refreshCatalogue: () => catalogue.refresh(),
    channelPickerItems: () => channelPickerItems(services),
    statusBarTooltip: () => statusBar.tooltip,
    pickerActiveRow,
    get chat() {
      return features.chat();
    },
    loadedFeatures: () => features.loaded(),
    activationTiming,
    spend: spend.api,
  };
  return testApi;
}

function isLoopbackBaseUrl(url: string | undefined): boolean {
  try {
    return !!url && isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

export function deactivate(): Promise<void> | undefined {
  return flushOnDeactivate?.();
}
