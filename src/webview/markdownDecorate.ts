// The panel's finishing of sanitized markdown DOM: whitespace between blocks dropped, links the
// panel cannot open turned into plain text, <pre><code> wrapped in code blocks with buttons.
import { createCodeBlock, createPlainBlock, highlightCodeBlock } from './codeBlock';
import { h, isElement } from './dom';
import { isOpenableHref } from './sanitize';

/**
 * Turns sanitized markdown DOM into the panel's: drops whitespace between blocks, replaces
 * links that are not http(s) by plain text, wraps <pre><code> in code blocks with buttons.
 */
export function decorate(doc: Document, root: DocumentFragment | Element, highlight: boolean): void {
  for (const n of Array.from(root.childNodes)) {
    if (n.nodeType === 3 && !(n.textContent ?? '').trim()) root.removeChild(n);
  }
  for (const a of Array.from(root.querySelectorAll('a'))) {
    const href = a.getAttribute('href');
    if (isOpenableHref(href)) {
      if (!a.hasAttribute('title')) a.setAttribute('title', href);
      continue;
    }
    const span = h(doc, 'span', { className: a.classList.contains('md-image-link') ? 'md-link-disabled md-image-link' : 'md-link-disabled' });
    while (a.firstChild) span.appendChild(a.firstChild);
    a.replaceWith(span);
  }
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const code = pre.firstElementChild;
    if (!isElement(code) || code.tagName !== 'CODE') continue;
    const m = /(?:^|\s)language-(\S+)/.exec(code.getAttribute('class') ?? '');
    // text below the block depth cap: a plain block (no colouring), marked for tests and CSS
    const deep = pre.classList.contains('md-deep');
    const block = deep ? createPlainBlock(doc, code.textContent ?? '') : createCodeBlock(doc, m ? m[1] : '', code.textContent ?? '');
    if (deep) block.classList.add('md-deep');
    pre.replaceWith(block);
    if (highlight) highlightCodeBlock(block);
  }
}
