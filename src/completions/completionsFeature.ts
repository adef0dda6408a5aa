// Completions as you type: VS Code's inline completion provider on top of the completion engine
// (src/core/completions/completionEngine.ts). Built on the first keystroke that may complete
// (src/featureLoading/lazyFeatures.ts registers a cheap proxy while the setting is on). Per ask:
// the rules that send nothing (src/core/completions/completionRules.ts, read from the document
// once, not per keystroke), then the engine (the pause, the request, the answer); each request
// that went out is recorded in the spend ledger under "completions", money is checked before each
// one (a used-up budget or the daily cap stops completions without a dialog), and an error is
// shown once in the status bar while completions back off.
import * as vscode from 'vscode';
import type { CompletionAsk, RequestReport } from '../core/completions/completionContract';
import { CompletionEngine } from '../core/completions/completionEngine';
import { cursorSkip, documentSkip } from '../core/completions/completionRules';
import { requestEstimate } from '../core/completions/completionCost';
import { fimRequest } from '../core/completions/fimPrompt';
import type { ChannelChoice } from '../core/catalogue/modelCatalogue';
import type { Channel } from '../core/client/types';
import { costOf } from '../core/spend/cost';
import type { Hold } from '../core/spend/reservations';
import { completionMoney } from './completionsMoney';
import type { CompletionsState } from '../services/completionsState';
import type { Services } from '../services/serviceContainer';
import type { Settings } from '../services/settings';
import { DocumentFacts } from './documentFacts';
import { relatedSnippets } from './relatedSnippets';
import type { CompletionTally } from './completionTally';

/** Run by VS Code right after it inserted a completion (Tab): the acceptance count. Internal, not in the palette. */
export const ACCEPTED_COMMAND = 'modelgate.completions.accepted';

/** What the integration tests read. */
export interface CompletionsProbe {
  /** provideInlineCompletionItems calls so far */
  readonly asked: number;
  /** the last completion offered (fresh or the rest of one typed through) */
  readonly lastOffer: { uri: string; line: number; character: number; text: string; reused: boolean } | undefined;
  readonly stats: CompletionEngine['stats'];
  /** the requests that went out, as reported when they ended (newest last, at most 50) */
  readonly reports: readonly RequestReport[];
  /** asks answered with nothing before the engine, by why (the suggestion list open, a selection, a rule) */
  readonly skipped: Readonly<Record<string, number>>;
}

export class CompletionsFeature implements vscode.InlineCompletionItemProvider, vscode.Disposable {
  private readonly engine: CompletionEngine;
  private readonly facts = new DocumentFacts();
  private readonly holds = new Set<Hold>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly probe = {
    asked: 0,
    lastOffer: undefined as CompletionsProbe['lastOffer'],
    reports: [] as RequestReport[],
    skipped: {} as Record<string, number>,
  };
  /** requests since the learned typing rhythm was last saved */
  private sinceSave = 0;

  constructor(
    private readonly services: Services,
    private readonly state: CompletionsState,
    private readonly tally: CompletionTally,
  ) {
    this.engine = new CompletionEngine({
      now: () => performance.now(),
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      stream: (request, options) => services.gateway.client().streamChat(request, { ...options, maxRetries: 0 }),
      prepare: (prompt) => this.prepare(prompt),
      onReport: (r) => this.record(r),
      onTrouble: (t) => {
        if (t) services.log.warn(`Completions back off after an error (${t.kind}): ${t.message}`);
        state.setTrouble(t);
      },
      typing: tally.typing(),
    });
    this.subscriptions.push(
      vscode.commands.registerCommand(ACCEPTED_COMMAND, (offerId: unknown) => {
        if (typeof offerId !== 'number') return;
        const before = this.engine.stats.accepted;
        this.engine.accepted(offerId);
        if (this.engine.stats.accepted > before) tally.noteAccepted();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (!e.contentChanges.length) return;
        if (e.document === vscode.window.activeTextEditor?.document) this.engine.noteChange(e.document.uri.toString());
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        const at = e.selections[0]?.active;
        if (at) this.engine.noteCursor(e.textEditor.document.uri.toString(), at.line, at.character);
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.engine.stop()),
      vscode.workspace.onDidCloseTextDocument((d) => this.facts.forget(d.uri)),
      services.onDidChangeSettings(() => {
        this.facts.forget();
        this.engine.clearTrouble(['request', 'rateLimit', 'server', 'network']);
        if (!services.settings().completions.enabled) this.engine.stop();
      }),
      services.keys.onDidChange(() => this.engine.clearTrouble(['key'])),
      state.onDidChange(() => {
        if (state.snoozed()) this.engine.stop();
      }),
    );
  }

  get probeApi(): CompletionsProbe {
    const probe = this.probe;
    const stats = this.engine.stats;
    return {
      get asked() {
        return probe.asked;
      },
      get lastOffer() {
        return probe.lastOffer;
      },
      get stats() {
        return stats;
      },
      get reports() {
        return probe.reports;
      },
      get skipped() {
        return probe.skipped;
      },
    };
  }

  async provideInlineCompletionItems(
    doc: vscode.TextDocument,
    position: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    this.probe.asked++;
    const settings = this.services.settings().completions;
    // Nothing at all in Restricted Mode, while off or snoozed.
    if (!settings.enabled || !vscode.workspace.isTrusted || this.state.snoozed()) return undefined;
    const skip = (why: string): undefined => void (this.probe.skipped[why] = (this.probe.skipped[why] ?? 0) + 1);
    // The suggestion list is open: a completion would have to extend its item; it is left alone.
    if (context.selectedCompletionInfo) return skip('suggestionList');
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document !== doc) return skip('notActiveEditor');
    const lineText = doc.lineAt(position.line).text;
    const selectionEmpty = editor.selections.length === 1 && editor.selection.isEmpty;
    const atCursor = cursorSkip({ selectionEmpty, lineText, character: position.character });
    if (atCursor) return skip(atCursor);
    const names = await this.facts.namesOf(doc);
    if (token.isCancellationRequested) return undefined;
    const inDocument = this.documentSkipOf(doc, names.names, settings);
    if (inDocument) return skip(inDocument);

    const ask: CompletionAsk = {
      doc: {
        docKey: doc.uri.toString(),
        path: names.promptPath,
        languageId: doc.languageId,
        lines: { lineCount: doc.lineCount, lineAt: (i) => doc.lineAt(i).text },
      },
      cursor: { line: position.line, character: position.character },
      explicit: context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke,
      textBetween: (from, to) => doc.getText(new vscode.Range(from.line, from.character, to.line, to.character)),
      related: () => relatedSnippets(doc, this.snippetGate()),
      mayGo: () => !this.facts.hasSecretInside(doc),
    };
    const result = await this.engine.complete(ask, token);
    if (!result || token.isCancellationRequested) return undefined;
    if (!result.reused) this.tally.noteShown();
    this.probe.lastOffer = { uri: ask.doc.docKey, line: position.line, character: position.character, text: result.text, reused: result.reused };
    // the range is the cursor itself: without one, VS Code would replace the word before the cursor
    const item = new vscode.InlineCompletionItem(result.text, new vscode.Range(position, position), {
      command: ACCEPTED_COMMAND,
      title: vscode.l10n.t('Accept Completion'),
      arguments: [result.offerId],
    });
    return [item];
  }

  /** Why nothing of this document may be sent (its names, language, size or an exclude), if so. */
  private documentSkipOf(doc: vscode.TextDocument, names: Parameters<typeof documentSkip>[0]['names'], settings: Settings['completions']) {
    return documentSkip({
      names,
      languageId: doc.languageId,
      chars: doc.offsetAt(doc.lineAt(doc.lineCount - 1).range.end),
      languages: settings.languages,
      excluded: this.facts.isExcluded(doc, settings.exclude),
    });
  }

  /** Other files may go into the prompt only as this file may: the same rules. */
  private snippetGate() {
    const settings = this.services.settings().completions;
    return {
      allowed: async (d: vscode.TextDocument) => {
        const n = await this.facts.namesOf(d);
        return !this.documentSkipOf(d, n.names, settings) && !this.facts.hasSecretInside(d);
      },
      promptPath: async (d: vscode.TextDocument) => (await this.facts.namesOf(d)).promptPath,
    };
  }

  /** The request for a prompt, or nothing when money stops completions (shown as a sign, never a dialog). */
  private prepare(prompt: Parameters<ConstructorParameters<typeof CompletionEngine>[0]['prepare']>[0]) {
    const c = this.services.settings().completions;
    let reserved = 0;
    for (const h of this.holds) reserved += h.usd;
    const money = completionMoney(this.services, reserved);
    this.state.setStop(money.stop);
    if (money.stop) return undefined;
    const hold = this.services.budget.hold(requestEstimate(money.price, prompt.promptTokens, prompt.maxTokens));
    this.holds.add(hold);
    const channel: Channel | undefined = c.channel === 'default' ? undefined : c.channel;
    return {
      request: fimRequest(prompt, {
        model: c.model,
        ...(channel ? { channel } : {}),
        reasoning: this.services.catalogue().chatModel(c.model)?.reasoning ?? false,
      }),
      settle: () => {
        hold.settle();
        this.holds.delete(hold);
      },
    };
  }

  /**
   * Every request that reached fetch is in the ledger under "completions", shown or not: with the
   * gateway's usage when it came, else with what the client knows (the prompt's estimate and the
   * text received), since a gateway may bill a request the client closed.
   */
  private record(r: RequestReport): void {
    this.probe.reports.push(r);
    if (this.probe.reports.length > 50) this.probe.reports.shift();
    if (++this.sinceSave >= 25) {
      this.sinceSave = 0;
      void this.tally.saveTyping(this.engine.typing.toJSON());
    }
    if (!r.sent) return;
    const channel: ChannelChoice = r.request.provider?.channel ?? 'default';
    const usage = r.usage ?? r.estimated;
    const price = this.services.catalogue().price(r.request.model, channel);
    this.services.usage.record({
      source: 'chat',
      via: 'completions',
      model: r.request.model,
      channel,
      usage,
      ...(price ? { cost: costOf(usage, price) } : {}),
    });
  }

  dispose(): void {
    this.engine.stop();
    void this.tally.saveTyping(this.engine.typing.toJSON());
    for (const d of this.subscriptions) d.dispose();
  }
}
