// How much of a restored conversation the transcript renders at once, and how the rest follows:
// the sizes and budgets of the windowed restore (transcriptView.ts renders; this module sizes).
import type { MessageView } from '../chat/protocol';

/**
 * Restoring a conversation renders the newest messages at once (what the user sees first, at
 * the bottom) and the older ones afterwards, a few per idle step, newest first; scrolling near
 * the top renders the next few at once. A 2,000-message conversation then paints after a
 * few dozen messages instead of all of them.
 */
const INITIAL_MAX_MESSAGES = 16;
const INITIAL_MAX_CHARS = 30_000;
/**
 * Within that budget the first window is sized to the view: the newest messages go in this many
 * at a time until the log is taller than the view by FILL_MARGIN_PX (one layout read per batch;
 * a view with no height yet, e.g. a hidden panel, takes the whole budget).
 */
const FILL_BATCH = 3;
const FILL_MARGIN_PX = 120;
/**
 * Text denser than this (px per character, px per line) does not occur in the panel: a window
 * holding more characters than the view could show at this density fills it for sure, and is
 * not measured (measuring lays out every chunk, also those the view would skip).
 */
const DENSEST_CHAR_PX = 6;
const DENSEST_LINE_PX = 16;
/**
 * A scroll near the top renders older messages at once for up to MAX_IDLE_SLICE_MS (at least one,
 * at most a page): bounded by time, not by count, so that a few long answers do not make the
 * scroll handler a long task and many short ones come in quickly.
 */
export const SCROLL_MAX_MESSAGES = 50;
/**
 * Older messages rendered per idle step. The idle queue runs steps until its slice (~8 ms) is
 * used up, so one message per step bounds every task by about one message's rendering; a step
 * reads no layout (the browser's scroll anchoring keeps the view where it was).
 */
export const IDLE_BATCH = 1;
/**
 * Older messages are built off the page and inserted this many at a time, in one
 * `.transcript-page` element (content-visibility: auto, so a page out of view costs the browser
 * nearly nothing). Inserting each message on its own made every idle step a frame whose style,
 * layout and intersection work grew with the whole log: quadratic over a 2,000-message restore.
 */
export const PAGE_MESSAGES = 50;

/** A message's size in characters, as the first window's budget counts it (a tool call or images: 200). */
function messageSize(m: MessageView): number {
  if (m.role === 'user') return m.text.length;
  let n = 0;
  for (const p of m.parts) n += p.kind === 'tool' || p.kind === 'images' ? 200 : p.text.length;
  return n;
}

/**
 * Index of the first message rendered at once: the newest ones up to a count and a size
 * budget (at least one), extended back to include the last assistant message, which is the
 * one that may show Regenerate.
 */
export function initialWindowStart(messages: MessageView[]): number {
  let start = messages.length;
  let chars = 0;
  while (start > 0 && messages.length - start < INITIAL_MAX_MESSAGES && (start === messages.length || chars < INITIAL_MAX_CHARS)) {
    start--;
    chars += messageSize(messages[start]);
  }
  let lastAssistant = -1;
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i].role === 'assistant') {
      lastAssistant = i;
      break;
    }
  if (lastAssistant >= 0 && lastAssistant < start) start = lastAssistant;
  return start;
}

/**
 * Renders the first window into the emptied log `el`, newest first: at most the messages from
 * `cap` on, and only as many as fill the view (but always back to the last answer, which owns
 * Regenerate). `create` builds a message's element and names its code blocks to colour later.
 * Returns the index of the oldest message rendered, the entries in order, and those code blocks
 * in document order.
 */
export function renderFirstWindow<E extends { element: HTMLElement }>(
  el: HTMLElement,
  messages: MessageView[],
  cap: number,
  create: (m: MessageView) => { entry: E; blocks: Element[] },
): { start: number; entries: E[]; blocks: Element[] } {
  const doc = el.ownerDocument;
  let lastAssistant = -1;
  for (let i = messages.length - 1; i >= cap; i--)
    if (messages[i].role === 'assistant') {
      lastAssistant = i;
      break;
    }
  // the log was just emptied: this layout read is of the page without it
  const view = messages.length - cap > FILL_BATCH ? el.clientHeight : 0;
  const capacity = view > 0 ? (el.clientWidth / DENSEST_CHAR_PX) * (view / DENSEST_LINE_PX) : 0;
  let chars = 0;
  const entries: E[] = [];
  const blocks: Element[] = [];
  // chunks not yet painted would measure as their placeholder size (see chat.css)
  if (view > 0) el.classList.add('filling');
  let start = messages.length;
  while (start > cap) {
    const from = Math.max(cap, start - FILL_BATCH);
    const frag = doc.createDocumentFragment();
    const created: E[] = [];
    const batchBlocks: Element[] = [];
    for (let i = from; i < start; i++) {
      chars += messageSize(messages[i]);
      const { entry, blocks: b } = create(messages[i]);
      created.push(entry);
      batchBlocks.push(...b);
      frag.appendChild(entry.element);
    }
    entries.unshift(...created);
    blocks.unshift(...batchBlocks);
    el.insertBefore(frag, el.firstChild);
    start = from;
    if (view > 0 && (lastAssistant < 0 || start <= lastAssistant) && (chars > capacity || el.scrollHeight > view + FILL_MARGIN_PX)) break;
  }
  el.classList.remove('filling');
  return { start, entries, blocks };
}
