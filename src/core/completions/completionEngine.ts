// One completion at a time, as the user types. Per ask (the editor's request for ghost text):
//   1. a completion the user is typing through is reused: no request;
//   2. nothing while completions back off after an error (completionTrouble.ts);
//   3. wait for a pause in typing (typingDelay.ts); a keystroke meanwhile ends the wait;
//   4. build the prompt, let the caller decide whether it may go out (budgets) and send it;
//   5. a keystroke in the document, a newer ask or the editor's cancellation aborts the request
//      at once: the stream is closed, so the gateway stops producing tokens;
//   6. the answer is cleaned (fimAnswer.ts) and remembered for typing through.
// Every request that went out is reported once it ends (for the ledger and the benchmarks).
// Pure: the clock, the timers and the gateway stream are injected.
import type { Usage } from '../client/types';
import type { GatewayError } from '../client/gatewayError';
import { estimateTokens } from '../prompt/tokens';
import { hasSecretInside } from './completionRules';
import type { AbortReason, CancelToken, CompletionAsk, CompletionResult, EngineDeps, Prepared } from './completionContract';
import { CompletionBackoff } from './completionTrouble';
import { type CursorPosition } from './documentWindow';
import { cleanCompletion } from './fimAnswer';
import { buildFimPrompt, COMPLETION_CLOSE, COMPLETION_OPEN, type CompletionMode, type FimPrompt } from './fimPrompt';
import { TypeThrough } from './typeThrough';
import { TypingDelay } from './typingDelay';

/** A request that has not finished this long after it went out is no use any more. */
export const COMPLETION_DEADLINE_MS = 6_000;
/** How long a request whose asks the editor all cancelled waits for the editor to ask again for the same place. */
export const CANCEL_GRACE_MS = 40;

interface InFlight {
  key: string;
  docKey: string;
  line: number;
  character: number;
  controller: AbortController;
  reason?: AbortReason;
  done: Promise<CompletionResult | undefined>;
  /** the editor's asks waiting on it that were not cancelled */
  holders: number;
  /** set after the last holder cancelled: closes the request unless an ask joins first */
  grace?: unknown;
}

interface Waiting {
  docKey: string;
  line: number;
  character: number;
  wake: (go: boolean) => void;
}

export class CompletionEngine {
  readonly typing: TypingDelay;
  readonly backoff = new CompletionBackoff();
  private readonly through = new TypeThrough();
  private inflight: InFlight | undefined;
  private waiting: Waiting | undefined;
  private lastKeyAt = new Map<string, number>();
  /** document changes and asks so far: an ask that awaited something is stale when this moved */
  private changes = 0;
  private offers = 0;
  /** the offer on screen (not yet accepted or left) */
  private open: { id: number; docKey: string } | undefined;
  /** counts since the engine was made: completions offered (fresh, not reused) and accepted */
  readonly stats = { offered: 0, accepted: 0, requests: 0, aborted: 0 };

  constructor(private readonly deps: EngineDeps) {
    this.typing = new TypingDelay(deps.typing);
  }

  /** A change to a document (a keystroke): what was waiting or in flight for it is stale. */
  noteChange(docKey: string): void {
    this.changes++;
    const now = this.deps.now();
    this.lastKeyAt.set(docKey, now);
    this.typing.keystroke(now);
    if (this.waiting?.docKey === docKey) this.waiting.wake(false);
    if (this.inflight?.docKey === docKey) this.abort(this.inflight, 'typing');
  }

  /** The cursor moved without a change (a click, an arrow key): what waits or is in flight for another place is stale. */
  noteCursor(docKey: string, line: number, character: number): void {
    const moved = (at: { docKey: string; line: number; character: number } | undefined) =>
      at?.docKey === docKey && (at.line !== line || at.character !== character);
    if (moved(this.waiting)) this.waiting!.wake(false);
    if (moved(this.inflight)) this.abort(this.inflight!, 'moved');
  }

  /** The offer with this id was accepted (Tab). */
  accepted(offerId: number): void {
    if (this.open?.id !== offerId) return;
    this.open = undefined;
    this.stats.accepted++;
    this.typing.outcome(true);
    this.through.forget();
  }

  /** Settings or the key changed: a trouble waiting for that is over. */
  clearTrouble(kinds?: Parameters<CompletionBackoff['clear']>[0]): void {
    const had = this.backoff.trouble;
    this.backoff.clear(kinds);
    if (had && !this.backoff.trouble) this.deps.onTrouble?.(undefined);
  }

  /** Stops whatever is waiting or in flight (completions turned off, the feature disposed). */
  stop(): void {
    this.waiting?.wake(false);
    if (this.inflight) this.abort(this.inflight, 'cancelled');
    this.through.forget();
  }

  async complete(ask: CompletionAsk, cancel?: CancelToken): Promise<CompletionResult | undefined> {
    const { doc, cursor } = ask;
    const askedAt = this.deps.now();
    // A newer ask: what waits for an older one will not be shown.
    this.changes++;
    this.waiting?.wake(false);

    const reused = this.reuse(ask);
    if (reused !== undefined) return { text: reused, reused: true, offerId: this.open?.id ?? 0 };
    this.leaveOpenOffer();

    const key = `${doc.docKey}\u0000${cursor.line}:${cursor.character}\u0000${this.lastKeyAt.get(doc.docKey) ?? 0}`;
    // The editor asks again for the same place: join the request in flight.
    if (this.inflight?.key === key && !this.inflight.reason && !cancel?.isCancellationRequested) {
      const flight = this.inflight;
      const held = this.hold(flight, cancel);
      return flight.done.finally(() => held?.dispose());
    }
    if (this.inflight) this.abort(this.inflight, 'superseded');
    if (this.backoff.blocked(askedAt) || cancel?.isCancellationRequested) return undefined;

    const delayMs = ask.explicit ? 0 : this.typing.delayMs();
    const keyAt = this.lastKeyAt.get(doc.docKey) ?? askedAt;
    const wait = Math.max(0, keyAt + delayMs - askedAt);
    if (!(await this.pause(doc.docKey, cursor, wait, cancel))) return undefined;
    const firedAt = this.deps.now();
    const changes = this.changes;
    const related = ask.related?.() ?? [];
    const snippets = Array.isArray(related) ? related : await related;
    // a keystroke or a newer ask while the snippets were read: this ask is stale
    if (this.changes !== changes || cancel?.isCancellationRequested) return undefined;
    if (ask.mayGo && !ask.mayGo()) return undefined;

    const prompt = buildFimPrompt({
      path: doc.path,
      languageId: doc.languageId,
      lines: doc.lines,
      cursor,
      related: snippets.filter((s) => !hasSecretInside(s.text)),
      ...(this.deps.budget ? { budget: this.deps.budget } : {}),
    });
    // A secret in what would be sent (a key pasted a few lines up): nothing goes out.
    if (hasSecretInside(prompt.window.prefix) || hasSecretInside(prompt.window.suffix)) return undefined;
    const prepared = this.deps.prepare(prompt);
    if (!prepared) return undefined;

    const controller = new AbortController();
    const flight: InFlight = {
      key,
      docKey: doc.docKey,
      line: cursor.line,
      character: cursor.character,
      controller,
      done: Promise.resolve(undefined),
      holders: 0,
    };
    this.inflight = flight;
    flight.done = this.run(flight, prompt, prepared, cancel, { keyAt, firedAt, delayMs }, doc.docKey, cursor);
    return flight.done;
  }

  /** The rest of a completion the user is typing through, else undefined. */
  private reuse(ask: CompletionAsk): string | undefined {
    const now = {
      docKey: ask.doc.docKey,
      line: ask.cursor.line,
      character: ask.cursor.character,
      lineAfter: ask.doc.lines.lineAt(ask.cursor.line).slice(ask.cursor.character),
    };
    const shown = this.through.candidate(now);
    if (!shown) return undefined;
    // The typed text can only be inside the completion if it spans no more lines than it.
    const lines = shown.text.split('\n').length - 1;
    if (now.line - shown.line > lines) {
      this.through.forget();
      return undefined;
    }
    return this.through.rest(now, ask.textBetween({ line: shown.line, character: shown.character }, ask.cursor));
  }

  /** The offer on screen was left without Tab (typed over, another place, another ask). */
  private leaveOpenOffer(): void {
    if (!this.open) return;
    this.open = undefined;
    this.typing.outcome(false);
  }

  /** Waits `ms`; false when a keystroke in the document, a newer ask or the editor cancelled meanwhile. */
  private pause(docKey: string, at: CursorPosition, ms: number, cancel?: CancelToken): Promise<boolean> {
    return new Promise((resolve) => {
      let handle: unknown;
      let sub: { dispose(): void } | undefined;
      const waiting: Waiting = {
        docKey,
        line: at.line,
        character: at.character,
        wake: (go) => {
          if (this.waiting === waiting) this.waiting = undefined;
          if (handle !== undefined) this.deps.clearTimeout(handle);
          sub?.dispose();
          resolve(go);
        },
      };
      this.waiting = waiting;
      sub = cancel?.onCancellationRequested(() => waiting.wake(false));
      handle = this.deps.setTimeout(() => waiting.wake(true), ms);
    });
  }

  /**
   * Ties the request to one of the editor's asks. VS Code cancels an ask and often asks again for
   * the same place at once (the same text and cursor): the request waits CANCEL_GRACE_MS after its
   * last ask was cancelled for a new one to join, and is closed only if none does. A keystroke or a
   * cursor move still closes it at once (noteChange, noteCursor).
   */
  private hold(flight: InFlight, cancel: CancelToken | undefined): { dispose(): void } | undefined {
    if (!cancel) return undefined;
    flight.holders++;
    if (flight.grace !== undefined) {
      this.deps.clearTimeout(flight.grace);
      flight.grace = undefined;
    }
    return cancel.onCancellationRequested(() => {
      if (--flight.holders > 0 || flight.reason) return;
      flight.grace = this.deps.setTimeout(() => {
        flight.grace = undefined;
        if (flight.holders === 0) this.abort(flight, 'cancelled');
      }, CANCEL_GRACE_MS);
    });
  }

  private abort(flight: InFlight, reason: AbortReason): void {
    if (flight.reason) return;
    if (flight.grace !== undefined) this.deps.clearTimeout(flight.grace);
    flight.reason = reason;
    flight.controller.abort();
    if (this.inflight === flight) this.inflight = undefined;
  }

  private async run(
    flight: InFlight,
    prompt: FimPrompt,
    prepared: Prepared,
    cancel: CancelToken | undefined,
    t: { keyAt: number; firedAt: number; delayMs: number },
    docKey: string,
    cursor: CursorPosition,
  ): Promise<CompletionResult | undefined> {
    const sentAt = this.deps.now();
    this.stats.requests++;
    const sub = this.hold(flight, cancel);
    const deadline = this.deps.setTimeout(() => this.abort(flight, 'deadline'), COMPLETION_DEADLINE_MS);
    let raw = '';
    let sent = false;
    let usage: Usage | undefined;
    let firstContentAt: number | undefined;
    let error: GatewayError | Error | undefined;
    try {
      const onSend = () => void (sent = true);
      for await (const event of this.deps.stream(prepared.request, { signal: flight.controller.signal, onSend })) {
        if (event.type === 'text') {
          firstContentAt ??= this.deps.now();
          raw += event.text;
          // The answer is whole (the stop sequence was not honoured, or one line was asked for): close the stream now.
          if (answerComplete(raw, prompt.mode)) {
            this.abort(flight, 'answered');
            break;
          }
        } else if (event.type === 'reasoning') firstContentAt ??= this.deps.now();
        else if (event.type === 'usage') usage = event.usage;
      }
    } catch (caught) {
      if (!flight.reason) error = caught instanceof Error ? caught : new Error(String(caught));
    } finally {
      sub?.dispose();
      this.deps.clearTimeout(deadline);
      if (this.inflight === flight) this.inflight = undefined;
      prepared.settle?.();
    }
    const endedAt = this.deps.now();
    const stale = flight.reason && flight.reason !== 'answered';
    if (stale) this.stats.aborted++;

    let shown: string | undefined;
    if (error) {
      const trouble = this.backoff.fail(error as GatewayError, endedAt);
      if (trouble) {
        this.backoff.markShown();
        this.deps.onTrouble?.(trouble);
      }
    } else if (!stale) {
      if (this.backoff.trouble) this.clearTrouble();
      shown = cleanCompletion(raw, { prefix: prompt.window.prefix, suffix: prompt.window.suffix, mode: prompt.mode });
    }
    const estimated: Usage = { promptTokens: prompt.promptTokens, cachedTokens: 0, completionTokens: raw ? estimateTokens(raw) : 0 };
    this.deps.onReport?.({
      request: prepared.request,
      prompt,
      ...(usage ? { usage } : {}),
      estimated,
      sent,
      answered: firstContentAt !== undefined,
      ...(flight.reason ? { aborted: flight.reason } : {}),
      ...(error ? { error } : {}),
      ...(shown !== undefined ? { shown } : {}),
      times: { ...t, sentAt, ...(firstContentAt !== undefined ? { firstContentAt } : {}), endedAt },
    });
    if (shown === undefined) return undefined;
    const id = ++this.offers;
    this.stats.offered++;
    this.open = { id, docKey };
    this.through.remember({ docKey, line: cursor.line, character: cursor.character, lineAfter: prompt.window.lineAfter, text: shown });
    return { text: shown, reused: false, offerId: id };
  }
}

/**
 * The answer needs nothing more: its closing tag arrived, or (one line asked for) the line ended.
 * Closing the stream then stops the tokens the model would still produce.
 */
export function answerComplete(raw: string, mode: CompletionMode): boolean {
  if (raw.includes(COMPLETION_CLOSE)) return true;
  if (mode !== 'line') return false;
  const open = raw.indexOf(COMPLETION_OPEN);
  if (open < 0) return false;
  const body = raw.slice(open + COMPLETION_OPEN.length);
  const nl = body.indexOf('\n');
  if (nl < 0) return false;
  const first = body.slice(0, nl);
  // an opening fence or a blank first line: the line has not come yet
  return first.trim() !== '' && !/^\s*(`{3,}|~{3,})/.test(first);
}
