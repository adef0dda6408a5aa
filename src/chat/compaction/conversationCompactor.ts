// Compaction in the panel: writes the summary of a conversation's older turns with the
// conversation's model on the economical channel, stores it with the conversation (every turn
// stays in the stored conversation; what is sent uses the summary after the stable prefix, see
// sentHistory), and offers Undo Compaction until the next send. Also the gateway's overflow error:
// compacted and retried once by the answer, otherwise the error card offers Compact and Retry.
import * as vscode from 'vscode';
import { costOf, formatUsd } from '../../core/spend/cost';
import { estimateCost } from '../../core/spend/reservations';
import { estimateRequestTokens } from '../../core/prompt/tokens';
import { lastEditRounds, planCompaction, type HistoryTurn } from '../../core/compaction/compactionPlan';
import { summaryRequest, supersededCalls, turnIndex } from '../../core/compaction/compactedHistory';
import { settled, undone, type StoredCompaction } from '../../core/compaction/compactionRecord';
import { withOverflowAction } from './overflowErrors';
import {
  askModal,
  compactionQuestion,
  priceVerdict,
  PRICE_KEEP_SHARE,
  savingOf,
  type AutoReason,
  type CompactionAsk,
  type PriceVerdict,
} from './compactionTriggers';
import type { ComposerQuotes } from '../quote/composerQuotes';
import type { ChatMessage } from '../../core/client/types';
import type { Usage } from '../../core/client/types';
import type { ErrorView } from '../../core/errorView';
import { errorText } from '../../core/errorText';
import { describeError } from '../../shared/userErrors';
import type { ChatScope } from '../chatScope';
import { compactionView, historyTurns, type Conversation } from '../conversations/conversationTranscript';

/** The channel the summary is written on: the cheapest the gateway offers. */
export const SUMMARY_CHANNEL = 'economical';
/** Share of the model's window kept verbatim as recent turns (besides the latest request). */
export const KEEP_SHARE = 0.2;
/** Share of the model's window the summary request may fill (the economical channel may offer less than the full window). */
export const SUMMARY_INPUT_SHARE = 0.4;
/** Expected length of a summary (tokens), for its quote. */
export const SUMMARY_OUTPUT_TOKENS = 2_000;

export type CompactReason = 'manual' | AutoReason;

export type CompactResult = { ok: true; summarised: number; cost?: number } | { ok: false; message: string };

/** The error card of an answer: an overflow offers Compact and Retry as its one action. */
export function describeAnswerError(err: unknown): ErrorView {
  return withOverflowAction(describeError(err), err);
}

export class ConversationCompactor {
  /** conversations being compacted (a second request waits for nothing: it is refused) */
  readonly #running = new Set<string>();
  #ask: CompactionAsk | undefined;

  constructor(
    private readonly scope: ChatScope,
    /** an answer runs or a turn is being checked in the conversation */
    private readonly isBusy: (c: Conversation) => boolean,
    /** the quote's cache prediction, for the price rule */
    private readonly quotes?: Pick<ComposerQuotes, 'cacheOutlook'>,
  ) {}

  /** Modelgate: Compact Conversation, and `/compact [instructions]` typed in the composer. */
  async compactFromPanel(c: Conversation, instructions?: string): Promise<boolean> {
    const { out } = this.scope;
    if (this.isBusy(c)) {
      out.notice('info', vscode.l10n.t('An answer is still being written: stop it (Escape) or wait for it, then compact.'), [], {
        conversation: c,
        topic: 'busy',
      });
      return false;
    }
    const done = await this.compact(c, { reason: 'manual', ...(instructions?.trim() ? { instructions } : {}) });
    if (!done.ok) {
      out.notice('info', done.message, [], { conversation: c, transient: true });
      return false;
    }
    this.postDivider(c);
    out.notice('info', this.doneNote(done, 'manual'), ['undoCompaction'], { conversation: c });
    this.scope.postComposer();
    return true;
  }

  /** Undo Compaction (the divider's button, the notice's action, the command). */
  undoFromPanel(c: Conversation): boolean {
    const { out } = this.scope;
    if (this.isBusy(c) || !this.undo(c)) {
      out.notice('info', vscode.l10n.t('There is no compaction to undo: Undo Compaction is available until the next message is sent.'), [], {
        conversation: c,
        transient: true,
      });
      return false;
    }
    this.postDivider(c);
    out.notice('info', vscode.l10n.t('Compaction undone: the next request sends the conversation as it was before.'), [], { conversation: c, transient: true });
    this.scope.postComposer();
    return true;
  }

  /** Shows (or removes) the divider in the panel. */
  postDivider(c: Conversation): void {
    const view = compactionView(c);
    this.scope.out.postFor(c, view ? { type: 'compaction', compaction: view } : { type: 'compaction' });
  }

  isRunning(c: Conversation): boolean {
    return this.#running.has(c.id);
  }

  /**
   * Whether `modelgate.chat.compaction` lets the panel compact on its own now (`ask`: a modal whose
   * safe choice is Cancel; the tests answer it through setAsk).
   */
  async mayCompact(c: Conversation, reason: AutoReason = 'room', verdict?: PriceVerdict): Promise<boolean> {
    const mode = this.scope.services.settings().compaction;
    if (mode !== 'ask') return mode === 'automatic';
    return (this.#ask ?? askModal)(compactionQuestion(c, this.scope.services.settings().chatModel, reason, verdict));
  }

  /** Replaces the `ask` modal (undefined: the modal again). */
  setAsk(ask: CompactionAsk | undefined): void {
    this.#ask = ask;
  }

  /** The price rule before sending `next` in `c`: a verdict when compacting now costs less than it saves. */
  priceCheck(c: Conversation, next: ChatMessage): PriceVerdict | undefined {
    if (!this.quotes || this.#running.has(c.id)) return undefined;
    const info = this.scope.modelInfo(this.scope.services.settings().chatModel);
    return priceVerdict(this.scope, this.quotes, c, next, {
      window: info.contextWindow,
      summaryChannel: SUMMARY_CHANNEL,
      summaryOutputTokens: SUMMARY_OUTPUT_TOKENS,
      summaryInputShare: SUMMARY_INPUT_SHARE,
    });
  }

  /** After a send: the compaction stays, Undo Compaction goes (and leaves the divider). */
  settle(c: Conversation): void {
    if (!c.compaction?.undoable) return;
    c.compaction = settled(c.compaction);
    this.postDivider(c);
  }

  /** Restores what was sent before the last compaction; false when there is nothing to undo. */
  undo(c: Conversation): boolean {
    if (!c.compaction?.undoable) return false;
    const before = undone(c.compaction);
    if (before) c.compaction = before;
    else delete c.compaction;
    this.scope.store().changed(c, { touch: true });
    return true;
  }

  /**
   * Writes the summary of every turn older than what stays verbatim and stores it with `c`.
   * Nothing changes when it fails (the error is returned as a sentence).
   */
  async compact(
    c: Conversation,
    o: { instructions?: string; reason: CompactReason; signal?: AbortSignal; /** the window an overflow error named */ window?: number },
  ): Promise<CompactResult> {
    if (this.#running.has(c.id)) return { ok: false, message: vscode.l10n.t('This conversation is being compacted already.') };
    const { services } = this.scope;
    const s = services.settings();
    const model = s.chatModel;
    const info = this.scope.modelInfo(model);
    // a window the gateway named in an overflow error wins over a wrong one from the settings or /models
    const window = Math.min(info.contextWindow, o.window ?? Infinity);
    const turns = historyTurns(c);
    const prev = c.compaction;
    const prevCut = prev ? turnIndex(turns, prev.cutId) : -1;
    const plan = planCompaction({
      turns,
      keepTokens: o.reason === 'manual' ? Math.floor(window * KEEP_SHARE) : o.reason === 'price' ? Math.floor(window * PRICE_KEEP_SHARE) : 0,
      ...(prevCut > 0 ? { previousCut: prevCut } : {}),
    });
    if (!plan) return { ok: false, message: vscode.l10n.t('Nothing to compact yet: the conversation has no turns older than your latest request.') };
    // the kept rounds of an earlier compaction count as edits before this part
    const earlier: HistoryTurn[] = prev && prevCut > 0 ? [{ id: '', role: 'assistant', wire: prev.keptRounds }] : [];
    const summarised = turns.slice(plan.from, plan.cut);
    const kept = lastEditRounds([...earlier, ...summarised]);
    const keptRounds = kept.rounds.flat();
    const request = summaryRequest({
      wire: summarised.flatMap((t) => t.wire),
      ...(prev && prevCut > 0 ? { previousSummary: prev.summary } : {}),
      ...(o.instructions?.trim() ? { instructions: o.instructions.trim() } : {}),
      editedPaths: kept.paths,
      budgetTokens: Math.floor(window * SUMMARY_INPUT_SHARE),
    });
    const price = services.catalogue().price(model, SUMMARY_CHANNEL);
    const quote = price ? estimateCost(estimateRequestTokens(request), SUMMARY_OUTPUT_TOKENS, price) : undefined;
    this.#running.add(c.id);
    try {
      const title =
        quote !== undefined
          ? vscode.l10n.t('Compacting the conversation: {0} writes the summary on the economical channel (about {1}).', model, formatUsd(quote))
          : vscode.l10n.t('Compacting the conversation: {0} writes the summary on the economical channel.', model);
      const written = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, () => this.#write(model, request, o.signal));
      const cost = written.usage && price ? costOf(written.usage, price) : undefined;
      services.usage.recordAnswer(
        { source: 'chat', via: 'panel', model, channel: SUMMARY_CHANNEL, ...(written.usage ? { usage: written.usage } : {}), cost },
        true,
      );
      if (cost !== undefined) c.totalCost = (c.totalCost ?? 0) + cost;
      const cutId = turns[plan.cut]!.id;
      const tail = turns.slice(plan.cut).flatMap((t) => t.wire);
      const next: StoredCompaction = {
        summary: written.text,
        cutId,
        keptRounds,
        stubbedCalls: supersededCalls([...keptRounds, ...tail]),
        model,
        channel: SUMMARY_CHANNEL,
        createdAt: Date.now(),
        undoable: true,
      };
      if (o.instructions?.trim()) next.instructions = o.instructions.trim();
      if (cost !== undefined) next.cost = cost;
      if (prev) next.previous = settled(prev);
      c.compaction = next;
      this.scope.store().changed(c, { touch: true });
      services.log.info(
        `Chat compacted (${o.reason}): ${plan.cut - plan.from} message(s) into ${written.text.length} characters by ${model} (${SUMMARY_CHANNEL})${cost !== undefined ? `, $${cost.toFixed(5)}` : ''}.`,
      );
      return { ok: true, summarised: plan.cut - plan.from, ...(cost !== undefined ? { cost } : {}) };
    } catch (err) {
      services.log.warn(`Chat compaction failed: ${errorText(err)}`);
      return { ok: false, message: vscode.l10n.t('The conversation was not compacted: {0}', describeError(err).message) };
    } finally {
      this.#running.delete(c.id);
    }
  }

  /** The one line the panel shows after a compaction. */
  doneNote(r: Extract<CompactResult, { ok: true }>, reason: CompactReason, verdict?: PriceVerdict): string {
    const cost = r.cost !== undefined ? formatUsd(r.cost) : vscode.l10n.t('an unknown price');
    if (reason === 'price' && verdict)
      return vscode.l10n.t(
        '{0} earlier messages were compacted into a summary for {1} before sending: cheaper than sending them again over the next {2} turns (about {3} saved).',
        r.summarised,
        cost,
        verdict.turns,
        formatUsd(savingOf(verdict)),
      );
    if (reason === 'round')
      return vscode.l10n.t(
        'The next round of tool calls would not have fit the model’s context window: {0} earlier messages were compacted into a summary for {1}, and the answer went on.',
        r.summarised,
        cost,
      );
    if (reason === 'overflow')
      return vscode.l10n.t(
        'The request did not fit the model’s context window: {0} earlier messages were compacted into a summary for {1}, and the request was sent again.',
        r.summarised,
        cost,
      );
    if (reason === 'room')
      return vscode.l10n.t(
        'The conversation no longer fit the model’s context window with room for the answer: {0} earlier messages were compacted into a summary for {1} before sending.',
        r.summarised,
        cost,
      );
    return vscode.l10n.t('{0} earlier messages were compacted into a summary for {1}. The full conversation stays above the divider.', r.summarised, cost);
  }

  async #write(model: string, messages: ReturnType<typeof summaryRequest>, signal?: AbortSignal): Promise<{ text: string; usage?: Usage }> {
    const client = this.scope.services.gateway.client();
    let text = '';
    let usage: Usage | undefined;
    for await (const ev of client.streamChat({ model, messages, provider: { channel: SUMMARY_CHANNEL } }, signal ? { signal } : {})) {
      if (ev.type === 'text') text += ev.text;
      else if (ev.type === 'usage') usage = ev.usage;
    }
    if (!text.trim()) throw new Error('the model returned an empty summary');
    return { text: text.trim(), ...(usage ? { usage } : {}) };
  }
}
