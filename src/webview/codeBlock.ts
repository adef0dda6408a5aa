// A code block as the panel shows it: a toolbar (language, Copy, Insert, Apply) over <pre><code>.
// Buttons carry data-code-action and are handled by one delegated listener in the transcript,
// so blocks re-created while streaming need no listeners of their own. Highlighting runs once,
// when the block is closed (highlighting an open block per frame is what froze other panels).
import hljs from 'highlight.js/lib/common';
import { h } from './dom';
import { l10n } from './panelL10n';
import { IdleQueue, type IdleHost } from './frameScheduler';
import { icon, type IconName } from './icons';
import { sanitizeHighlightHtml } from './sanitize';

export type CodeAction = 'copy' | 'insert' | 'apply';

/** Blocks larger than this stay plain (colouring is a convenience; 200k characters is ~6,000 lines). */
const MAX_HIGHLIGHT_CHARS = 200_000;
/**
 * Blocks longer than this are highlighted in slices of about this size, one slice per idle
 * step: one highlight.js call over 100k characters was a single 1.6 s task. (2,000: a step of
 * 4,000 characters was 11 ms of highlight.js and DOMPurify on an idle machine, more than the
 * idle queue's 8 ms slice.) Slices are cut at
 * blank lines where possible (a construct spanning a cut, e.g. a long comment, is coloured as
 * if it started there: a cosmetic cost only).
 */
export const HIGHLIGHT_SLICE_CHARS = 2_000;

const queues = new WeakMap<object, IdleQueue>();

/** The idle queue of a document's window (one per panel). */
export function idleQueueOf(doc: Document): IdleQueue | null {
  const win = doc.defaultView;
  if (!win) return null;
  let q = queues.get(win);
  if (!q) {
    q = new IdleQueue(win as unknown as IdleHost);
    queues.set(win, q);
  }
  return q;
}

const ACTIONS: { action: CodeAction; label: string; title: string; icon: IconName }[] = [
  { action: 'copy', label: l10n.t('Copy'), title: l10n.t('Copy to the clipboard'), icon: 'copy' },
  { action: 'insert', label: l10n.t('Insert'), title: l10n.t('Insert at the cursor in the active editor'), icon: 'insert' },
  { action: 'apply', label: l10n.t('Apply'), title: l10n.t('Review as a diff in the file it belongs to; nothing is written before you accept'), icon: 'diff' },
];

export function createCodeBlock(doc: Document, lang: string, code: string): HTMLElement {
  const codeEl = h(doc, 'code', lang ? { className: `language-${lang}` } : {});
  if (code) codeEl.textContent = code;
  const toolbar = h(doc, 'div', { className: 'code-toolbar' }, [
    h(doc, 'span', { className: 'code-lang', text: lang || l10n.t('text') }),
    ...ACTIONS.map((a) =>
      h(doc, 'button', { className: 'code-action', attrs: { type: 'button', 'data-code-action': a.action, 'aria-label': a.label, title: a.title } }, [
        icon(doc, a.icon),
        h(doc, 'span', { className: 'code-action-label', text: a.label }),
      ]),
    ),
  ]);
  return h(doc, 'div', { className: 'code-block', attrs: { 'data-lang': lang || undefined } }, [toolbar, h(doc, 'pre', {}, [codeEl])]);
}

/**
 * Plain blocks (text shown as typed: oversized or too deeply nested markup) hold their text in
 * segments of at most this many characters, each its own block box (`.code-segment`) that the
 * browser lays out only when on screen (chat.css): one 170 KB line was one layout of 170 KB on
 * every re-render, 100 to 450 ms in Chromium. A segment ends at a line end when one is in its
 * second half; a longer line is cut (shown wrapped there). The text itself is exactly the source.
 */
export const PLAIN_SEGMENT_CHARS = 2_000;

/** Where the text of a plain block is cut into segments: offsets, 0 and text.length included. */
export function plainSegmentOffsets(text: string, size = PLAIN_SEGMENT_CHARS): number[] {
  const cuts = [0];
  let pos = 0;
  while (text.length - pos > size) {
    let cut = text.lastIndexOf('\n', pos + size - 1) + 1;
    if (cut <= pos + size / 2) {
      cut = pos + size;
      // never between the two halves of a surrogate pair
      const c = text.charCodeAt(cut - 1);
      if (c >= 0xd800 && c <= 0xdbff) cut--;
    }
    cuts.push(cut);
    pos = cut;
  }
  cuts.push(text.length);
  return cuts;
}

/** A code block without a language holding `text` exactly, in segments (see PLAIN_SEGMENT_CHARS). */
export function createPlainBlock(doc: Document, text: string): HTMLElement {
  const block = createCodeBlock(doc, '', '');
  block.classList.add('md-plain');
  const code = codeElementOf(block)!;
  const cuts = plainSegmentOffsets(text);
  for (let i = 0; i + 1 < cuts.length; i++) {
    if (cuts[i + 1] > cuts[i]) code.appendChild(h(doc, 'span', { className: 'code-segment', text: text.slice(cuts[i], cuts[i + 1]) }));
  }
  return block;
}

/**
 * Whether markdown `text` ends inside a fenced code block that was never closed: the block an
 * answer was cut off in (stopped, failed or interrupted) is not the model's whole proposal, so it
 * is not offered for Apply. Block quotes and list indentation are looked through.
 */
export function endsInOpenFence(text: string): boolean {
  let open: { char: string; len: number } | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^(?:\s{0,3}>)+/, '').replace(/^\s*(?:[-+*]|\d{1,9}[.)])?\s*/, (m) => m.replace(/[-+*.)\d]/g, ' '));
    const m = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    if (!m) continue;
    const fence = m[1]!;
    if (!open) {
      if (fence[0] === '`' && m[2]!.includes('`')) continue; // not a fence: a backtick in the info string
      open = { char: fence[0]!, len: fence.length };
    } else if (fence[0] === open.char && fence.length >= open.len && m[2]!.trim() === '') open = undefined;
  }
  return open !== undefined;
}

export function codeElementOf(block: Element): HTMLElement | null {
  return block.querySelector('pre > code');
}

/** The code a button acts on: the block's text without the newline that ends its last line. */
export function codeTextOf(block: Element): string {
  const text = codeElementOf(block)?.textContent ?? '';
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/**
 * Colours a closed block. Big blocks are coloured in slices on idle time; with `defer` (a block
 * closed while an answer streams) a small one is coloured in one idle step too, so colouring
 * never lands in a streaming frame.
 */
export function highlightCodeBlock(block: Element, queue?: IdleQueue | null, defer = false): void {
  const code = codeElementOf(block);
  if (!code || !code.ownerDocument) return;
  const lang = block.getAttribute('data-lang') ?? '';
  const text = code.textContent ?? '';
  if (!lang || !text || text.length > MAX_HIGHLIGHT_CHARS || !hljs.getLanguage(lang)) return;
  if (text.length > HIGHLIGHT_SLICE_CHARS || defer) {
    const q = queue === undefined ? idleQueueOf(code.ownerDocument) : queue;
    if (q) {
      if (text.length > HIGHLIGHT_SLICE_CHARS) highlightInSlices(code, lang, text, q);
      else {
        q.add(() => {
          // the block may have been re-rendered or emptied meanwhile: colour only what it still shows
          if (codeElementOf(block) === code && code.textContent === text) highlightNow(code, lang, text);
          return false;
        });
      }
      return;
    }
  }
  highlightNow(code, lang, text);
}

function highlightNow(code: HTMLElement, lang: string, text: string): void {
  let html: string;
  try {
    html = hljs.highlight(text, { language: lang, ignoreIllegals: true }).value;
  } catch {
    return;
  }
  const highlighted = sanitizeHighlightHtml(code.ownerDocument, html);
  if (!highlighted) return;
  highlighted.className = code.className;
  highlighted.classList.add('hljs');
  code.replaceWith(highlighted);
}

/** Cut points of `text` into slices of about HIGHLIGHT_SLICE_CHARS, at line ends (blank lines preferred). */
export function sliceOffsets(text: string): number[] {
  const cuts = [0];
  let pos = 0;
  while (text.length - pos > HIGHLIGHT_SLICE_CHARS) {
    const limit = pos + HIGHLIGHT_SLICE_CHARS;
    let cut = text.lastIndexOf('\n\n', limit);
    if (cut <= pos + HIGHLIGHT_SLICE_CHARS / 2) cut = text.lastIndexOf('\n', limit);
    if (cut <= pos) cut = text.indexOf('\n', limit);
    if (cut < 0) break;
    pos = cut + 1;
    cuts.push(pos);
  }
  cuts.push(text.length);
  return cuts;
}

/**
 * Puts each slice's plain text in its own span (the block looks the same), then colours one
 * slice per idle step and puts it in at once. Each slice is its own block box, laid out only
 * when on screen (.code-slice in chat.css), so a step re-lays out one slice at most. (Before the
 * slices were block boxes, changing one re-laid out all lines of the block, so every coloured
 * slice waited for the last step, which then moved all of them in one 110 to 270 ms task.) The
 * text never changes, so Copy/Insert/Apply read the same code at any moment. (A block removed
 * meanwhile is still finished: bounded, idle-time work.)
 */
function highlightInSlices(code: HTMLElement, lang: string, text: string, queue: IdleQueue): void {
  const doc = code.ownerDocument;
  const cuts = sliceOffsets(text);
  const spans: HTMLElement[] = [];
  code.textContent = '';
  for (let i = 0; i + 1 < cuts.length; i++) {
    const span = h(doc, 'span', { className: 'code-slice', text: text.slice(cuts[i], cuts[i + 1]) });
    spans.push(span);
    code.appendChild(span);
  }
  code.classList.add('hljs');
  let next = 0;
  queue.add(() => {
    const i = next++;
    if (i >= spans.length) return false;
    let c: HTMLElement | null = null;
    try {
      const html = hljs.highlight(text.slice(cuts[i], cuts[i + 1]), { language: lang, ignoreIllegals: true }).value;
      c = sanitizeHighlightHtml(doc, html);
    } catch {
      // leave this slice plain
    }
    if (c) {
      spans[i].textContent = '';
      spans[i].append(...Array.from(c.childNodes));
    }
    return next < spans.length;
  });
}
