// The chat panel's HTML. Pure, so it is unit-tested in Node; the host passes
// the webview's cspSource, a fresh nonce per render and the asWebviewUri() of the bundle/CSS.
// A nonce does nothing without a CSP meta tag (field notes): this page has one, with no
// 'unsafe-eval', no inline script or style, no remote hosts, and images only from the
// extension or data: URLs (attachment thumbnails). Initial data goes in a data- attribute.
import type { ChatInitialState } from '../protocol';

export interface ChatHtmlOptions {
  /** webview.cspSource */
  cspSource: string;
  /** fresh per render: base64 or hex characters only */
  nonce: string;
  /** webview.asWebviewUri(dist/webview.js) as a string */
  scriptUri: string;
  /** webview.asWebviewUri(media/chat.css) as a string */
  styleUri: string;
  initialState?: ChatInitialState;
  /** the host's translation for the webview's l10n.t (vscode.l10n.bundle; undefined in English) */
  l10nBundle?: Record<string, unknown>;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function chatContentSecurityPolicy(cspSource: string, nonce: string): string {
  return `default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource}; script-src 'nonce-${nonce}'; font-src ${cspSource};`;
}

export function buildChatHtml({ cspSource, nonce, scriptUri, styleUri, initialState, l10nBundle }: ChatHtmlOptions): string {
  // A nonce with quotes or spaces could rewrite the policy; refuse rather than escape.
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(nonce)) throw new Error('buildChatHtml: the nonce must be at least 16 base64/hex characters');
  // VS Code's cspSource is a list of sources such as `'self' https://*.vscode-cdn.net`: accept
  // exactly that shape ('self' and host sources), never another keyword like 'unsafe-eval'.
  const sources = cspSource.trim().split(/ +/);
  if (!cspSource.trim() || sources.some((t) => t !== "'self'" && !/^[A-Za-z0-9.*:/_%+-]+$/.test(t))) {
    throw new Error('buildChatHtml: unexpected characters in cspSource');
  }
  const csp = chatContentSecurityPolicy(cspSource, nonce);
  const data =
    (initialState ? ` data-initial-state="${escapeAttr(JSON.stringify(initialState))}"` : '') +
    (l10nBundle ? ` data-l10n="${escapeAttr(JSON.stringify(l10nBundle))}"` : '');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(styleUri)}">
<title>Modelgate Chat</title>
</head>
<body${data}>
<script nonce="${escapeAttr(nonce)}" src="${escapeAttr(scriptUri)}"></script>
</body>
</html>
`;
}
