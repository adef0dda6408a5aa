// Modelgate's chat models as a vscode.lm provider: VS Code's own chat and other extensions
// (vscode.lm.selectChatModels({ vendor: 'modelgate' })) send requests here, and they go to the
// gateway through the shared client, with the key from SecretStorage and the channel setting.
// The mapping is in the pure modules next to this file; this class wires them to vscode.
import * as vscode from 'vscode';
import type { ChannelChoice } from '../core/catalogue/modelCatalogue';
import { costOf } from '../core/spend/cost';
import { GatewayError, missingKeyError } from '../core/client/gatewayError';
import { contextOverflow } from '../core/compaction/contextOverflow';
import { consoleUrlSetting } from '../shared/balanceTopUp';
import { estimateRequestTokens, estimateTokens } from '../core/prompt/tokens';
import { estimateCost, expectedOutputTokens, type Hold } from '../core/spend/reservations';
import type { ChatRequest, GatewayClient, Usage } from '../core/client/types';
import { paramsFromModelOptions } from '../core/client/modelParams';
import type { Services } from '../services/serviceContainer';
import { toWireMessages } from './lmMessages';
import { KeyPresence } from './keyPresence';
import { estimateLmMessageTokens } from './lmTokens';
import { encodingFor, TOKENIZED_MESSAGE_OVERHEAD, type Encoding, type TokenCounter } from './tokenizerChoice';
import { tokenCounter } from './tokenizers';
import { toWireTools } from './lmTools';
import { modelInformation, type LmModelInformation } from './modelInformation';
import { streamLmResponse } from './responseStream';
import { ReasoningMemory } from './reasoningMemory';
import { thinkingPart, toLmMessage, usagePart } from './vscodeParts';
import { errorText } from '../core/errorText';

export class ModelgateChatProvider implements vscode.LanguageModelChatProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** what VS Code was last told, so a catalogue refresh that changes nothing fires nothing */
  private signature: string;
  private readonly keyPresence: KeyPresence;
  /** reasoning of the tool calls this provider produced, put back when the caller leaves it out */
  private readonly reasoning = new ReasoningMemory();
  /** the kinds of newer parts this VS Code lacks or refused (not tried again): text and tools still go out */
  private readonly refusedParts = new Set<'usage' | 'thinking'>();
  /** tokenizers that failed to load (the estimate is used for their models) */
  private readonly tokenizerFailed = new Set<Encoding>();

  constructor(private readonly services: Services) {
    this.signature = JSON.stringify(this.information());
    // keys are stored per gateway origin, so a settings change may change the answer too
    this.keyPresence = new KeyPresence(() => services.keys.get(), [(l) => services.keys.onDidChange(l), (l) => services.onDidChangeSettings(l)]);
    this.subscriptions = [
      this.changed,
      this.keyPresence,
      services.onDidChangeCatalogue(() => this.informationMayHaveChanged()),
      // the channel is part of each model's detail and tooltip
      services.onDidChangeSettings(() => this.informationMayHaveChanged()),
      // a window the gateway named in an overflow error (here or in the panel) is the model's maxInputTokens from then on
      services.windows.onDidLearn(() => this.informationMayHaveChanged()),
    ];
  }

  private information(): LmModelInformation[] {
    const channel = this.services.settings().channel;
    const catalogue = this.services.catalogue();
    return catalogue.chatModels().map((m) => {
      const window = this.services.windows.window(m.id, channel, m.contextWindow);
      const price = catalogue.price(m.id, channel);
      return window === m.contextWindow
        ? modelInformation(m, channel, price)
        : modelInformation({ ...m, contextWindow: window }, channel, price, m.contextWindow);
    });
  }

  private informationMayHaveChanged(): void {
    const next = JSON.stringify(this.information());
    if (next === this.signature) return;
    this.signature = next;
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions): Promise<LmModelInformation[]> {
    // The models are listed with or without a key (the catalogue is known without one); a
    // request without a key fails with a message that names "Modelgate: Set API Key". Only when
    // VS Code says the user is there (not silent) is the key asked for.
    if (!options.silent && !(await this.services.keys.get())) {
      try {
        await this.services.gateway.ensureKey();
      } catch (err) {
        this.services.log.warn(`Language model provider: the API key prompt failed: ${errorText(err)}`);
      }
    }
    return this.information();
  }

  provideLanguageModelChatResponse(
    info: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    // Not async on purpose: what can be refused without I/O (an unknown model, an image for a
    // text-only model, tools for a model without tool calling, an invalid base URL, a key known
    // to be missing) throws before anything is returned, and VS Code then rejects the caller's
    // sendRequest itself instead of failing its response stream later (measured in 1.139).
    const model = this.services.catalogue().chatModel(info.id);
    if (!model) {
      throw new Error(
        vscode.l10n.t('Modelgate no longer lists the chat model "{0}". Pick another model; "modelgate.models" in your user settings can describe it.', info.id),
      );
    }
    const channel = this.services.settings().channel;
    const request: ChatRequest = {
      model: model.id,
      messages: this.reasoning.restore(toWireMessages(messages.map(toLmMessage), model)),
      ...toWireTools(options.tools, options.toolMode, model),
    };
    if (channel !== 'default') request.provider = { channel };
    // The caller's modelOptions where they name the per-model parameters (OpenAI spelling or ours):
    // request fields, so they win over the user's modelgate.models for this request only.
    const asked = paramsFromModelOptions(options.modelOptions);
    if (asked.maxOutputTokens !== undefined) request.max_tokens = asked.maxOutputTokens;
    if (asked.temperature !== undefined) request.temperature = asked.temperature;
    if (asked.topP !== undefined) request.top_p = asked.topP;
    if (asked.reasoningEffort !== undefined) request.reasoning_effort = asked.reasoningEffort;
    // Throws an actionable GatewayError when the base URL setting is invalid (checked first:
    // without a valid base URL there is no key slot either, and the URL is what to fix).
    const client = this.services.gateway.client();
    // Never a prompt here: the request may come from another extension in the background.
    if (this.keyPresence.knownMissing()) throw new Error(missingKeyError().message);
    const requester = requesterOf(options); // the asking extension's id (VS Code 1.104+), if reported
    // Reserves the request's estimated cost until its real cost is recorded, or throws while a
    // budget is used up (counting what requests in flight reserved) or while one is set and the
    // model has no price: another extension cannot answer a budget question.
    const price = this.services.catalogue().price(model.id, channel);
    const estimate = price
      ? estimateCost(estimateRequestTokens(request.messages, request.tools), expectedOutputTokens(asked.maxOutputTokens, model.maxOutput), price)
      : undefined;
    const hold = this.services.budget.reserveForLm(requester, model.id, estimate);
    // then, with the other windows' reservations read after this one was published
    return this.services.budget.checkAcrossWindows(hold, requester).then((held) => this.stream(client, request, channel, progress, token, held, requester));
  }

  private async stream(
    client: GatewayClient,
    request: ChatRequest,
    channel: ChannelChoice,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
    hold: Hold,
    requester?: string,
  ): Promise<void> {
    if (token.isCancellationRequested) return hold.settle();
    const abort = new AbortController();
    const onCancel = token.onCancellationRequested(() => abort.abort());
    const started = Date.now();
    let usage: Usage | undefined;
    let answered = false; // the gateway started answering: billed, even if its usage never arrives
    let outcome = 'done';
    // fails over along modelgate.fallbackChannels before content, and measures channel health
    const measured = this.services.health.client(client, this.services.settings().fallbackChannels);
    try {
      // The client throws a GatewayError naming "Modelgate: Set API Key" when no key is stored.
      const summary = await streamLmResponse(measured, request, abort.signal, {
        text: (text) => {
          answered = true;
          progress.report(new vscode.LanguageModelTextPart(text));
        },
        reasoning: (text) => {
          answered = true;
          this.reportThinking(progress, text);
        },
        toolCall: (call) => {
          answered = true;
          progress.report(new vscode.LanguageModelToolCallPart(call.id, call.name, call.input));
        },
        usage: (u) => (usage = u),
      });
      this.reasoning.remember(summary.calls, summary.reasoning);
      if (usage) this.reportUsage(progress, usage);
    } catch (err) {
      // Stopped by the caller: it asked for the end, so the end is not an error.
      if (token.isCancellationRequested) {
        outcome = 'cancelled';
        return;
      }
      outcome = 'failed';
      // The GatewayError's message is already short, actionable and free of the key.
      throw new Error(balanceHint(err) ?? this.overflowHint(err, request.model, measured.served ?? channel) ?? errorText(err));
    } finally {
      onCancel.dispose();
      // recorded first, then the reservation released: the budget never sees neither
      this.record(request.model, measured.served ?? channel, usage, requester, answered);
      hold.settle();
      this.services.log.info(
        `Language model request ${outcome}: ${request.model} (${measured.served ?? channel}), ${Date.now() - started} ms` +
          (usage
            ? `, tokens ${usage.promptTokens} prompt / ${usage.cachedTokens} cached / ${usage.completionTokens} completion${usage.reasoningTokens ? ` (${usage.reasoningTokens} reasoning)` : ''}`
            : ''),
      );
    }
  }

  /**
   * An overflow: Modelgate does not compact what a vscode.lm caller sends (the caller decides what
   * to drop), so the error says the window size. A window the gateway named is learned for the route.
   */
  private overflowHint(err: unknown, model: string, channel: string): string | undefined {
    if (!(err instanceof GatewayError) || err.kind !== 'bad_request') return undefined;
    const overflow = contextOverflow({ status: err.status, code: err.code, message: err.serverMessage ?? err.message });
    if (!overflow) return undefined;
    const configured = this.services.catalogue().chatModel(model)?.contextWindow ?? 0;
    if (overflow.window) this.services.windows.learn(model, channel, overflow.window, configured);
    const window = overflow.window ?? this.services.windows.window(model, channel, configured);
    if (window <= 0) return undefined;
    return vscode.l10n.t(
      'The request does not fit the context window of {0}, {1} tokens (the answer included). Modelgate does not shorten what an extension sends through vscode.lm: send fewer or shorter messages. The gateway said: {2}',
      model,
      window.toLocaleString('en-US'),
      err.message,
    );
  }

  /** The usage as a `usage` data part (OpenAI shape), where VS Code has data parts and accepts one from a provider. */
  private reportUsage(progress: vscode.Progress<vscode.LanguageModelResponsePart>, usage: Usage): void {
    this.reportNewerPart('usage', progress, () => usagePart(usage));
  }

  private reportThinking(progress: vscode.Progress<vscode.LanguageModelResponsePart>, text: string): void {
    this.reportNewerPart('thinking', progress, () => thinkingPart(text));
  }

  /**
   * Reports a part of a class newer than the stable API (undefined: this VS Code lacks it). Once
   * VS Code lacks or refuses that kind, it is not tried again.
   */
  private reportNewerPart(
    kind: 'usage' | 'thinking',
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    make: () => vscode.LanguageModelResponsePart | undefined,
  ): void {
    if (this.refusedParts.has(kind)) return;
    const part = make();
    if (!part) {
      this.refusedParts.add(kind);
      return;
    }
    try {
      progress.report(part);
    } catch (err) {
      this.refusedParts.add(kind);
      const what = kind === 'usage' ? 'a usage part; usage' : 'a thinking part; reasoning';
      this.services.log.warn(`Language model provider: VS Code refused ${what} is no longer reported: ${errorText(err)}`);
    }
  }

  private record(model: string, channel: ChannelChoice, usage: Usage | undefined, requester: string | undefined, answered: boolean): void {
    const price = this.services.catalogue().price(model, channel);
    this.services.usage.recordAnswer(
      {
        source: 'chat',
        via: 'lm',
        ...(requester ? { requester } : {}),
        model,
        channel,
        ...(usage ? { usage } : {}),
        cost: usage && price ? costOf(usage, price) : undefined,
      },
      answered,
    );
  }

  async provideTokenCount(model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    const count = this.counterFor(model.id);
    if (!count) return typeof text === 'string' ? estimateTokens(text) : estimateLmMessageTokens(toLmMessage(text));
    return typeof text === 'string' ? count(text) : estimateLmMessageTokens(toLmMessage(text), count, TOKENIZED_MESSAGE_OVERHEAD);
  }

  /** The model's public tokenizer (loaded on its first count), or undefined: the estimate. */
  private counterFor(modelId: string): TokenCounter | undefined {
    const encoding = encodingFor(modelId);
    if (!encoding || this.tokenizerFailed.has(encoding)) return undefined;
    try {
      return tokenCounter(encoding);
    } catch (err) {
      // A missing or broken bundle costs accuracy, never the count: the estimate from now on.
      this.tokenizerFailed.add(encoding);
      this.services.log.warn(`Language model provider: the ${encoding} tokenizer did not load, tokens are estimated: ${errorText(err)}`);
      return undefined;
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

/** A caller of vscode.lm cannot press "Top up": say where the console is (or how to set it). */
function balanceHint(err: unknown): string | undefined {
  if (!(err instanceof GatewayError) || err.kind !== 'balance') return undefined;
  const check = consoleUrlSetting();
  const where =
    check.kind === 'ok' ? vscode.l10n.t('Console: {0}', check.url) : vscode.l10n.t('Set "modelgate.consoleUrl" in your user settings to get a link to it');
  return vscode.l10n.t('{0} {1} (every channel uses the same balance, so switching channels does not help).', err.message, where);
}

/** options.requestInitiator: the asking extension's id, or 'core' (not in the stable typings). */
function requesterOf(options: vscode.ProvideLanguageModelChatResponseOptions): string | undefined {
  const r = (options as { requestInitiator?: unknown }).requestInitiator;
  return typeof r === 'string' && r ? r.slice(0, 200) : undefined;
}
