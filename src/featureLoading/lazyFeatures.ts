// The chat, images and language-model features, constructed on first use (activate()
// only registers). What VS Code must know from the start is registered here and is cheap: the
// chat view's provider, every command the features contribute, and the vscode.lm provider. Each
// is a small proxy that loads its feature (src/featureLoading/featureBundles.ts: a separate bundle in the
// Node build, the same file in the web build), builds it once, and hands the call over:
//  - a command: the proxies of that feature unregister themselves, the feature registers its real
//    commands, and the call is re-run through VS Code (same id, same arguments);
//  - the chat view: resolveWebviewView goes to the real provider;
//  - vscode.lm: the first request for models (or a chat request, a token count) builds the provider.
import * as vscode from 'vscode';
import type { ChatApi } from '../chat';
import { CHAT_VIEW_ID, FEATURE_COMMANDS, IMAGE_TOOL, LM_VENDOR } from '../shared/featureIds';
import type { ImageLmTool, ImageQuestionView, PanelImageTool } from '../images';
import type { VsCodeChatPrompts } from '../lm';
import { loadChatModule, loadCompletionsModule, loadImagesModule, loadLmModule } from './featureBundles';
import { registerCompletionsProxy } from './completionsProxy';
import type { CompletionsFeature, CompletionsStatusItem, CompletionTally } from '../completions';
import type { CompletionsHourly } from '../statusBar/modelChannelPicker';
import type { Services } from '../services/serviceContainer';
import { errorText } from '../core/errorText';

/** How long after activation the completions status-bar item is made: its bundle and the spend ledger stay off the activation path. */
const STATUS_ITEM_AFTER_MS = 1500;

export type FeatureName = 'chat' | 'images' | 'lm' | 'completions';

export interface FeatureLoad {
  feature: FeatureName;
  /** what asked for it first: a command id, 'view', 'api', or an lm method */
  trigger: string;
  /** load (require) + construction, in ms */
  ms: number;
}

export interface Features {
  /** the chat feature's API; builds the chat feature on first access */
  chat(trigger?: string): ChatApi;
  /** the features built so far, with what triggered each (for tests and the log) */
  loaded(): FeatureLoad[];
  /** the vscode.lm image tool once built (tests read its last confirmation), else undefined */
  imageTool(): ImageLmTool | undefined;
  /** the chat panel's generate_image tool once built (tests answer its questions), else undefined */
  panelImageTool(): PanelImageTool | undefined;
  /** the image command's open question as shown (tests read its rows and prices), else undefined */
  imageQuestion(): ImageQuestionView | undefined;
  /** finishes the last transcript write (deactivate); nothing to do when chat was never built */
  flush(): Promise<void> | undefined;
  /** completions as you type once built (the first keystroke that may complete), else undefined */
  completions(): CompletionsFeature | undefined;
  /** the completions status-bar item once made (a moment after activation while completions are on), else undefined */
  completionsStatus(): CompletionsStatusItem | undefined;
  /** what an hour of typing with completions costs on a model and channel, from the completions bundle (loads it) */
  completionsHourly: CompletionsHourly;
}

/** What the wiring hands the features besides the services. */
export interface FeatureHooks {
  /** the dialogs of "Use in VS Code Chat" (tests answer them); undefined: the real ones */
  vsCodeChatPrompts(): VsCodeChatPrompts | undefined;
}

export function registerLazyFeatures(services: Services, hooks: FeatureHooks): Features {
  const { context, log } = services;
  const loads: FeatureLoad[] = [];
  const timed = <T>(feature: FeatureName, trigger: string, build: () => T): T => {
    const t0 = performance.now();
    const value = build();
    const ms = Math.round((performance.now() - t0) * 10) / 10;
    loads.push({ feature, trigger, ms });
    log.info(`Loaded the ${feature} feature on first use (${trigger}) in ${ms} ms.`);
    return value;
  };

  /** Registers proxy commands for `ids`; the first call builds the feature and re-runs itself. */
  const proxyCommands = (ids: readonly string[], ensure: (trigger: string) => void): vscode.Disposable => {
    const proxies = ids.map((id) =>
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        ensure(id);
        return vscode.commands.executeCommand(id, ...args);
      }),
    );
    context.subscriptions.push(...proxies);
    return vscode.Disposable.from(...proxies);
  };

  // ---------- chat ----------
  let panelImageTool: PanelImageTool | undefined;
  let chat: { api: ChatApi; resolve: vscode.WebviewViewProvider['resolveWebviewView'] } | undefined;
  const chatProxies = proxyCommands(FEATURE_COMMANDS.chat, (trigger) => ensureChat(trigger));
  function ensureChat(trigger: string): NonNullable<typeof chat> {
    if (chat) return chat;
    return timed('chat', trigger, () => {
      chatProxies.dispose(); // the real commands take the same ids
      const built = loadChatModule().registerChat(services, () => (panelImageTool ??= loadImagesModule().createPanelImageTool(services)));
      context.subscriptions.push(...built.disposables);
      chat = { api: built.api, resolve: (view, ctx, token) => built.provider.resolveWebviewView(view, ctx, token) };
      return chat;
    });
  }
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, { resolveWebviewView: (view, ctx, token) => ensureChat('view').resolve(view, ctx, token) }),
  );

  // ---------- images ----------
  let images = false;
  const imageProxies = proxyCommands(FEATURE_COMMANDS.images, (trigger) => {
    if (images) return;
    timed('images', trigger, () => {
      imageProxies.dispose();
      context.subscriptions.push(...loadImagesModule().registerImageCommands(services));
      images = true;
    });
  });

  // ---------- the image tool of vscode.lm ----------
  let imageTool: ImageLmTool | undefined;
  context.subscriptions.push(
    registerImageToolProxy(services, () => {
      if (imageTool) return imageTool;
      const t0 = performance.now();
      imageTool = loadImagesModule().createImageTool(services);
      log.info(`Built the image tool on first use in ${Math.round(performance.now() - t0)} ms.`);
      return imageTool;
    }),
  );

  // ---------- vscode.lm ----------
  // Its commands need the module only (dist/lm.js), not the provider: loading it is not building the feature.
  let lmCommands = false;
  const lmProxies = proxyCommands(FEATURE_COMMANDS.lm, () => {
    if (lmCommands) return;
    lmProxies.dispose();
    context.subscriptions.push(...loadLmModule().registerLmCommands(services, hooks.vsCodeChatPrompts));
    lmCommands = true;
  });
  context.subscriptions.push(registerLmProxy(services, (trigger) => timed('lm', trigger, () => loadLmModule().createLanguageModelProvider(services))));

  // ---------- completions as you type ----------
  // the inline completion provider (built on the first keystroke that may complete) and the
  // commands of the status-bar item's menu (registered on the first one's use), one bundle
  // today's counts and the learned typing rhythm, shared by the feature and the status bar's look
  let tally: CompletionTally | undefined;
  const tallyOf = (): CompletionTally => {
    if (tally) return tally;
    tally = loadCompletionsModule().createTally(services, services.completions);
    context.subscriptions.push(tally);
    return tally;
  };
  const completions = registerCompletionsProxy(services, services.completions, (trigger) =>
    timed('completions', trigger, () => loadCompletionsModule().createCompletions(services, services.completions, tallyOf())),
  );
  let completionCommands = false;
  const completionProxies = proxyCommands(FEATURE_COMMANDS.completions, (trigger) => {
    if (completionCommands) return;
    const t0 = performance.now();
    completionProxies.dispose();
    context.subscriptions.push(...loadCompletionsModule().registerCompletionCommands(services, services.completions));
    completionCommands = true;
    log.info(`Registered the completions commands on first use (${trigger}) in ${Math.round(performance.now() - t0)} ms.`);
  });
  context.subscriptions.push(completions);
  // The status-bar item is in the completions bundle too: made a moment after activation (off its
  // path) while completions are on, or when they are turned on. It does not build the feature.
  let statusItem: CompletionsStatusItem | undefined;
  let statusDue = false;
  const showStatus = () => {
    if (statusItem || !statusDue || !services.settings().completions.enabled) return;
    try {
      statusItem = loadCompletionsModule().createStatusItem(services, services.completions, tallyOf());
      context.subscriptions.push(statusItem);
    } catch (err) {
      log.warn(`The completions status-bar item could not be made: ${errorText(err)}`);
    }
  };
  const statusTimer = setTimeout(() => {
    statusDue = true;
    showStatus();
  }, STATUS_ITEM_AFTER_MS);
  context.subscriptions.push(services.onDidChangeSettings(showStatus), new vscode.Disposable(() => clearTimeout(statusTimer)));

  return {
    chat: (trigger = 'api') => ensureChat(trigger).api,
    loaded: () => loads.map((l) => ({ ...l })),
    imageTool: () => imageTool,
    panelImageTool: () => panelImageTool,
    imageQuestion: () => (images ? loadImagesModule().openImageQuestion() : undefined),
    flush: () => chat?.api.controller.close(),
    completions: () => completions.feature(),
    completionsStatus: () => statusItem,
    completionsHourly: (model, channel) => loadCompletionsModule().hourlyText(services, model, channel),
  };
}

/**
 * Registers Modelgate's models with vscode.lm (VS Code's chat lists them from the start); the
 * provider behind it is built on the first call. A no-op where the API is missing.
 */
type LmProvider = vscode.LanguageModelChatProvider & vscode.Disposable;
function registerLmProxy(services: Services, build: (trigger: string) => LmProvider): vscode.Disposable {
  // Feature-detected: hosts without the API (older VS Code, some forks) keep everything else.
  const lm = (vscode as { lm?: Partial<typeof vscode.lm> }).lm;
  if (typeof lm?.registerLanguageModelChatProvider !== 'function') {
    services.log.info(
      'Language model provider: this host has no vscode.lm.registerLanguageModelChatProvider; Modelgate models are not offered to other extensions.',
    );
    return new vscode.Disposable(() => {});
  }
  const changed = new vscode.EventEmitter<void>();
  let provider: LmProvider | undefined;
  let forward: vscode.Disposable | undefined;
  const real = (trigger: string): LmProvider => {
    if (provider) return provider;
    provider = build(trigger);
    forward = provider.onDidChangeLanguageModelChatInformation?.(() => changed.fire());
    return provider;
  };
  const proxy: vscode.LanguageModelChatProvider = {
    onDidChangeLanguageModelChatInformation: changed.event,
    provideLanguageModelChatInformation: (options, token) => real('lm.provideLanguageModelChatInformation').provideLanguageModelChatInformation(options, token),
    // not async: the real provider throws before returning for what it refuses without I/O
    provideLanguageModelChatResponse: (info, messages, options, progress, token) =>
      real('lm.provideLanguageModelChatResponse').provideLanguageModelChatResponse(info, messages, options, progress, token),
    provideTokenCount: (info, text, token) => real('lm.provideTokenCount').provideTokenCount(info, text, token),
  };
  const cleanup = new vscode.Disposable(() => {
    forward?.dispose();
    provider?.dispose();
    changed.dispose();
  });
  try {
    return vscode.Disposable.from(lm.registerLanguageModelChatProvider(LM_VENDOR, proxy), cleanup);
  } catch (err) {
    // Never fail activation over this feature (e.g. a host that does not know the vendor).
    cleanup.dispose();
    services.log.warn(`Language model provider not registered: ${errorText(err)}`);
    return new vscode.Disposable(() => {});
  }
}

/**
 * Registers `modelgate_generate_image` with vscode.lm (package.json declares it); the images
 * module is loaded on its first preparation or call. A no-op where the API is missing.
 */
function registerImageToolProxy(services: Services, build: () => vscode.LanguageModelTool<unknown>): vscode.Disposable {
  const lm = (vscode as { lm?: Partial<typeof vscode.lm> }).lm;
  if (typeof lm?.registerTool !== 'function') return new vscode.Disposable(() => {});
  try {
    return lm.registerTool<unknown>(IMAGE_TOOL, {
      prepareInvocation: (options, token) => build().prepareInvocation?.(options, token),
      invoke: (options, token) => build().invoke(options, token),
    });
  } catch (err) {
    services.log.warn(`Image tool not registered: ${errorText(err)}`);
    return new vscode.Disposable(() => {});
  }
}
