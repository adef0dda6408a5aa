// The chat panel's HTML. Pure, so it is unit-tested in Node; the host passes the webview's
// cspSource, a fresh nonce per render (makeNonce) and the asWebviewUri() of the bundle/CSS. The
// shell and its CSP are src/core/webviewShell.ts: no 'unsafe-eval', no inline script or style,
// no remote hosts, and images only from the extension or data: URLs (attachment thumbnails).
// Initial data goes in a data- attribute.
import type { ChatInitialState } from '../protocol';
import { renderWebviewShell } from '../../core/webviewShell';

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

export function buildChatHtml({ cspSource, nonce, scriptUri, styleUri, initialState, l10nBundle }: ChatHtmlOptions): string {
  return renderWebviewShell({
    cspSource,
    nonce,
    title: 'Modelgate Chat',
    images: 'cspSource+data',
    style: { href: styleUri },
    bodyData: {
      'initial-state': initialState ? JSON.stringify(initialState) : undefined,
      l10n: l10nBundle ? JSON.stringify(l10nBundle) : undefined,
    },
    script: { src: scriptUri },
  });
}
