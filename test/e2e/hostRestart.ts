// A new extension host for the same window, for the tests that check what a host reads back from
// disk (a conversation, its thinking blocks): a window reload also loads the whole workbench
// again, where a new host is all these tests need (the crash file keeps a reload mid-stream, the
// path where the workbench restores the view itself). The web workbench has no Developer: Restart
// Extension Host, so the host is killed, as the shared workbench's reset does between files, and
// VS Code starts another (or offers to, past its limit of restarts).
// The panel then belongs to the new host: its old frame is no proof, so the frame returned is
// another one, which showed only what the new host sent it.
import type { Frame } from 'playwright-core';
import { extensionHostPids } from '../harness/processes';
import { hostAfterKill, processGone, startTicks } from './crashImage';
import { waitUntilStored } from './storedChats';
import type { Workbench } from './workbench';

/**
 * Replaces the window's extension host once the active conversation on disk has `questions`
 * questions and its last answer has ended (what the test then expects back), and waits until
 * Modelgate is active in the new one.
 */
export async function restartExtensionHost(wb: Workbench, questions: number): Promise<string> {
  await waitUntilStored(wb, questions);
  // After a reload the old window's host may linger, idle: the window's own is the newest.
  const hosts = extensionHostPids(wb.serverPid).filter((p) => !processGone(p));
  const host = hosts.reduce((a, b) => (startTicks(b) > startTicks(a) ? b : a));
  process.kill(host, 'SIGKILL');
  return hostAfterKill(wb, host, hosts);
}

/** The panel's frame after a restart: opened by the command, never the frame `old`. */
export async function newChatFrame(wb: Workbench, old: Frame, timeoutMs = 120_000): Promise<Frame> {
  await wb.runCommand('Modelgate: Open Chat', { timeoutMs });
  const chat = await wb.webviewFrame(async (f) => f !== old && (await f.locator('[role="log"]').count()) > 0, { timeoutMs });
  await chat.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible', timeout: timeoutMs });
  return chat;
}
