// When the panel compacts on its own: the price rule before a send (compacting now costs less than
// it saves over the turns that count, at this channel's input and cache prices), and the question
// `modelgate.chat.compaction: ask` puts first (a modal whose safe choice, Cancel, keeps the history).
import * as vscode from 'vscode';
import type { ChatMessage } from '../../core/client/types';
import { formatUsd } from '../../core/spend/cost';
import { estimateRequestTokens, outputReserve } from '../../core/prompt/tokens';
import { decideCompaction, priceRuleInput, type CompactionVerdict } from '../../core/compaction/compactionPrice';
import { planCompaction } from '../../core/compaction/compactionPlan';
import { turnIndex } from '../../core/compaction/compactedHistory';
import type { ChatScope } from '../chatScope';
import type { ComposerQuotes } from '../quote/composerQuotes';
import { requestMessages } from '../context/turnContext';
import { historyTurns, wireHistory, type Conversation } from '../conversations/conversationTranscript';

/** Why the panel compacts on its own. */
export type AutoReason = 'room' | 'price' | 'overflow' | 'round';

/** A verdict of the price rule that says to compact, with its figures. */
export type PriceVerdict = Extract<CompactionVerdict, { reason: 'price' }> & { turns: number };

/** The question before compacting in `ask` mode (tests answer it through ChatController.setCompactionAsk). */
export interface CompactionQuestion {
  reason: AutoReason;
  message: string;
  detail: string;
}
export type CompactionAsk = (q: CompactionQuestion) => Promise<boolean>;

/** Share of the window kept verbatim when the price rule compacts (recent turns: the answer keeps its task). */
export const PRICE_KEEP_SHARE = 0.2;

/**
 * The price rule before sending `next` in `c` on the current settings: the verdict when it says to
 * compact for the price, else undefined (room is the send check's; a warm cache is never thrown away).
 */
export function priceVerdict(
  scope: ChatScope,
  quotes: Pick<ComposerQuotes, 'cacheOutlook'>,
  c: Conversation,
  next: ChatMessage,
  o: { window: number; summaryChannel: 'economical'; summaryOutputTokens: number; summaryInputShare: number },
): PriceVerdict | undefined {
  const s = scope.services.settings();
  const model = s.chatModel;
  const info = scope.modelInfo(model);
  const price = scope.services.catalogue().price(model, s.channel);
  if (!price) return undefined;
  const turns = historyTurns(c);
  const prevCut = c.compaction ? turnIndex(turns, c.compaction.cutId) : -1;
  const plan = planCompaction({ turns, keepTokens: Math.floor(o.window * PRICE_KEEP_SHARE), ...(prevCut > 0 ? { previousCut: prevCut } : {}) });
  if (!plan) return undefined;
  const tools = scope.toolsFor(info, c.id).tools;
  const messages = requestMessages(c, tools, scope.rules.inUse(c.id), [...wireHistory(c), next]);
  const promptTokens = estimateRequestTokens(messages, tools);
  const prefixTokens = estimateRequestTokens(messages.slice(0, 1), tools);
  const summarised = turns.slice(plan.from, plan.cut).flatMap((t) => t.wire);
  const kept = [...plan.keptRounds, ...turns.slice(plan.cut).flatMap((t) => t.wire), next];
  const outlook = quotes.cacheOutlook(c, model, s.channel, messages, tools);
  const summaryPrice = scope.services.catalogue().price(model, o.summaryChannel);
  const input = priceRuleInput({
    promptTokens,
    cachedTokens: outlook.cachedTokens,
    prefixTokens,
    summarisedTokens: estimateRequestTokens(summarised) + (prevCut > 0 ? Math.ceil(c.compaction!.summary.length / 4) : 0),
    keptTokens: estimateRequestTokens(kept),
    summaryOutputTokens: o.summaryOutputTokens,
    summaryInputCap: Math.floor(o.window * o.summaryInputShare),
    turnTimes: c.messages.filter((m) => m.role === 'user').map((m) => m.createdAt),
    outputPerTurn: outlook.outputTokens,
    contextWindow: o.window,
    outputReserve: outputReserve(o.window, info.maxOutput),
    price,
    ...(summaryPrice ? { summaryPrice } : {}),
    ...(outlook.facts ? { cache: outlook.facts } : {}),
    assumeCaching: outlook.caching,
  });
  const verdict = decideCompaction(input);
  scope.services.log.info(
    `Chat compaction price rule: ${verdict.reason} (${promptTokens} prompt tokens, ${input.cachedTokens} from the cache, ${input.turns} turn(s) ahead` +
      (verdict.withoutUsd !== undefined
        ? `: $${verdict.withoutUsd.toFixed(5)} as it stands, $${verdict.withUsd!.toFixed(5)} compacted + $${verdict.summaryUsd!.toFixed(5)}`
        : '') +
      ').',
  );
  return verdict.compact && verdict.reason === 'price' ? { ...verdict, turns: input.turns } : undefined;
}

/** What the price rule expects to save besides the summary's cost (USD, never below 0). */
export const savingOf = (v: PriceVerdict): number => Math.max(0, v.withoutUsd - v.withUsd - v.summaryUsd);

/** The question `ask` mode puts before the panel compacts on its own. */
export function compactionQuestion(c: Conversation, model: string, reason: AutoReason, verdict?: PriceVerdict): CompactionQuestion {
  const detail = vscode.l10n.t(
    'Compacting replaces the older turns in what is sent with a summary written on the economical channel (a paid request). The conversation keeps every message.',
  );
  if (reason === 'price' && verdict)
    return {
      reason,
      message: vscode.l10n.t(
        'Compacting “{0}” now costs about {1} and saves about {2} over the next {3} turns: its cache has gone cold, so the next requests would send the whole conversation at the input price.',
        c.title,
        formatUsd(verdict.summaryUsd),
        formatUsd(savingOf(verdict)),
        verdict.turns,
      ),
      detail: vscode.l10n.t('{0} Cancel sends the conversation as it is.', detail),
    };
  return { reason, message: vscode.l10n.t('“{0}” no longer fits the context window of {1} with room for the answer.', c.title, model), detail };
}

/** The modal (Cancel, VS Code's own button, is the default and the answer on Escape). */
export async function askModal(q: CompactionQuestion): Promise<boolean> {
  const compact = vscode.l10n.t('Compact');
  const pick = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, compact);
  return pick === compact;
}
