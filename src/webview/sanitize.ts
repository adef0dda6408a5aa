// The one place where HTML strings become DOM. markdown-it output (and highlight.js output) is
// sanitized by DOMPurify into a DocumentFragment of an inert document BEFORE any of it reaches
// the live page: VS Code's own chat once checked images after the HTML was already inserted
// (microsoft/vscode#335125), which is too late.
import createDOMPurify from 'dompurify';
import type { Config, DOMPurify } from 'dompurify';

/** Tags markdown-it emits for CommonMark + tables + strikethrough, and nothing else. */
const MARKDOWN_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  's',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
];

const MARKDOWN_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: MARKDOWN_TAGS,
  // no style, no on*, no src (there is no img), no data-*/aria-* from model text
  ALLOWED_ATTR: ['href', 'title', 'class', 'start'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // Only web links survive as hrefs; everything else (javascript:, command:, vscode:, file:,
  // data:, relative paths) loses its href and is then rendered as plain text.
  ALLOWED_URI_REGEXP: /^https?:\/\//i,
  KEEP_CONTENT: true,
  RETURN_DOM_FRAGMENT: true,
};

/** highlight.js produces only spans with hljs-* classes around escaped text. */
const HIGHLIGHT_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: ['code', 'span'],
  ALLOWED_ATTR: ['class'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

const instances = new WeakMap<object, DOMPurify>();

function purifierFor(doc: Document): DOMPurify {
  const win = doc.defaultView;
  if (!win) throw new Error('sanitize: the document has no window');
  let p = instances.get(win);
  if (!p) {
    p = createDOMPurify(win as unknown as Parameters<typeof createDOMPurify>[0]);
    instances.set(win, p);
  }
  return p;
}

// DOMPurify returns a fragment owned by its inert parsing document; adopting it hands the
// already-clean nodes to `doc` (nothing runs or loads on adoption, only on insertion).
export function sanitizeMarkdownHtml(doc: Document, html: string): DocumentFragment {
  return doc.adoptNode(purifierFor(doc).sanitize(html, MARKDOWN_CONFIG));
}

/**
 * Sanitizes highlight.js output into a new <code> element. The output is wrapped in one element
 * so the thousands of token spans of a long block move as one node (moving them one by one out
 * of a fragment is quadratic in jsdom, where the tests and benchmark run).
 */
export function sanitizeHighlightHtml(doc: Document, html: string): HTMLElement | null {
  const frag = doc.adoptNode(purifierFor(doc).sanitize(`<code>${html}</code>`, HIGHLIGHT_CONFIG));
  const code = frag.firstChild;
  return code && code.nodeType === 1 && (code as Element).tagName === 'CODE' ? (code as HTMLElement) : null;
}

/** The only links the panel makes clickable; the host checks again before opening. */
export function isOpenableHref(href: string | null | undefined): href is string {
  return typeof href === 'string' && /^https?:\/\/[^\s]/i.test(href.trim());
}
