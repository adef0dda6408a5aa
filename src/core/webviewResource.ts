// What the chat panel may load as an image (generated images shown inline). Pure and
// shared by the host (src/chat/protocol.ts checks an `images` message before it is posted) and the
// webview (src/webview/hostMessages.ts checks it again on arrival).

/**
 * Where VS Code serves a webview's local resources: webview.asWebviewUri gives
 * https://<scheme>+<authority>.vscode-resource.vscode-cdn.net/<path> (VS Code 1.139's extension
 * host, `asWebviewUri`; as a string the `+` is `%2B`, e.g. `vscode-remote%2B127-002e0-….vscode-
 * resource.vscode-cdn.net` in code-server), and the file must be under one of the webview's
 * localResourceRoots.
 * The only URLs an `images` message may carry: never data:, never another host.
 */
export const WEBVIEW_RESOURCE_URL = /^https:\/\/[A-Za-z0-9+%.-]*\.vscode-resource\.vscode-cdn\.net\/[^\s"'<>\\]*$/;

/** At most this many images per tool call (generate_image's count is 1 to 10). */
export const MAX_IMAGES_PER_PART = 10;
