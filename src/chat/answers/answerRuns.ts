// The answers being written: one run per conversation at most. A run streams the model's answer
// (with its tool rounds) into the conversation's transcript, posts it to the webview while the
// conversation is on screen, and records usage and cost when it ends.
import * as vscode from 'vscode';
import { estimateRequestTokens, outputReserve } from '../../core/prompt/tokens';
import { estimateCost, expectedOutputTokens } from '../../core/spend/reservations';
import type { ToolCall } from '../../core/client/types';
import type { Services } from '../../services/serviceContainer';
import { describeError } from '../../shared/userErrors';
import { AnswerChannels } from './answerChannelChoice';
import { runAnswer } from './answerLoop';
import type { ChatScope } from '../chatScope';
import { messageView, newId, wireHistory, type AssistantRecord, type Conversation } from '../conversations/conversationTranscript';
import { requestMessages } from '../context/turnContext';
import { budgetRefusal } from './sendChecks';
import { costUnknown } from '../../core/spend/answerCost';
import type { ToolRunContext } from '../../agentTools/toolContext';
import type { ChatTools, ToolResult } from '../../agentTools/chatTools';
import { errorText } from '../../core/errorText';
import { clipForLog } from '../../core/logText';
import type { Approvals } from '../../agentTools/approvals';
import type { ComposerQuotes } from '../quote/composerQuotes';
import { envelopeGate } from '../quote/envelopeLimit';
import { describeAnswerError, type ConversationCompactor } from '../compaction/conversationCompactor';
import { overflowOf } from '../compaction/overflowErrors';

/** Told when an answer ended (the edits: auto-accept keeps its changes then). */
export type AnswerEnded = (c: Conversation, answerId: string) => Promise<void>;

interface Run {
  conversation: Conversation;
  abort: AbortController;
  done: Promise<void>;
  /** set when the chat is closed or the conversation deleted mid-answer: nothing more is written or posted */
  detached: boolean;
}

export class AnswerRuns {
  readonly #runs = new Map<string, Run>();
  readonly #channels: AnswerChannels;

  constructor(
    private readonly scope: ChatScope,
    private readonly tools: ChatTools,
    private readonly ended: AnswerEnded | undefined,
    /** what the next request may cost (the envelope's check), and what each request teaches the quote */
    private readonly quotes: ComposerQuotes,
    /** the panel's cards: the pause before a request that would pass the conversation's limit */
    private readonly approvals: Approvals,
    /** compaction: Undo goes with the next send; an overflow is compacted and the request sent again once */
    private readonly compactor?: ConversationCompactor,
  ) {
    this.#channels = new AnswerChannels(scope.services);
  }

  /** Whether an answer is being written in conversation `id`. */
  has(id: string): boolean {
    return this.#runs.has(id);
  }

  /** Resolves when no answer is running (in any conversation). */
  async whenIdle(): Promise<void> {
    while (this.#runs.size) await Promise.all([...this.#runs.values()].map((r) => r.done));
  }

  /** Stops the answer of conversation `id` at once; its partial text is kept. */
  stop(id: string): void {
    this.#runs.get(id)?.abort.abort();
  }

  /** Stops the answer of conversation `id` and writes nothing more of it (the conversation goes away). */
  discard(id: string): void {
    const run = this.#runs.get(id);
    if (!run) return;
    run.detached = true;
    run.abort.abort();
  }

  /** Marks every run detached (the chat closes: records stay as last written). */
  detachAll(): void {
    for (const run of this.#runs.values()) run.detached = true;
  }

  abortAll(): void {
    for (const run of this.#runs.values()) run.abort.abort();
  }

  /** Streams the answer to the end of the conversation's transcript. */
  async answer(c: Conversation): Promise<void> {
    const { services, out } = this.scope;
    if (this.scope.closing) return;
    let client: ReturnType<Services['gateway']['client']>;
    try {
      client = services.gateway.client();
    } catch (err) {
      const e = describeError(err);
      return out.notice('error', e.message, e.actions, { conversation: c });
    }
    const store = this.scope.store();
    const s = services.settings();
    const model = s.chatModel;
    const channel = s.channel;
    const info = this.scope.modelInfo(model);
    const tools = this.scope.toolsFor(info, c.id).tools;
    this.compactor?.settle(c);
    const history = wireHistory(c);
    const firstRequest = !c.messages.some((m) => m.role === 'assistant');
    const record: AssistantRecord = { id: newId(), role: 'assistant', parts: [], status: 'streaming', model, channel, createdAt: Date.now(), wire: [] };
    if (tools?.length) record.tools = true;
    c.messages.push(record);
    store.changed(c, { touch: true });
    out.postFor(c, { type: 'messageAdded', message: messageView(record) });

    let finish!: () => void;
    const run: Run = { conversation: c, abort: new AbortController(), done: new Promise<void>((r) => (finish = r)), detached: false };
    this.#runs.set(c.id, run);
    out.postFor(c, { type: 'busy', busy: true });
    const started = Date.now();
    // The answer's estimated cost is reserved until its real cost is recorded: the
    // budgets count it while it runs. (The send checks asked first while a budget was used up.)
    // Reserved before the first await, so that requests sent meanwhile see it.
    const price = services.catalogue().price(model, channel);
    const estimate = (wire: ReturnType<typeof requestMessages>) =>
      price ? estimateCost(estimateRequestTokens(wire, tools), expectedOutputTokens(undefined, info.maxOutput), price) : undefined;
    let hold = services.budget.hold(estimate(requestMessages(c, tools, [], history)));
    // The rules files as they are now; one that changed since the last request costs this one its cache.
    const rules = await this.scope.rules.forTurn(c.id, firstRequest).catch(() => ({ files: [], changed: [] as string[] }));
    for (const path of rules.changed)
      out.notice(
        'info',
        vscode.l10n.t(
          '{0} changed, so this request sends the new rules: the gateway cannot use its prompt cache for this conversation once (the whole prompt is billed at the input price).',
          path,
        ),
      );
    const messages = requestMessages(c, tools, rules.files, history);
    const answerClient = this.#channels.client(client);
    const gateToken = new vscode.CancellationTokenSource();
    run.abort.signal.addEventListener('abort', () => gateToken.cancel());
    if (rules.files.length) {
      const withRules = services.budget.hold(estimate(messages));
      hold.settle();
      hold = withRules;
    }
    try {
      const outcome = await runAnswer({
        client: answerClient,
        model,
        channel,
        messages,
        tools,
        maxToolRounds: s.maxToolRounds,
        signal: run.abort.signal,
        runTools: (calls, signal) => this.#runTools(calls, signal, !!tools, { conversationId: c.id, messageId: record.id, imageInput: info.imageInput }),
        // Every round counts: the reservation becomes what the answer cost so far plus
        // the next request's estimate, and a budget used up mid-answer asks before the next round.
        beforeToolRound: async (spent, sofar) => {
          hold.settle();
          const next = estimate(sofar);
          hold = services.budget.hold(next === undefined && spent.cost === undefined ? undefined : (spent.cost ?? 0) + (next ?? 0));
          if (!services.budget.exhausted()) return undefined;
          const refusal = await budgetRefusal(services, { model, priced: !!price });
          if (!refusal) return undefined;
          services.log.info(`Chat answer stopped before a tool round: a budget is used up (${model}).`);
          return `\n\n_${vscode.l10n.t('Stopped before the next round of tool calls: {0}', refusal.message)}_`;
        },
        // The conversation's spending limit: checked before every request, the answer pauses at a card
        beforeRequest: async (r) => {
          const gate = await envelopeGate({
            scope: this.scope,
            approvals: this.approvals,
            conversation: c,
            messageId: record.id,
            channel: r.channel,
            spent: (c.totalCost ?? 0) + r.cost,
            quote: (ch) => this.quotes.nextRequest(c, record, model, ch, r.messages, tools),
            token: gateToken.token,
          });
          if (gate.kind === 'stop') return { stop: gate.note };
          if (gate.kind === 'switch') return { channel: gate.channel, price: services.catalogue().price(model, gate.channel) };
          return undefined;
        },
        requestDone: (r) => {
          if (!run.detached) this.quotes.requestDone(c, record, { ...r, ...(tools ? { tools } : {}) });
        },
        describeError: (err) => describeAnswerError(err),
        onOverflow: async (err) => {
          const overflow = overflowOf(err);
          if (overflow?.window && !run.detached) this.#learnWindow(c, model, record.channel, overflow.window, info.contextWindow);
          if (!this.compactor || !overflow || run.detached || !(await this.compactor.mayCompact(c, 'overflow'))) return undefined;
          const done = await this.compactor.compact(c, {
            reason: 'overflow',
            signal: run.abort.signal,
            ...(overflow.window ? { window: overflow.window } : {}),
          });
          if (!done.ok) {
            out.notice('info', done.message, [], { conversation: c });
            return undefined;
          }
          this.compactor.postDivider(c);
          out.notice('info', this.compactor.doneNote(done, 'overflow'), ['undoCompaction'], { conversation: c });
          return requestMessages(c, tools, rules.files);
        },
        beforeRoundRequest: async (sofar) => {
          if (!this.compactor || run.detached) return undefined;
          const room = info.contextWindow - outputReserve(info.contextWindow, info.maxOutput);
          if (estimateRequestTokens(sofar, tools) <= room || !(await this.compactor.mayCompact(c, 'round'))) return undefined;
          const done = await this.compactor.compact(c, { reason: 'round', signal: run.abort.signal });
          if (!done.ok) {
            out.notice('info', done.message, [], { conversation: c });
            return undefined;
          }
          this.compactor.postDivider(c);
          out.notice('info', this.compactor.doneNote(done, 'round'), ['undoCompaction'], { conversation: c });
          return requestMessages(c, tools, rules.files);
        },
        price,
        record,
        events: {
          text: (t) => {
            if (run.detached) return;
            out.text(c, record.id, t);
            store.changed(c);
          },
          reasoning: (t) => {
            if (run.detached) return;
            out.thinking(c, record.id, t);
            store.changed(c);
          },
          thinkingDone: (ms) => {
            if (run.detached) return;
            out.postFor(c, { type: 'thinkingDone', messageId: record.id, ms });
          },
          toolCall: (call) => {
            if (run.detached) return;
            out.postFor(c, { type: 'toolCall', messageId: record.id, call: { ...call } });
            store.changed(c);
          },
          // the paths only: the view provider resolves them to webview URIs (src/chat/view/chatImages.ts)
          images: (part) => {
            if (run.detached) return;
            out.postFor(c, { type: 'images', messageId: record.id, partId: part.id, images: part.paths.map((path) => ({ state: 'pending', path })) });
            store.changed(c);
          },
        },
      });
      // booked under the conversation (its title as it is now), as its usage line
      const booked = () =>
        services.usage.recordAnswer(
          {
            source: 'chat',
            via: 'panel',
            conversation: { id: c.id, title: c.title },
            model,
            channel: record.channel,
            ...(outcome.usage ? { usage: outcome.usage } : {}),
            cost: outcome.cost,
          },
          record.parts.length > 0,
        );
      if (run.detached) {
        // closed mid-answer: the record stays as last written, but the gateway billed what it answered
        booked();
        return;
      }
      this.quotes.answerDone(record, !!tools?.length);
      outcome.cost = this.#channels.finish(c, record, answerClient, outcome.usage, outcome.cost, (note) => out.notice('info', note, [], { conversation: c }));
      if (outcome.cost !== undefined) c.totalCost = (c.totalCost ?? 0) + outcome.cost;
      booked();
      // images the tools generated: already in the ledger, shown on the usage line and in the total
      const imageCost = this.tools.takeImageCost?.(c.id);
      if (imageCost) {
        c.totalCost = (c.totalCost ?? 0) + imageCost;
        record.usage = { ...(record.usage ?? { promptTokens: 0, cachedTokens: 0, completionTokens: 0 }), cost: (record.usage?.cost ?? 0) + imageCost };
      }
      const u = outcome.usage;
      services.log.info(
        `Chat answer ${record.status}: ${model} (${record.channel}), ${outcome.requests} request(s), ${Date.now() - started} ms` +
          (u
            ? `, tokens ${u.promptTokens} prompt / ${u.cachedTokens} cached / ${u.completionTokens} completion${u.reasoningTokens ? ` (${u.reasoningTokens} reasoning)` : ''}`
            : '') +
          (record.error ? `; ${clipForLog(record.error.message)}` : ''),
      );
      store.changed(c, { touch: true });
      out.postFor(c, {
        type: 'messageFinished',
        messageId: record.id,
        status: record.status,
        channel: record.channel,
        ...(record.usage ? { usage: { ...record.usage } } : {}),
        ...(record.error ? { error: record.error } : {}),
        ...(c.totalCost !== undefined ? { totalCost: c.totalCost } : {}),
        costUnknown: costUnknown(record),
      });
    } finally {
      gateToken.dispose();
      hold.settle();
      if (this.ended) await this.ended(c, record.id).catch((err: unknown) => services.log.warn(`Chat: after the answer: ${errorText(err)}`));
      this.#runs.delete(c.id);
      if (!run.detached) {
        out.postFor(c, { type: 'busy', busy: false });
        if (store.active.id === c.id) this.scope.postComposer();
        await store.flush();
      }
      finish();
    }
  }

  /** The gateway named a smaller window than the settings or /models gave: it is used from now on, and the user told once. */
  #learnWindow(c: Conversation, model: string, channel: string, named: number, configured: number): void {
    if (!this.scope.services.windows.learn(model, channel, named, configured)) return;
    this.scope.services.log.info(`Context window of ${model} (${channel}) learned from the gateway: ${named} tokens (was ${configured}).`);
    this.scope.out.notice(
      'info',
      vscode.l10n.t(
        'The gateway says {0} takes at most {1} tokens here, not the {2} the settings or the gateway’s model list give: Modelgate counts with {1} from now on.',
        model,
        named.toLocaleString('en-US'),
        configured.toLocaleString('en-US'),
      ),
      [],
      { conversation: c },
    );
  }

  async #runTools(calls: ToolCall[], signal: AbortSignal, offered: boolean, context: ToolRunContext): Promise<ToolResult[]> {
    if (!offered || !vscode.workspace.isTrusted) {
      return calls.map(() => ({ content: 'No tools are available in this workspace.', isError: true }));
    }
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal.addEventListener('abort', onAbort);
    try {
      return await this.tools.runAll(calls, cts.token, context);
    } catch (err) {
      this.scope.services.log.warn(`Chat tools failed: ${errorText(err)}`);
      return calls.map(() => ({ content: `The tool failed: ${errorText(err)}`, isError: true }));
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }
}
