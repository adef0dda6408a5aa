// Messages between the extension host and the chat webview: discriminated unions keyed by a
// literal `type`. Webview -> host messages are validated with zod on arrival (the webview
// renders model output, so it is treated as untrusted). Host -> webview messages are typed only,
// except `images` (the one that makes the panel load files), which the view provider checks.
// The webview imports this file with `import type` so zod stays out of its bundle.
import * as z from 'zod';
import type { ErrorAction, ErrorView } from '../core/errorView';
import { MAX_IMAGES_PER_PART, WEBVIEW_RESOURCE_URL } from '../core/webviewResource';
import type { ApprovalChoiceView, ApprovalView, VscodeToolView } from '../agentTools/toolViews';
import type { AnswerEditsView, EditFileView } from '../workspaceEdits/toolEdits/reviewViews';
import type { QuoteView } from '../core/quote/quoteView';

export type { ErrorAction, ErrorView };
// the tools' cards and picker rows, and the edits' review state, as the tools and the edits declare them
export type { AnswerEditsView, ApprovalChoiceView, ApprovalView, EditFileView, VscodeToolView };
// what sending now will cost, as the host computed it (src/core/quote)
export type { QuoteView };

// ---------- shared view model (host-owned transcript, as the webview sees it) ----------

export type MessageStatus = 'streaming' | 'done' | 'stopped' | 'error' | 'interrupted';

export interface AttachmentView {
  id: string;
  kind: 'file' | 'selection' | 'image' | 'diagnostics';
  /** chip label, e.g. "src/a.ts" or "src/a.ts:10-20" or "diagram.png" */
  label: string;
  /** for images: a data: URL thumbnail (local data only, never remote) */
  thumbnail?: string;
}

export interface ToolCallView {
  id: string;
  name: string;
  /** JSON text of the arguments */
  arguments: string;
  status: 'running' | 'done' | 'error' | 'denied';
  /** result text (shown collapsed); truncated by the host for display */
  result?: string;
}

export type AssistantPart =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; call: ToolCallView }
  /** the model's reasoning of one round (the Thinking block); `ms`: how long it thought, once it ended */
  | { kind: 'thinking'; text: string; ms?: number }
  /**
   * images a tool of Modelgate wrote into the workspace (generate_image), by their workspace
   * paths as the tool result names them. The panel shows them from the files: the host posts an
   * `images` message with their webview URIs (never a path or URL from the model's text).
   */
  | ImagesPart;

/** The images one tool call saved (see AssistantPart). */
export interface ImagesPart {
  kind: 'images';
  /** unique in its answer (the tool call's id plus a suffix) */
  id: string;
  /** workspace-relative (`folder/…` in a multi-root workspace), as the tool wrote them */
  paths: string[];
}

/**
 * One image of an `images` message: loaded from `src` (webview.asWebviewUri of the file, under a
 * local resource root the host added for it), or missing (deleted or moved since, or no longer
 * inside the workspace): the panel says so in text. `openId` names the file to the host when the
 * user clicks it; the webview never sends a path.
 */
export type ShownImage =
  | { state: 'shown'; path: string; src: string; openId: string }
  | { state: 'missing'; path: string }
  /** as the chat posts it: the view provider resolves it before anything reaches the webview */
  | { state: 'pending'; path: string };

export interface UsageView {
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  /** part of completionTokens spent reasoning, when the gateway reported it */
  reasoningTokens?: number;
  /** USD; undefined when the catalogue has no price for this model and channel */
  cost?: number;
}

/** The first paint's data, in the page's data-initial-state attribute (src/chat/view/chatHtml.ts). */
export interface ChatInitialState {
  /** a snapshot to show before the first round trip (the host may still post a fresh one) */
  snapshot?: Extract<HostMessage, { type: 'snapshot' }>;
}

export type MessageView =
  | { id: string; role: 'user'; text: string; attachments: AttachmentView[]; createdAt: number }
  | {
      id: string;
      role: 'assistant';
      parts: AssistantPart[];
      status: MessageStatus;
      model: string;
      channel: string;
      usage?: UsageView;
      error?: ErrorView;
      createdAt: number;
    };

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  /** USD the conversation has spent (the list shows what each task cost) */
  totalCost?: number;
  /** share of its prompt tokens the gateway read from the cache (0–1) */
  cachedShare?: number;
}

export interface ComposerState {
  model: string;
  channel: string;
  /** the model accepts image input */
  imageInput: boolean;
  /** why tools are off, if they are (untrusted workspace, model without tools) */
  toolsDisabledReason?: string;
  attachments: AttachmentView[];
  /** estimated tokens of the next request vs the model's window */
  contextTokens: number;
  contextWindow: number;
  /** the model thinks before it answers: its reasoning effort (`default`: none is sent, the model decides); absent for a model that does not */
  reasoningEffort?: string;
  hasKey: boolean;
  /** the project's rules files found (AGENTS.md, .github/copilot-instructions.md) and whether this conversation uses each */
  rules?: Array<{ path: string; on: boolean }>;
  /** tools from VS Code (MCP servers, other extensions) the user may switch on for this conversation */
  vscodeTools?: VscodeToolView[];
}

export interface ConversationView {
  id: string;
  title: string;
  messages: MessageView[];
  totalCost?: number;
  /** text the user typed but did not send (restored on reload) */
  draft: string;
  /** the conversation is compacted: what is sent replaces the messages before `cutId` with a summary */
  compaction?: CompactionView;
}

/** The "compacted here" divider: where it stands, the summary it opens, and whether Undo is offered. */
export interface CompactionView {
  cutId: string;
  summary: string;
  model: string;
  cost?: number;
  undoable: boolean;
}

// ---------- host -> webview ----------

/**
 * What a notice is about, so it leaves once the condition is fixed: `setup` (no key or base
 * URL: a key is stored), `model` (the model cannot take the request: the model or channel
 * changes), `budget` (a budget refused the send: the host says when it no longer would), `busy`
 * (an answer is still being written: it ends). A message that is sent resolves the refusals of
 * its conversation.
 */
/** what a notice is about; 'cache': the route moved off the conversation's cache (it goes when switched back) */
export type NoticeTopic = 'setup' | 'model' | 'budget' | 'busy' | 'cache';

export type HostMessage =
  | { type: 'snapshot'; conversation: ConversationView; conversations: ConversationSummary[]; composer: ComposerState; busy: boolean }
  | { type: 'messageAdded'; message: MessageView }
  | { type: 'textDelta'; messageId: string; text: string }
  /** reasoning streamed into the message's Thinking block */
  | { type: 'thinkingDelta'; messageId: string; text: string }
  /** the message's thinking of this round ended after `ms` (the block collapses) */
  | { type: 'thinkingDone'; messageId: string; ms: number }
  | { type: 'toolCall'; messageId: string; call: ToolCallView }
  | {
      type: 'messageFinished';
      messageId: string;
      status: MessageStatus;
      /** the channel that served the answer (another than asked after a failover) */
      channel?: string;
      usage?: UsageView;
      error?: ErrorView;
      totalCost?: number;
      /** the answer may have cost something that is not known (see costUnknown) */
      costUnknown: boolean;
    }
  /** messages from this id on were removed (regenerate / edit and resend) */
  | { type: 'truncated'; fromMessageId: string }
  /** the conversation was compacted, or the compaction undone (absent) */
  | { type: 'compaction'; compaction?: CompactionView }
  | { type: 'composer'; composer: ComposerState }
  | { type: 'conversations'; conversations: ConversationSummary[]; activeId: string }
  | { type: 'busy'; busy: boolean }
  /** put text back into the input (a message that could not be sent, or one being edited) */
  | { type: 'setDraft'; text: string }
  /**
   * a notice that belongs to no message (e.g. "image input is not supported by flagship-text"):
   * shown while conversation `conversationId` is (absent: the panel's own, such as set-up notices);
   * `topic` says which condition it is about, so it goes away once that is fixed (NoticeTopic);
   * `transient` ones ("Code copied") fade after a few seconds
   */
  | {
      type: 'notice';
      level: 'info' | 'warning' | 'error';
      message: string;
      actions?: ErrorAction[];
      conversationId?: string;
      topic?: NoticeTopic;
      transient?: boolean;
    }
  /** the condition behind the notices of `topic` is fixed (of every conversation): they go away */
  | { type: 'noticeResolved'; topic: NoticeTopic }
  | { type: 'focusInput' }
  /** the review state of the conversation's edits (sent whole: a handful of files per answer) */
  | { type: 'edits'; conversationId: string; available: boolean; autoAccept: boolean; answers: AnswerEditsView[] }
  /** show a question inline in an answer; the panel answers with `approvalAnswer` */
  | { type: 'approvalRequest'; approval: ApprovalView }
  /** the question was answered (here, by Stop, or elsewhere): remove its card */
  | { type: 'approvalDone'; id: string }
  /**
   * the images of an answer's images part, ready to show (posted by the view provider after it
   * resolved the paths and checked the message with `imagesMessageSchema`); the part is added at
   * the end of the answer when the panel does not have it yet (an answer being written)
   */
  | { type: 'images'; messageId: string; partId: string; images: ShownImage[] }
  /** what sending the composer's text now would cost (absent figures: no price); recomputed as the draft, attachments or settings change */
  | { type: 'quote'; quote: QuoteView };

// ---------- webview -> host (validated) ----------

const id = z.string().min(1).max(200);
const text = z.string().max(2_000_000);
// Strict objects: a message with a field the protocol does not have is not valid (the panel
// never sends one), rather than accepted with the field dropped.

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready'), hasFocus: z.boolean().optional() }),
  z.strictObject({ type: z.literal('send'), text }),
  z.strictObject({ type: z.literal('stop') }),
  z.strictObject({ type: z.literal('regenerate') }),
  z.strictObject({ type: z.literal('editAndResend'), messageId: id, text }),
  z.strictObject({ type: z.literal('newChat') }),
  z.strictObject({ type: z.literal('switchConversation'), conversationId: id }),
  z.strictObject({ type: z.literal('deleteConversation'), conversationId: id }),
  /** the header's history control: opens the conversation list (a quick pick) */
  z.strictObject({ type: z.literal('openConversations') }),
  z.strictObject({ type: z.literal('attachSelection') }),
  z.strictObject({ type: z.literal('attachFile') }),
  z.strictObject({ type: z.literal('attachImage') }),
  z.strictObject({ type: z.literal('attachDiagnostics') }),
  z.strictObject({
    type: z.literal('pasteImage'),
    mime: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif']),
    /** base64 without the data: prefix; capped at ~20 MB of base64 */
    base64: z
      .string()
      .max(28_000_000)
      .regex(/^[A-Za-z0-9+/=]*$/),
    name: z.string().max(200).optional(),
  }),
  z.strictObject({ type: z.literal('removeAttachment'), attachmentId: id }),
  z.strictObject({ type: z.literal('copyCode'), code: text }),
  z.strictObject({ type: z.literal('insertCode'), code: text }),
  z.strictObject({ type: z.literal('applyCode'), code: text, language: z.string().max(50).optional() }),
  z.strictObject({ type: z.literal('openLink'), href: z.string().max(8192) }),
  z.strictObject({
    type: z.literal('action'),
    action: z.enum(['setKey', 'topUp', 'switchChannel', 'pickModel', 'retry', 'openSettings', 'showLog', 'newChat', 'compactRetry', 'undoCompaction']),
  }),
  z.strictObject({ type: z.literal('draft'), text }),
  /** Keep, Undo or open the diff of one file (`path`) of an answer's edits, or Keep/Undo all of them (no path) */
  z.strictObject({ type: z.literal('editReview'), messageId: id, action: z.enum(['keep', 'undo', 'diff']), path: z.string().min(1).max(2048).optional() }),
  z.strictObject({ type: z.literal('restoreAnswer'), messageId: id }),
  z.strictObject({ type: z.literal('setAutoAccept'), on: z.boolean() }),
  /** the user switched a rules file on or off for this conversation (its chip) */
  z.strictObject({ type: z.literal('toggleRules'), path: z.string().min(1).max(1024) }),
  /** the user switched a tool from VS Code on or off for this conversation (the tools picker) */
  z.strictObject({ type: z.literal('toggleVscodeTool'), name: z.string().min(1).max(256) }),
  /** the panel, its message box or the tools picker got the focus: the host posts VS Code's current list if it changed (an MCP server may have started) */
  z.strictObject({ type: z.literal('refreshVscodeTools') }),
  /** the user pressed one of an approval card's buttons */
  z.strictObject({ type: z.literal('approvalAnswer'), id, choiceId: id }),
  /** the user clicked an image the host showed (`openId` of an `images` message): open it in VS Code */
  z.strictObject({ type: z.literal('openImage'), openId: id }),
  /** the quote's "Set a Spending Limit…": the host asks for the conversation's limit */
  z.strictObject({ type: z.literal('setEnvelope') }),
  /** the page took or lost the keyboard focus (after `ready`): Open Chat focuses the view again only while it has not */
  z.strictObject({ type: z.literal('keyboardFocus'), hasFocus: z.boolean() }),
]);

export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

// ---------- host -> webview, checked before posting ----------

const imagePath = z.string().min(1).max(2048);
/**
 * The one host message that makes the panel load files: checked by the view provider before it is
 * posted, so only webview resource URLs of the files a tool wrote can reach an <img>.
 */
export const imagesMessageSchema = z.strictObject({
  type: z.literal('images'),
  messageId: id,
  partId: id,
  images: z
    .array(
      z.discriminatedUnion('state', [
        z.strictObject({ state: z.literal('shown'), path: imagePath, src: z.string().max(8192).regex(WEBVIEW_RESOURCE_URL), openId: id }),
        z.strictObject({ state: z.literal('missing'), path: imagePath }),
      ]),
    )
    .min(1)
    .max(MAX_IMAGES_PER_PART),
});

/** Parses a message from the webview; undefined (and nothing happens) when it is not valid. */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  const r = webviewMessageSchema.safeParse(raw);
  return r.success ? r.data : undefined;
}
