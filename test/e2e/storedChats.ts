// The chat store as it lies on disk in a workbench's profile, for the tests that kill or replace
// the extension host: a new host knows only what these files hold, so a test reads them to know
// what a crash keeps, and waits on them before a kill whose survivors it checks.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../harness/processes';
import type { Workbench } from './workbench';

export interface StoredMessage {
  role: string;
  text?: string;
  status?: string;
  parts?: { kind: string; text?: string }[];
}

export interface StoredConversation {
  id: string;
  title: string;
  messages: StoredMessage[];
}

export function chatStoreDir(userDataDir: string): string {
  return join(userDataDir, 'User', 'globalStorage', 'modelgate.modelgate', 'chat');
}

/** Every conversation file there is now, parsed; a file that is not whole JSON fails the test. */
export function storedConversations(userDataDir: string): StoredConversation[] {
  const dir = chatStoreDir(userDataDir);
  if (!existsSync(dir)) return [];
  const out: StoredConversation[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.startsWith('conversation-') || !name.endsWith('.json')) continue;
    let text: string;
    try {
      text = readFileSync(join(dir, name), 'utf8');
    } catch (err) {
      // VS Code's rename with overwrite deletes the target before it renames the new copy in: a
      // file listed a moment ago can be briefly gone. The next poll reads it again.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    try {
      out.push(JSON.parse(text) as StoredConversation);
    } catch {
      throw new Error(`${name} is not whole JSON (${text.length} chars)`);
    }
  }
  return out;
}

/** The conversation the index names active, as on disk now; undefined while there is none. */
export function activeStoredConversation(userDataDir: string): StoredConversation | undefined {
  let index: { activeId?: string };
  try {
    index = JSON.parse(readFileSync(join(chatStoreDir(userDataDir), 'index.json'), 'utf8')) as typeof index;
  } catch {
    return undefined; // not written yet, or between the delete and the rename of a replace
  }
  return storedConversations(userDataDir).find((c) => c.id === index.activeId);
}

/**
 * Waits until the active conversation on disk has `questions` questions and its last answer has
 * ended (not streaming). The store writes at most 100 ms after a change, but on a loaded machine
 * the disk lags the panel by more: a host killed as the panel shows the answer can take the last
 * exchange with it, which is the crash tests' subject, not what a new host reads back.
 */
export async function waitUntilStored(wb: Workbench, questions: number, timeoutMs = 30_000): Promise<StoredConversation> {
  return waitFor(
    `the active conversation in the store on disk with ${questions} question(s), its last answer ended`,
    () => {
      const c = activeStoredConversation(wb.profile.userDataDir);
      const last = c?.messages[c.messages.length - 1];
      const asked = c?.messages.filter((m) => m.role === 'user').length;
      return asked === questions && last?.role === 'assistant' && last.status !== 'streaming' ? c : undefined;
    },
    { timeoutMs, intervalMs: 100 },
  );
}
