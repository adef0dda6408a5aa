// Light validation of what the host posts: the host is trusted, but a malformed message must
// not throw half-way through an update, and unknown types (a newer host) are ignored.
import type { HostMessage, MessageView } from '../chat/protocol';
import { MAX_IMAGES_PER_PART, WEBVIEW_RESOURCE_URL } from '../core/webviewResource';

type Guard = (m: Record<string, unknown>) => boolean;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isArr = Array.isArray;

/** an images part names its files by path only (at most MAX_IMAGES_PER_PART); other parts as before */
function isPart(p: unknown): boolean {
  if (!isObj(p)) return false;
  if (p.kind !== 'images') return true;
  return isStr(p.id) && isArr(p.paths) && p.paths.length <= MAX_IMAGES_PER_PART && p.paths.every(isStr);
}

function isMessageView(v: unknown): v is MessageView {
  if (!isObj(v) || !isStr(v.id)) return false;
  if (v.role === 'user') return isStr(v.text) && isArr(v.attachments);
  if (v.role === 'assistant') return isArr(v.parts) && v.parts.every(isPart) && isStr(v.status);
  return false;
}

function isComposer(v: unknown): boolean {
  return isObj(v) && isStr(v.model) && isArr(v.attachments);
}

function isApproval(v: unknown): boolean {
  if (!isObj(v) || !isStr(v.id) || !isStr(v.messageId) || !isStr(v.title) || !isStr(v.safeChoiceId)) return false;
  if (!isArr(v.detail) || !v.detail.every(isStr)) return false;
  if (v.code !== undefined && !isStr(v.code)) return false;
  const choices = v.choices;
  return isArr(choices) && choices.every((c) => isObj(c) && isStr(c.id) && isStr(c.label)) && choices.some((c) => (c as { id: string }).id === v.safeChoiceId);
}

/** an image the host resolved: a webview resource URL (never data:, never another host), or missing */
function isShownImage(v: unknown): boolean {
  if (!isObj(v) || !isStr(v.path)) return false;
  if (v.state === 'missing') return true;
  return v.state === 'shown' && isStr(v.src) && WEBVIEW_RESOURCE_URL.test(v.src) && isStr(v.openId);
}

function isCompaction(v: unknown): boolean {
  return isObj(v) && isStr(v.cutId) && isStr(v.summary) && isStr(v.model) && isBool(v.undoable);
}

const GUARDS: Record<HostMessage['type'], Guard> = {
  snapshot: (m) =>
    isObj(m.conversation) &&
    isStr(m.conversation.id) &&
    isArr(m.conversation.messages) &&
    (m.conversation.compaction === undefined || isCompaction(m.conversation.compaction)) &&
    m.conversation.messages.every(isMessageView) &&
    isArr(m.conversations) &&
    isComposer(m.composer),
  messageAdded: (m) => isMessageView(m.message),
  textDelta: (m) => isStr(m.messageId) && isStr(m.text),
  thinkingDelta: (m) => isStr(m.messageId) && isStr(m.text),
  thinkingDone: (m) => isStr(m.messageId) && typeof m.ms === 'number' && Number.isFinite(m.ms),
  toolCall: (m) => isStr(m.messageId) && isObj(m.call) && isStr(m.call.id) && isStr(m.call.name),
  messageFinished: (m) => isStr(m.messageId) && isStr(m.status),
  truncated: (m) => isStr(m.fromMessageId),
  compaction: (m) => m.compaction === undefined || isCompaction(m.compaction),
  composer: (m) => isComposer(m.composer),
  conversations: (m) => isArr(m.conversations),
  busy: (m) => isBool(m.busy),
  setDraft: (m) => isStr(m.text),
  notice: (m) => isStr(m.message) && isStr(m.level) && (m.conversationId === undefined || isStr(m.conversationId)),
  noticeResolved: (m) => isStr(m.topic),
  focusInput: () => true,
  edits: (m) =>
    isStr(m.conversationId) &&
    isBool(m.available) &&
    isBool(m.autoAccept) &&
    isArr(m.answers) &&
    m.answers.every((a) => isObj(a) && isStr(a.messageId) && isArr(a.files)),
  approvalRequest: (m) => isApproval(m.approval),
  approvalDone: (m) => isStr(m.id),
  quote: (m) =>
    isObj(m.quote) &&
    typeof m.quote.seq === 'number' &&
    isStr(m.quote.conversationId) &&
    isStr(m.quote.model) &&
    isStr(m.quote.channel) &&
    isArr(m.quote.channels) &&
    isObj(m.quote.output) &&
    isObj(m.quote.requests),
  images: (m) =>
    isStr(m.messageId) && isStr(m.partId) && isArr(m.images) && m.images.length > 0 && m.images.length <= MAX_IMAGES_PER_PART && m.images.every(isShownImage),
};

export function asHostMessage(data: unknown): HostMessage | undefined {
  if (!isObj(data) || !isStr(data.type)) return undefined;
  const guard = (GUARDS as Record<string, Guard | undefined>)[data.type];
  return guard && guard(data) ? (data as unknown as HostMessage) : undefined;
}
