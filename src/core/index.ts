// The shared gateway client: plain Node. Everything the extension and
// outside tests need comes from here.
export { createGatewayClient, DEFAULT_TIMEOUT_MS } from './client/gatewayClient';
export { normalizeBaseUrl } from './client/gatewayUrl';
export type { GatewayClientTuning, GatewayClientOptionsWithTuning } from './client/gatewayClient';
export { GatewayError, describeWait } from './client/gatewayError';
export type { GatewayErrorInit } from './client/gatewayError';
export { imageFormatOf } from './client/imageBytes';
export { redactSecret } from './client/redact';
export * from './client/types';
export * from './catalogue/modelCatalogue';
export * from './spend/cost';
