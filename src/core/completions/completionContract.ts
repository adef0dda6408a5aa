// What the completion engine takes from its host (the editor's ask, the clock, the gateway stream,
// the budget check) and what it gives back (the ghost text, a report of each request that went out).
// Pure: no editor API; the feature adapts VS Code's objects to these shapes.
import type { ChatRequest, ChatStreamEvent, Usage } from '../client/types';
import type { GatewayError } from '../client/gatewayError';
import type { TroubleState } from './completionTrouble';
import type { CursorPosition, DocumentLines } from './documentWindow';
import type { FimBudget, FimPrompt, RelatedSnippet } from './fimPrompt';

export interface CompletionDocument {
  /** identifies the document (its URI) */
  docKey: string;
  path: string;
  languageId: string;
  lines: DocumentLines;
}

export interface CompletionAsk {
  doc: CompletionDocument;
  cursor: CursorPosition;
  /** the user asked (a keybinding): no wait for a pause */
  explicit?: boolean;
  /** the document's text between two positions (for typing through; read only when a completion is shown there) */
  textBetween(from: CursorPosition, to: CursorPosition): string;
  /** related snippets for the prompt; called only when a request goes out */
  related?(): RelatedSnippet[] | Promise<RelatedSnippet[]>;
  /** a last check before the request goes out (a secret inside the file, read once per version); false sends nothing */
  mayGo?(): boolean;
}

/** The editor's cancellation token, as much of it as the engine uses. */
export interface CancelToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface Prepared {
  request: ChatRequest;
  /** called once when the request ends, however it ends (releases a budget reservation) */
  settle?(): void;
}

export type AbortReason = 'typing' | 'moved' | 'superseded' | 'cancelled' | 'deadline' | 'answered';

/** One request that went out, when it ended. Times are the injected clock's. */
export interface RequestReport {
  request: ChatRequest;
  prompt: FimPrompt;
  /** the gateway's usage, when the stream got that far */
  usage?: Usage;
  /** what the client knows when the gateway reported no usage: the prompt's estimate, the text it got */
  estimated: Usage;
  /** the request was handed to fetch: the gateway may bill it even when it was stopped at once */
  sent: boolean;
  /** content arrived (the gateway started answering) */
  answered: boolean;
  /** why the client closed the stream before its end (`answered`: the answer was complete early) */
  aborted?: AbortReason;
  error?: GatewayError | Error;
  /** the text shown, when one was */
  shown?: string;
  times: { keyAt: number; firedAt: number; sentAt: number; firstContentAt?: number; endedAt: number; delayMs: number };
}

export interface EngineDeps {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** the gateway stream (GatewayClient.streamChat); `onSend` when the request is handed to fetch */
  stream(request: ChatRequest, options: { signal: AbortSignal; onSend: () => void }): AsyncIterable<ChatStreamEvent>;
  /** the request for a prompt (model, channel, effort), or undefined to send nothing (a budget stops completions) */
  prepare(prompt: FimPrompt): Prepared | undefined;
  /** each request that went out, when it ended */
  onReport?(report: RequestReport): void;
  /** a new trouble (shown once), or undefined when the last one cleared */
  onTrouble?(trouble: TroubleState | undefined): void;
  /** the prompt's token budget (the default when absent) */
  budget?: FimBudget;
  /** saved TypingDelay state */
  typing?: unknown;
}

export interface CompletionResult {
  text: string;
  /** the rest of a completion the user typed into, no request made */
  reused: boolean;
  /** for the acceptance command: which offer this is */
  offerId: number;
}
