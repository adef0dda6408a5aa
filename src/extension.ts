// activate(): construct the services, wire them, register commands and views. No logic of its own.
import * as vscode from 'vscode';
import { SettingsService } from './services/settingsService';
import { KeyStore } from './services/keyStore';
import { GatewayService } from './services/gatewayService';
import { CatalogueService } from './services/catalogueService';
import { SharedFolder } from './services/storageFiles';
import { LEDGER_POLL_MS, UsageLedger } from './services/usageLedger';
import { ModelStatusBar } from './statusBar/statusBar';
import { LearnedWindowStore } from './services/learnedWindowStore';
import { ChannelHealthStore } from './services/channelHealthStore';
import { CompletionsState } from './services/completionsState';
import { channelPickerItems, modelPickerItems, pickChannel, pickerActiveRow, pickerRows, pickModel, pickModelOrChannel } from './statusBar/modelChannelPicker';
import { createLog } from './services/log';
import { registerLazyFeatures } from './featureLoading/lazyFeatures';
import { startActivationClock } from './featureLoading/activationTiming';
import { registerOnboarding } from './onboarding';
import { setApiKeyCommand } from './onboarding/setKeyFlow';
import type { Services } from './services/serviceContainer';
import type { VsCodeChatPrompts } from './lm';
import { BudgetGuard } from './services/budgetGuard';
import { registerSpending } from './spendingView';
import { setTranslator } from './core/l10n';
import { isLoopbackHost } from './core/client/baseUrl';
import { exportsFor, inTestMode, publicApiOf, type ModelgateApi, type ModelgatePublicApi } from './modelgateApi';
import { errorText } from './core/errorText';

export type { ModelgateApi, ModelgatePublicApi } from './modelgateApi';

/** set while active, so deactivate() can finish the last transcript write before the host exits */
let flushOnDeactivate: (() => Promise<void> | undefined) | undefined;

export function activate(context: vscode.ExtensionContext): ModelgatePublicApi {
  const clock = startActivationClock();
  // Messages built by vscode-free modules (src/core/l10n.ts) are translated like the rest.
  setTranslator((message, ...args) => vscode.l10n.t(message, ...args));
  const log = createLog();
  const settingsService = new SettingsService(log);
  const userSettings = () => settingsService.current;
  const keys = new KeyStore(context.secrets, () => userSettings().baseUrlOrigin);
  const gateway = new GatewayService(userSettings, keys);
  const catalogue = new CatalogueService(userSettings, gateway, async () => !!(await keys.get()), log);
  // the settings as features read them: a default model the gateway does not serve is replaced by one it does
  const settings = () => catalogue.servedSettings(userSettings());
  const usage = new UsageLedger(context.globalState, new SharedFolder(vscode.Uri.joinPath(context.globalStorageUri, 'spend'), LEDGER_POLL_MS), (m) =>
    log.warn(m),
  );
  const budget = new BudgetGuard(usage, settings, context.globalState);
  const health = new ChannelHealthStore(context.globalState);
  const completions = new CompletionsState(context.globalState);
  gateway.connect(() => catalogue.current(), health);
  context.subscriptions.push(log, settingsService, keys, catalogue, usage, budget, health, completions);
  // the catalogue hears of a settings change before any feature does (listeners run in order)
  context.subscriptions.push(
    settingsService.onDidChange(() => catalogue.settingsChanged()),
    keys.onDidChange(() => catalogue.keyChanged()),
  );

  const services: Services = {
    context,
    settings,
    onDidChangeSettings: settingsService.onDidChange,
    keys,
    catalogue: () => catalogue.current(),
    onDidChangeCatalogue: catalogue.onDidChange,
    refreshCatalogue: () => catalogue.refresh(),
    gateway,
    usage,
    budget,
    health,
    completions,
    log,
    windows: new LearnedWindowStore(context.globalState),
    simulatorDemo: { on: false },
  };

  clock.phase('services');
  const statusBar = new ModelStatusBar(services);
  context.subscriptions.push(statusBar);
  clock.phase('statusBar');

  const command = (id: string, run: (...args: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, run));

  command('modelgate.setApiKey', (arg?: unknown) => setApiKeyCommand(services, arg));
  command('modelgate.clearApiKey', async () => {
    await keys.clear();
    void vscode.window.showInformationMessage(vscode.l10n.t('Modelgate: API key removed from secret storage.'));
  });
  const reportPickerError = (err: unknown) => {
    void vscode.window.showErrorMessage(vscode.l10n.t('Modelgate: {0}', errorText(err)));
    throw err;
  };
  // The walkthrough's "Pick a model and a channel" ticks on a pick, not when a picker is merely opened.
  const picked = (done: boolean) =>
    done ? Promise.resolve(vscode.commands.executeCommand('setContext', 'modelgate.pickedModel', true)).then(() => done) : done;
  command('modelgate.pickModel', (arg?: unknown) => pickModel(services, arg).then(picked).catch(reportPickerError));
  command('modelgate.pickChannel', (arg?: unknown) => pickChannel(services, arg).then(picked).catch(reportPickerError));
  command('modelgate.pickModelOrChannel', () => pickModelOrChannel(services, (model, channel) => features.completionsHourly(model, channel)).then(picked));
  command('modelgate.resetChannelHealth', () => health.clear());
  command('modelgate.showLog', () => log.show());
  context.subscriptions.push(...registerOnboarding(services));
  clock.phase('commands');

  // Chat, images and Modelgate's models in vscode.lm: registered now, built on first use.
  let vsCodeChatPrompts: VsCodeChatPrompts | undefined; // tests answer the modal (useInVsCodeChatPrompts)
  const features = registerLazyFeatures(services, { vsCodeChatPrompts: () => vsCodeChatPrompts });
  // the last transcript write and the spend ledger's queued writes finish before the host exits
  flushOnDeactivate = () => Promise.all([features.flush(), usage.whenWritten()]).then(() => undefined);
  clock.phase('lazyFeatures');
  const spend = registerSpending(services);
  context.subscriptions.push(...spend.disposables);
  clock.phase('spend');

  // The gateway's model list is fetched after activation, off the critical path.
  setTimeout(() => void catalogue.refresh(), 0);

  const activationTiming = clock.finish();
  const publicApi = publicApiOf({
    settings,
    keys,
    usage,
    spend: spend.api,
    noteSimulatorDemo: () => {
      if (isLoopbackBaseUrl(settings().baseUrl)) services.simulatorDemo.on = true;
    },
  });
  return exportsFor(inTestMode(context, vscode.ExtensionMode.Test), publicApi, (): ModelgateApi => ({
    ...publicApi,
    publicApi,
    statusBarText: () => statusBar.text,
    catalogue: () => catalogue.current(),
    refreshCatalogue: () => catalogue.refresh(),
    channelPickerItems: () => channelPickerItems(services),
    modelPickerItems: () => modelPickerItems(services),
    statusBarTooltip: () => statusBar.tooltip,
    pickerActiveRow,
    pickerRows,
    get chat() {
      return features.chat();
    },
    imageTool: () => features.imageTool(),
    panelImageTool: () => features.panelImageTool(),
    imageQuestion: () => features.imageQuestion(),
    loadedFeatures: () => features.loaded(),
    activationTiming,
    spend: spend.api,
    useInVsCodeChatPrompts: (prompts) => {
      vsCodeChatPrompts = prompts;
    },
    completions: {
      probe: () => features.completions()?.probeApi,
      status: () => features.completionsStatus()?.view ?? { visible: false, text: '', tooltip: '' },
      setTurnOnAsk: (ask) => (completions.turnOnAsk = ask),
    },
  }));
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
