// A conversation as it is stored on disk: one JSON file per conversation, validated on load,
// since files on disk can be damaged or edited by hand (a file that does not parse is skipped,
// not trusted).
import * as z from 'zod';
import { MAX_IMAGES_PER_PART } from '../../core/webviewResource';
import { storedChatMessageSchema, storedCompactionSchema } from '../../core/compaction/compactionRecord';
import { isValidId, type Conversation } from './conversationTranscript';

const wireMessage = storedChatMessageSchema.extend({
  reasoning_content: z.string().optional(),
  reasoning: z.string().optional(),
});
const attachment = z.object({
  id: z.string(),
  kind: z.enum(['file', 'selection', 'image', 'diagnostics']),
  label: z.string(),
  thumbnail: z.string().startsWith('data:image/').optional(),
});
const volatile = z.object({ title: z.string(), language: z.string().optional(), text: z.string() });
const errorActions = z.enum(['setKey', 'topUp', 'switchChannel', 'pickModel', 'retry', 'openSettings', 'showLog', 'newChat', 'compactRetry', 'undoCompaction']);
const toolCallView = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: z.enum(['running', 'done', 'error', 'denied']),
  result: z.string().optional(),
});
const usageView = z.object({
  promptTokens: z.number(),
  cachedTokens: z.number(),
  completionTokens: z.number(),
  reasoningTokens: z.number().optional(),
  cost: z.number().optional(),
});
const userRecord = z.object({
  id: z.string(),
  role: z.literal('user'),
  text: z.string(),
  attachments: z.array(attachment),
  createdAt: z.number(),
  context: z.array(volatile),
  wire: wireMessage,
});
const count = z.number().finite().nonnegative();
const requestUsage = z.object({
  at: z.number(),
  channel: z.string().max(100),
  promptTokens: count,
  cachedTokens: count,
  completionTokens: count,
  reasoningTokens: count.optional(),
  calls: z.boolean().optional(),
  counted: count.optional(),
});
/** the previous request's fingerprint: per segment a hash and its tokens (no text) */
const previousRequest = z.object({
  model: z.string().max(200),
  channel: z.string().max(100),
  at: z.number(),
  fingerprint: z.object({ rule: z.string().max(100), tokens: count, hashes: z.array(z.number()).max(100_000), sizes: z.array(count).max(100_000) }),
  promptTokens: count.optional(),
});
const assistantRecord = z.object({
  id: z.string(),
  role: z.literal('assistant'),
  parts: z.array(
    z.union([
      z.object({ kind: z.literal('text'), text: z.string() }),
      z.object({ kind: z.literal('tool'), call: toolCallView }),
      z.object({ kind: z.literal('thinking'), text: z.string(), ms: z.number().optional() }),
      // workspace paths only: the view provider resolves them inside the workspace again before showing any
      z.object({ kind: z.literal('images'), id: z.string().min(1).max(200), paths: z.array(z.string().min(1).max(2048)).max(MAX_IMAGES_PER_PART) }),
    ]),
  ),
  status: z.enum(['streaming', 'done', 'stopped', 'error', 'interrupted']),
  model: z.string(),
  channel: z.string(),
  usage: usageView.optional(),
  error: z.object({ message: z.string(), actions: z.array(errorActions) }).optional(),
  createdAt: z.number(),
  wire: z.array(wireMessage),
  requests: z.array(requestUsage).max(200).optional(),
  tools: z.boolean().optional(),
});
const pendingAttachment = z.discriminatedUnion('kind', [
  z.object({ id: z.string(), kind: z.literal('selection'), label: z.string(), contexts: z.array(volatile) }),
  z.object({ id: z.string(), kind: z.literal('diagnostics'), label: z.string(), contexts: z.array(volatile) }),
  z.object({
    id: z.string(),
    kind: z.literal('image'),
    label: z.string(),
    mime: z.string(),
    dataUrl: z.string().startsWith('data:image/'),
    thumbnail: z.string().startsWith('data:image/').optional(),
  }),
]);
export const storedConversationSchema = z.object({
  version: z.literal(1),
  id: z.string().refine(isValidId),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  messages: z.array(z.discriminatedUnion('role', [userRecord, assistantRecord])),
  pinned: z.array(
    z.object({ id: z.string(), label: z.string(), path: z.string(), language: z.string().optional(), content: z.string(), after: z.string().optional() }),
  ),
  pending: z.array(pendingAttachment),
  draft: z.string(),
  totalCost: z.number().optional(),
  removed: z.array(z.string()).optional(),
  renamed: z.boolean().optional(),
  envelope: z.number().positive().finite().optional(),
  lastRequest: previousRequest.optional(),
  compaction: storedCompactionSchema.optional(),
});

export function serializeConversation(c: Conversation): string {
  return JSON.stringify({ version: 1, ...c });
}

/** Parses a stored conversation; undefined when the text is not one (damaged, other version). */
export function parseConversation(text: string): Conversation | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = storedConversationSchema.safeParse(raw);
  if (!r.success) return undefined;
  const { version: _version, ...c } = r.data;
  return c as Conversation;
}
