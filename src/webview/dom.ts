// Tiny DOM builder for the panel's chrome. Everything the panel shows that is not model
// markdown is built here with createElement/textContent, so no string of ours or the host's
// is ever parsed as HTML. The document is passed in (never the global) so the same code runs
// in the webview and in jsdom tests.

export type Child = Node | string | false | null | undefined;

export interface ElementProps {
  className?: string;
  text?: string;
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (ev: HTMLElementEventMap[K]) => void };
}

export function h<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, props: ElementProps = {}, children: Child[] = []): HTMLElementTagNameMap[K] {
  const el = doc.createElement(tag);
  if (props.className) el.className = props.className;
  if (props.text !== undefined) el.textContent = props.text;
  if (props.attrs) setAttrs(el, props.attrs);
  if (props.on) {
    for (const [type, fn] of Object.entries(props.on)) el.addEventListener(type, fn as EventListener);
  }
  append(el, children);
  return el;
}

/** Sets or removes attributes: `false`/`undefined` removes, `true` sets an empty attribute. */
export function setAttrs(el: Element, attrs: Record<string, string | number | boolean | undefined>): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) el.removeAttribute(name);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
}

export function append(el: Node, children: Child[]): void {
  const doc = el.ownerDocument ?? (el as Document);
  for (const c of children) {
    if (c === false || c === null || c === undefined) continue;
    el.appendChild(typeof c === 'string' ? doc.createTextNode(c) : c);
  }
}

export function clear(el: Node): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** True when `node` is an Element (works across realms, unlike instanceof). */
export function isElement(node: unknown): node is Element {
  return typeof node === 'object' && node !== null && (node as Node).nodeType === 1;
}
