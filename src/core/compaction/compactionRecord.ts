// A conversation's compaction as it is stored with the conversation (validated on load: files on
// disk can be damaged or edited), with the one it replaced, so Undo Compaction can restore it.
// Pure.
import * as z from 'zod';
import type { CompactionRecord } from './compactedHistory';

/** The compaction in effect, and what Undo Compaction restores (until the next send). */
export interface StoredCompaction extends CompactionRecord {
  /** the compaction this one replaced (undefined: none); kept only while `undoable` */
  previous?: CompactionRecord;
  /** Undo Compaction is offered (cleared by the next send) */
  undoable?: boolean;
}

const contentPart = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string(), detail: z.enum(['auto', 'low', 'high']).optional() }) }),
]);
/** A ChatMessage as stored on disk (the conversation's own messages add the reasoning fields to it). */
export const storedChatMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(contentPart), z.null()]),
  tool_calls: z.array(z.object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }) })).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});
const record = z.object({
  summary: z.string().max(200_000),
  cutId: z.string().max(200),
  keptRounds: z.array(storedChatMessageSchema).max(2_000),
  stubbedCalls: z.array(z.string().max(200)).max(20_000),
  instructions: z.string().max(2_000).optional(),
  model: z.string().max(200),
  channel: z.string().max(100),
  cost: z.number().finite().nonnegative().optional(),
  createdAt: z.number(),
});
export const storedCompactionSchema = record.extend({ previous: record.optional(), undoable: z.boolean().optional() });

/** The undo state: what Undo Compaction leaves in effect. */
export function undone(c: StoredCompaction): StoredCompaction | undefined {
  return c.previous ? { ...c.previous } : undefined;
}

/** After a send: the compaction stays, its undo goes. */
export function settled(c: StoredCompaction): StoredCompaction {
  const { previous: _previous, undoable: _undoable, ...rest } = c;
  return rest;
}
