// The shared gateway client: plain Node, never imports vscode. Everything the extension and
// outside tests need comes from here.
export { createGatewayClient, DEFAULT_TIMEOUT_MS } from './client';
export { normalizeBaseUrl } from './gatewayUrl';
export type { GatewayClientTuning, GatewayClientOptionsWithTuning } from './client';
export { GatewayError, describeWait } from './errors';
export type { GatewayErrorInit } from './errors';
export { imageFormatOf } from './imageBytes';
export { redactSecret } from './redact';
export * from './types';
export * from './catalogue';
export * from './cost';
