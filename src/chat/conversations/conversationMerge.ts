// Merging two copies of one conversation, for two windows that share the chat history folder.
// Pure (no I/O), unit-tested in Node.
//
// `synced` is what this window last read from or wrote to disk; `local` is this window's copy now;
// `disk` is what is on disk now (maybe written by another window). Rules:
// - messages are merged by id: a message either side has is kept, unless it is in the other
//   side's `removed` list (an edit or regenerate truncated it there); messages only on disk are
//   inserted after their predecessor on disk, so a question stays next to its answer;
// - a message both sides hold: this window's version when it changed it since `synced`, else disk's;
// - the other fields (title, draft, attachments): this window's when it changed them since
//   `synced`, else disk's; the cost adds both windows' spending; the last request is the later one.
// A message can only disappear through an explicit removal, never because one window wrote a
// stale copy, so a lost update between two writes is repaired by the next sync of either window.
import type { Conversation, MessageRecord } from './conversationTranscript';

/** Message ids that were removed on purpose (kept with the conversation so other windows honour them). */
export const REMOVED_MAX = 500;

const json = (v: unknown) => JSON.stringify(v ?? null);

/** Ids `local` removed since `synced` (they were there when synced and are gone now). */
export function removedSince(synced: Conversation | undefined, local: Conversation): string[] {
  if (!synced) return [];
  const now = new Set(local.messages.map((m) => m.id));
  return synced.messages.filter((m) => !now.has(m.id)).map((m) => m.id);
}

/**
 * Applies `disk`'s changes to `local` in place. Returns whether anything in `local` changed
 * (so the panel must be refreshed).
 */
export function mergeInto(
  synced: Conversation | undefined,
  local: Conversation,
  disk: Conversation,
  /** what this window removed; default: gone from `local` since `synced` (pass the live copy's when `local` is an older snapshot) */
  localRemoved: string[] = removedSince(synced, local),
): boolean {
  const before = json(local);
  const removed = new Set([...(local.removed ?? []), ...localRemoved, ...(disk.removed ?? [])]);
  const syncedMsg = new Map((synced?.messages ?? []).map((m) => [m.id, json(m)]));
  const diskMsg = new Map(disk.messages.map((m) => [m.id, m]));
  const localIds = new Set(local.messages.map((m) => m.id));

  const out: MessageRecord[] = [];
  for (const m of local.messages) {
    if (removed.has(m.id)) continue;
    const d = diskMsg.get(m.id);
    // local unchanged since the last sync and disk has another version: take disk's (in place:
    // the caller may hold the record); never over an answer this window is streaming
    const streaming = m.role === 'assistant' && m.status === 'streaming';
    if (d && !streaming && syncedMsg.get(m.id) === json(m) && json(d) !== json(m)) replaceContents(m, d);
    out.push(m);
  }
  for (let i = 0; i < disk.messages.length; i++) {
    const d = disk.messages[i] as MessageRecord;
    if (localIds.has(d.id) || removed.has(d.id)) continue;
    // after the nearest predecessor (on disk) that the result holds; first when there is none
    let at = 0;
    for (let j = i - 1; j >= 0; j--) {
      const k = out.findIndex((m) => m.id === (disk.messages[j] as MessageRecord).id);
      if (k >= 0) {
        at = k + 1;
        break;
      }
    }
    out.splice(at, 0, d);
  }
  local.messages.splice(0, local.messages.length, ...out);

  const field = <K extends 'title' | 'renamed' | 'draft' | 'pinned' | 'pending' | 'envelope' | 'compaction'>(k: K) => {
    if (synced && json(local[k]) === json(synced[k])) local[k] = disk[k];
  };
  field('title');
  field('renamed');
  field('draft');
  field('pinned');
  field('pending');
  field('envelope');
  field('compaction');
  // the cache is predicted from whichever window sent last
  if (disk.lastRequest && (!local.lastRequest || disk.lastRequest.at > local.lastRequest.at)) local.lastRequest = disk.lastRequest;
  if (local.totalCost !== undefined || disk.totalCost !== undefined) {
    const total = (local.totalCost ?? 0) + (disk.totalCost ?? 0) - (synced?.totalCost ?? 0);
    local.totalCost = Math.max(total, local.totalCost ?? 0, disk.totalCost ?? 0);
  }
  local.updatedAt = Math.max(local.updatedAt, disk.updatedAt);
  local.createdAt = Math.min(local.createdAt, disk.createdAt);
  if (removed.size) local.removed = [...removed].slice(-REMOVED_MAX);
  return json(local) !== before;
}

export function cloneConversation(c: Conversation): Conversation {
  return JSON.parse(JSON.stringify(c)) as Conversation;
}

function replaceContents(target: MessageRecord, source: MessageRecord): void {
  const t = target as unknown as Record<string, unknown>;
  for (const k of Object.keys(t)) delete t[k];
  Object.assign(t, JSON.parse(JSON.stringify(source)) as Record<string, unknown>);
}
