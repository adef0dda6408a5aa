// Checks a candidate API key against the gateway with GET /models before it is stored. The
// candidate goes only to the configured base URL, in the Authorization header, like every key.
import { createGatewayClient, GatewayError } from '../core';
import type { RequestHeaders } from '../core/client/gatewayClient';

/** `down`: the gateway could not be reached or failed (network, timeout, 5xx), not a refusal of the key. */
export type KeyCheck =
  | { outcome: 'accepted'; models: number }
  | { outcome: 'rejected'; status?: number }
  | { outcome: 'unchecked'; reason: string; down: boolean };

/** `requestHeaders`: the gateway's own headers (settings and secret ones), which it may need to answer at all. */
export async function checkKey(
  baseUrl: string,
  key: string,
  timeoutMs: number,
  fetchImpl?: typeof globalThis.fetch,
  requestHeaders?: () => Promise<RequestHeaders>,
): Promise<KeyCheck> {
  const client = createGatewayClient({ baseUrl, apiKey: async () => key, timeoutMs, maxRetries: 1, fetch: fetchImpl, requestHeaders });
  try {
    const models = await client.listModels({ signal: AbortSignal.timeout(timeoutMs) });
    return { outcome: 'accepted', models: models.length };
  } catch (err) {
    if (err instanceof GatewayError && err.kind === 'auth') return { outcome: 'rejected', status: err.status };
    // The message of a GatewayError is already redacted and actionable; never echo the key.
    const reason = err instanceof Error ? err.message.split(key).join('…') : String(err);
    const down = err instanceof GatewayError && (err.kind === 'network' || err.kind === 'timeout' || err.kind === 'server');
    return { outcome: 'unchecked', reason, down };
  }
}
