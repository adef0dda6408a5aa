// The pure decisions around a turn that the controller and the composer share: which model
// facts apply, whether tools are offered (and if not, why), what the next message carries, how
// full the context window is, and edits of the attachment lists.
import type { ChannelChoice, ChatModelInfo, ModelCatalogue } from '../../core/catalogue/modelCatalogue';
import { l10n } from '../../core/l10n';
import { layoutPrompt, userMessage, type ImageInput, type PinnedFile, type VolatileContext } from '../../core/prompt/promptLayout';
import { estimateRequestTokens } from '../../core/prompt/tokens';
import type { ChatMessage, ToolDefinition } from '../../core/client/types';
import type { AttachmentView, ComposerState } from '../protocol';
import { systemPrompt } from './systemPrompt';
import { systemPromptWithRules, type RulesFile } from '../../core/prompt/projectRules';
import {
  composerAttachments,
  sentHistory,
  wireHistory,
  type Conversation,
  type PendingAttachment,
  type PinnedRecord,
} from '../conversations/conversationTranscript';

export function chatModelInfo(catalogue: ModelCatalogue, id: string): ChatModelInfo {
  return catalogue.chatModelOrDefaults(id);
}

export interface ToolOffer {
  tools?: ToolDefinition[];
  /** why no tools are offered (shown in the composer) */
  reason?: string;
}

/** Tools go to models that support them, in a trusted workspace, while rounds are allowed. */
export function toolOffer(info: ChatModelInfo, trusted: boolean, maxToolRounds: number, definitions: () => ToolDefinition[]): ToolOffer {
  if (!trusted) return { reason: l10n.t('Workspace tools are off: this workspace is not trusted (Restricted Mode), so the model cannot read its files.') };
  if (!info.tools) return { reason: l10n.t('Workspace tools are off: {0} does not support tool calls.', info.id) };
  if (maxToolRounds === 0) return { reason: l10n.t('Workspace tools are off: “modelgate.chat.maxToolRounds” is 0.') };
  const tools = definitions();
  if (tools.length === 0) return { reason: l10n.t('Workspace tools are off: open a folder to let the model read it.') };
  return { tools };
}

export interface NextMessageContext {
  contexts: VolatileContext[];
  images: ImageInput[];
  /** chips shown on the sent message */
  attachments: AttachmentView[];
}

/** What the pending attachments add to the next user message. */
export function nextMessageContext(c: Conversation): NextMessageContext {
  const out: NextMessageContext = { contexts: [], images: [], attachments: [] };
  for (const a of c.pending) {
    if (a.kind !== 'image') out.contexts.push(...a.contexts);
    else out.images.push({ dataUrl: a.dataUrl });
    out.attachments.push(
      a.kind === 'image' && a.thumbnail ? { id: a.id, kind: a.kind, label: a.label, thumbnail: a.thumbnail } : { id: a.id, kind: a.kind, label: a.label },
    );
  }
  return out;
}

/** `rules`: the rules files in use (their text is part of the system message the meter counts). */
export function composerState(
  c: Conversation,
  info: ChatModelInfo,
  channel: ChannelChoice,
  offer: ToolOffer,
  hasKey: boolean,
  rules: readonly RulesFile[] = [],
): ComposerState {
  const { contexts, images } = nextMessageContext(c);
  const history = wireHistory(c);
  if (contexts.length || images.length) history.push(userMessage('', contexts, images));
  const contextTokens = estimateRequestTokens(requestMessages(c, offer.tools, rules, history), offer.tools);
  const state: ComposerState = {
    model: info.id,
    channel,
    imageInput: info.imageInput,
    attachments: composerAttachments(c),
    contextTokens,
    contextWindow: info.contextWindow,
    hasKey,
  };
  if (offer.reason) state.toolsDisabledReason = offer.reason;
  if (info.reasoning) state.reasoningEffort = info.params?.reasoningEffort ?? 'default';
  return state;
}

/**
 * Pins a file at the current point of the conversation (after its last message). Pinning the
 * same path again keeps its chip: unchanged content changes nothing; new content replaces the
 * old copy where it was when no message came after it, and otherwise moves to the current point
 * (replacing it in place would rewrite turns that earlier requests sent, and lose the cache).
 * Returns whether anything changed.
 */
export function pinFile(c: Conversation, file: PinnedRecord): boolean {
  const after = c.messages.at(-1)?.id;
  const pin: PinnedRecord = { id: file.id, label: file.label, path: file.path, content: file.content };
  if (file.language !== undefined) pin.language = file.language;
  if (after !== undefined) pin.after = after;
  const i = c.pinned.findIndex((p) => p.path === file.path);
  if (i < 0) {
    c.pinned.push(pin);
    return true;
  }
  const old = c.pinned[i]!;
  pin.id = old.id;
  if (old.content === pin.content && old.language === pin.language) return false;
  if (old.after === pin.after) c.pinned[i] = pin;
  else c.pinned = [...c.pinned.filter((_, j) => j !== i), pin];
  return true;
}

/**
 * The pinned files as the prompt layout takes them: each placed after the wire messages of the
 * message it was pinned after (files pinned before the first message go in the system message;
 * one whose message is gone goes after the last one).
 */
export function pinnedFor(c: Conversation): PinnedFile[] {
  const wireEnd = new Map<string, number>();
  let n = 0;
  for (const m of c.messages) {
    n += m.role === 'user' ? 1 : m.wire.length;
    wireEnd.set(m.id, n);
  }
  // after a compaction: a file pinned in the summarised part follows the summary
  const { pinAt } = sentHistory(c);
  return c.pinned.map((p) => {
    const f: PinnedFile = { path: p.path, content: p.content };
    if (p.language !== undefined) f.language = p.language;
    if (p.after !== undefined) f.at = pinAt(wireEnd.get(p.after) ?? n);
    return f;
  });
}

/**
 * Adds context for the next message; the same selection again replaces the earlier one, and so
 * do the problems of the same file (their label carries a count that may have changed).
 */
export function addPending(c: Conversation, a: PendingAttachment): void {
  const key = (p: PendingAttachment) => (p.kind === 'diagnostics' ? `problems\n${p.contexts[0]?.title ?? ''}` : p.label);
  c.pending = [...c.pending.filter((p) => p.kind === 'image' || key(p) !== key(a)), a];
}

/** Removes a chip; whether there was one. */
export function removeAttachment(c: Conversation, id: string): boolean {
  const before = c.pinned.length + c.pending.length;
  c.pinned = c.pinned.filter((p) => p.id !== id);
  c.pending = c.pending.filter((p) => p.id !== id);
  return c.pinned.length + c.pending.length !== before;
}

/**
 * The messages a request of `c` sends: the system prompt for the offered `tools` with the rules
 * files in use, the pinned files, then `history` (the conversation's, unless given).
 */
export function requestMessages(
  c: Conversation,
  tools: readonly ToolDefinition[] | undefined,
  rules: readonly RulesFile[],
  history: ChatMessage[] = wireHistory(c),
): ChatMessage[] {
  return layoutPrompt({ systemPrompt: systemPromptWithRules(systemPrompt(tools), rules), pinned: pinnedFor(c), history });
}
