// The pure decisions around a turn that the controller and the composer share: which model
// facts apply, whether tools are offered (and if not, why), what the next message carries, how
// full the context window is, and edits of the attachment lists. No `vscode` here.
import type { ChannelChoice, ChatModelInfo, ModelCatalogue } from '../core/catalogue';
import { l10n } from '../core/l10n';
import { layoutPrompt, userMessage, type ImageInput, type VolatileContext } from '../core/promptLayout';
import { estimateRequestTokens } from '../core/tokens';
import type { ToolDefinition } from '../core/types';
import type { AttachmentView, ComposerState } from '../protocol';
import { SYSTEM_PROMPT } from './systemPrompt';
import { composerAttachments, wireHistory, type Conversation, type PendingAttachment, type PinnedRecord } from './transcript';

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
    if (a.kind === 'selection') out.contexts.push(...a.contexts);
    else out.images.push({ dataUrl: a.dataUrl });
    out.attachments.push(a.kind === 'image' && a.thumbnail ? { id: a.id, kind: a.kind, label: a.label, thumbnail: a.thumbnail } : { id: a.id, kind: a.kind, label: a.label });
  }
  return out;
}

export function composerState(c: Conversation, info: ChatModelInfo, channel: ChannelChoice, offer: ToolOffer, hasKey: boolean): ComposerState {
  const { contexts, images } = nextMessageContext(c);
  const history = wireHistory(c);
  if (contexts.length || images.length) history.push(userMessage('', contexts, images));
  const contextTokens = estimateRequestTokens(layoutPrompt({ systemPrompt: SYSTEM_PROMPT, pinned: c.pinned, history }), offer.tools);
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
  return state;
}

/** Pins a file; pinning the same path again replaces its content where it was (same chip). */
export function pinFile(c: Conversation, file: PinnedRecord): void {
  const i = c.pinned.findIndex((p) => p.path === file.path);
  if (i >= 0) c.pinned[i] = { ...file, id: c.pinned[i]!.id };
  else c.pinned.push(file);
}

/** Adds context for the next message; the same selection again replaces the earlier one. */
export function addPending(c: Conversation, a: PendingAttachment): void {
  c.pending = [...c.pending.filter((p) => p.kind === 'image' || p.label !== a.label), a];
}

/** Removes a chip; whether there was one. */
export function removeAttachment(c: Conversation, id: string): boolean {
  const before = c.pinned.length + c.pending.length;
  c.pinned = c.pinned.filter((p) => p.id !== id);
  c.pending = c.pending.filter((p) => p.id !== id);
  return c.pinned.length + c.pending.length !== before;
}
