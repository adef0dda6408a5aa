// A code block as the panel shows it: a toolbar (language, Copy, Insert, Apply) over <pre><code>.
// Buttons carry data-code-action and are handled by one delegated listener in the transcript,
// so blocks re-created while streaming need no listeners of their own. Highlighting runs once,
// when the block is closed (highlighting an open block per frame is what froze other panels).
import hljs from 'highlight.js/lib/common';
import { h } from './dom';
import { icon, type IconName } from './icons';
import { sanitizeHighlightHtml } from './sanitize';

export type CodeAction = 'copy' | 'insert' | 'apply';

/** Blocks larger than this stay plain: colouring 100k characters already stalls the panel for ~0.1 s once. */
const MAX_HIGHLIGHT_CHARS = 100_000;

const ACTIONS: { action: CodeAction; label: string; title: string; icon: IconName }[] = [
  { action: 'copy', label: 'Copy', title: 'Copy to the clipboard', icon: 'copy' },
  { action: 'insert', label: 'Insert', title: 'Insert at the cursor in the active editor', icon: 'insert' },
  { action: 'apply', label: 'Apply', title: 'Review as a diff against the active editor before applying', icon: 'diff' },
];

export function createCodeBlock(doc: Document, lang: string, code: string): HTMLElement {
  const codeEl = h(doc, 'code', lang ? { className: `language-${lang}` } : {});
  if (code) codeEl.textContent = code;
  const toolbar = h(doc, 'div', { className: 'code-toolbar' }, [
    h(doc, 'span', { className: 'code-lang', text: lang || 'text' }),
    ...ACTIONS.map((a) =>
      h(doc, 'button', { className: 'code-action', attrs: { type: 'button', 'data-code-action': a.action, 'aria-label': a.label, title: a.title } }, [
        icon(doc, a.icon),
        h(doc, 'span', { className: 'code-action-label', text: a.label }),
      ]),
    ),
  ]);
  return h(doc, 'div', { className: 'code-block', attrs: { 'data-lang': lang || undefined } }, [toolbar, h(doc, 'pre', {}, [codeEl])]);
}

export function codeElementOf(block: Element): HTMLElement | null {
  return block.querySelector('pre > code');
}

/** The code a button acts on: the block's text without the newline that ends its last line. */
export function codeTextOf(block: Element): string {
  const text = codeElementOf(block)?.textContent ?? '';
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

export function highlightCodeBlock(block: Element): void {
  const code = codeElementOf(block);
  if (!code || !code.ownerDocument) return;
  const lang = block.getAttribute('data-lang') ?? '';
  const text = code.textContent ?? '';
  if (!lang || !text || text.length > MAX_HIGHLIGHT_CHARS || !hljs.getLanguage(lang)) return;
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
