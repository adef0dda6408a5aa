// Shared helpers of the webview tests: a jsdom window, accessible-name lookups (the names the
// e2e tests and screen readers use), a seeded random source and a reference renderer.
import { JSDOM } from 'jsdom';
import { randomSplit } from '../helpers';
import { md } from '../../../src/webview/markdown';
import { sanitizeMarkdownHtml } from '../../../src/webview/sanitize';
import { decorate } from '../../../src/webview/markdownDecorate';
import { idleQueueOf } from '../../../src/webview/codeBlock';
import type { HostMessage, MessageView, WebviewMessage } from '../../../src/chat/protocol';
import { startChatApp } from '../../../src/webview/app';
import type { FrameHost } from '../../../src/webview/frameScheduler';

export type TestWindow = Window & typeof globalThis;

export function newWindow(html = '<!DOCTYPE html><html><body></body></html>'): TestWindow {
  return new JSDOM(html, { pretendToBeVisual: false }).window as unknown as TestWindow;
}

/** Frames and timers on Node's own timers (a frame is a 0 ms timeout). */
export const realTimerFrames = {
  requestAnimationFrame: (cb: () => void) => setTimeout(cb, 0) as unknown as number,
  cancelAnimationFrame: (id: number) => clearTimeout(id as never),
  setTimeout: (cb: () => void, ms?: number) => setTimeout(cb, ms) as unknown as number,
  clearTimeout: (id: never) => clearTimeout(id),
} as unknown as FrameHost;

/**
 * The real chat app in a fresh jsdom window, without state: what it posts is collected in
 * `posted`, and `host(message)` delivers a message from the extension host.
 */
export function startTestChatApp(frameHost: FrameHost = realTimerFrames): {
  win: TestWindow;
  posted: WebviewMessage[];
  host: (data: unknown) => void;
} {
  const win = newWindow();
  const posted: WebviewMessage[] = [];
  startChatApp(
    win,
    { postMessage: (m: unknown) => void posted.push(m as WebviewMessage), getState: () => undefined, setState: () => undefined },
    { frameHost },
  );
  const host = (data: unknown) => void win.dispatchEvent(new win.MessageEvent('message', { data }));
  return { win, posted, host };
}

/** A snapshot of one conversation 'c1' ("Chat") holding `messages`, as the host posts it when the panel opens. */
export function chatSnapshot(messages: MessageView[] = [], options: { busy?: boolean } = {}): Extract<HostMessage, { type: 'snapshot' }> {
  return {
    type: 'snapshot',
    conversation: { id: 'c1', title: 'Chat', messages, draft: '' },
    conversations: [{ id: 'c1', title: 'Chat', updatedAt: 1 }],
    composer: { model: 'm', channel: 'stable', imageInput: false, attachments: [], contextTokens: 0, contextWindow: 1000, hasKey: true },
    busy: options.busy ?? false,
  };
}

/** aria-label wins, else the text (what Playwright's getByRole name matching sees here). */
export function accessibleName(el: Element): string {
  return (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
}

export function byRole(root: ParentNode, selector: string, name: string): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(selector)).filter((el) => accessibleName(el) === name);
}

export function isShown(el: Element): boolean {
  for (let e: Element | null = el; e; e = e.parentElement) if (e.hasAttribute('hidden')) return false;
  return true;
}

/** Deterministic chunkings, so a failure can be replayed: the simulator's seeded generator. */
export { seededRng as seeded } from '../../gateway/rng';

/** Splits text into random pieces of 1..maxLen characters. */
export function randomChunks(text: string, rnd: () => number, maxLen: number): string[] {
  return randomSplit(text, rnd, maxLen);
}

/** Independent reference: one markdown-it render of the whole text, sanitized and decorated. */
export function referenceHtml(doc: Document, text: string): string {
  const div = doc.createElement('div');
  const frag = sanitizeMarkdownHtml(doc, md.render(text));
  decorate(doc, frag, true);
  // the renderer groups blocks in chunks of 32 (a layout optimisation that must not depend on chunking)
  const nodes = Array.from(frag.childNodes);
  for (let i = 0; i < nodes.length; i += 32) {
    const chunk = doc.createElement('div');
    chunk.className = 'md-chunk';
    for (const n of nodes.slice(i, i + 32)) chunk.appendChild(n);
    div.appendChild(chunk);
  }
  // big code blocks are coloured in idle slices: finish them, as the renderer's are finished
  idleQueueOf(doc)?.drain();
  return div.innerHTML;
}
