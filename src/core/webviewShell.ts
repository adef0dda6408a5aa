// The HTML shell of every Modelgate webview (the chat panel, the spending page): the nonce, the
// Content-Security-Policy and the <!DOCTYPE html> page around a body. Pure,
// so it is unit-tested in plain Node; it runs in both the Node and the web extension host.
// A nonce does nothing without a CSP meta tag: every page built here has one, with
// default-src 'none', scripts by nonce only, no 'unsafe-eval', no 'unsafe-inline', no remote hosts.
import { toBase64 } from '../platform/bytes';

/** A fresh CSP nonce, one per render: 128 random bits (Web Crypto: both builds), base64. */
export function makeNonce(): string {
  return toBase64(globalThis.crypto.getRandomValues(new Uint8Array(16)));
}

/** Escapes text or an attribute value (double- or single-quoted) for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A nonce with quotes or spaces could rewrite the policy: refuse rather than escape. */
export function checkNonce(nonce: string): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(nonce)) throw new Error('webview shell: the nonce must be at least 16 base64/hex characters');
  return nonce;
}

/**
 * VS Code's cspSource is a list of sources such as `'self' https://*.vscode-cdn.net`: accept exactly
 * that shape ('self' and host sources), never another keyword like 'unsafe-eval' nor a `;`.
 */
export function checkCspSource(cspSource: string): string {
  const sources = cspSource.trim().split(/ +/);
  if (!cspSource.trim() || sources.some((t) => t !== "'self'" && !/^[A-Za-z0-9.*:/_%+-]+$/.test(t))) {
    throw new Error('webview shell: unexpected characters in cspSource');
  }
  return cspSource;
}

export interface CspOptions {
  /** webview.cspSource */
  cspSource: string;
  /** fresh per render (makeNonce) */
  nonce: string;
  /** stylesheets: the extension's files (a <link>, by cspSource) or the one inline <style> (by nonce) */
  styles: 'cspSource' | 'nonce';
  /** images: none (default-src 'none'), the extension's files, or those and data: URLs */
  images?: 'none' | 'cspSource' | 'cspSource+data';
}

/** The policy: default-src 'none', then images, styles, scripts (by nonce only) and fonts (cspSource). */
export function contentSecurityPolicy({ cspSource, nonce, styles, images = 'none' }: CspOptions): string {
  checkNonce(nonce);
  checkCspSource(cspSource);
  const img = images === 'none' ? '' : ` img-src ${cspSource}${images === 'cspSource+data' ? ' data:' : ''};`;
  const style = styles === 'nonce' ? `'nonce-${nonce}'` : cspSource;
  return `default-src 'none';${img} style-src ${style}; script-src 'nonce-${nonce}'; font-src ${cspSource};`;
}

export interface ShellOptions {
  cspSource: string;
  nonce: string;
  /** the page's title (text; escaped here) */
  title: string;
  /** the <html lang>; "en" unless given */
  lang?: string;
  /** images the page may show; none unless given */
  images?: CspOptions['images'];
  /** exactly one of: a stylesheet's asWebviewUri (a <link>), or an inline style carrying the nonce */
  style: { href: string } | { inline: string };
  /** data- attributes on <body>: name (without "data-") -> value (escaped here) */
  bodyData?: Record<string, string | undefined>;
  /** the body's markup, already escaped by the caller */
  body?: string;
  /** exactly one of: the bundle's asWebviewUri, or an inline script; either carries the nonce */
  script: { src: string } | { inline: string };
}

/** The whole page. Throws on a nonce, cspSource or data- name that could break out of its place. */
export function renderWebviewShell(o: ShellOptions): string {
  const csp = contentSecurityPolicy({ cspSource: o.cspSource, nonce: o.nonce, styles: 'inline' in o.style ? 'nonce' : 'cspSource', images: o.images });
  const nonce = escapeHtml(o.nonce);
  const style =
    'inline' in o.style
      ? `<style nonce="${nonce}">\n${rawText(o.style.inline, 'style')}</style>`
      : `<link rel="stylesheet" href="${escapeHtml(o.style.href)}">`;
  const script =
    'inline' in o.script
      ? `<script nonce="${nonce}">\n${rawText(o.script.inline, 'script')}</script>`
      : `<script nonce="${nonce}" src="${escapeHtml(o.script.src)}"></script>`;
  const data = Object.entries(o.bodyData ?? {})
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([name, value]) => {
      if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`webview shell: bad data- attribute name ${JSON.stringify(name)}`);
      return ` data-${name}="${escapeHtml(value)}"`;
    })
    .join('');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(o.lang ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(o.title)}</title>
${style}
</head>
<body${data}>
${o.body ? `${o.body}\n` : ''}${script}
</body>
</html>
`;
}

/** The text of an inline <script>/<style> is not escaped by HTML: it must not close its element. */
function rawText(text: string, tag: 'script' | 'style'): string {
  if (new RegExp(`</${tag}`, 'i').test(text) || /<!--/.test(text)) throw new Error(`webview shell: the inline ${tag} may not contain </${tag} or <!--`);
  return text.endsWith('\n') ? text : `${text}\n`;
}
