// Platform seam, web build. In a browser, fetch rejects with a bare TypeError ("Failed to fetch")
// before any response both when nothing answers and when the gateway does not allow cross-origin
// requests (CORS) from the editor's origin; the page cannot tell which. The second is the usual
// cause on vscode.dev and similar hosts, so the message names the origin the gateway must allow:
// the extension host's own (a web worker's `self.origin`, e.g. https://<id>.vscode-cdn.net on
// vscode.dev, the workbench's address on a self-hosted server).
export function connectHint(): string | undefined {
  const origin = (globalThis as { origin?: unknown }).origin;
  const where = typeof origin === 'string' && origin !== 'null' ? origin : "this editor's origin";
  return `In a browser-hosted editor this also happens when the gateway does not allow cross-origin requests (CORS) from ${where}: the gateway must answer with “Access-Control-Allow-Origin: ${where}” and accept preflight (OPTIONS) requests with the Authorization and Content-Type headers.`;
}
