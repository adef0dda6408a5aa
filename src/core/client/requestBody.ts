// Wire bodies. `provider` is sent only when a channel is chosen: an empty `provider: {}` or an
// undefined key is never put on the wire (the gateway's interface says: omit it and the gateway picks).
import type { ChatRequest, ImageRequest, ProviderSelection } from './types';
import { withModelParams, type ModelRequestParams } from './modelParams';

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function providerField(provider: ProviderSelection | undefined): { provider?: { channel: string } } {
  return provider?.channel ? { provider: { channel: provider.channel } } : {};
}

export interface ChatBodyOptions {
  stream: boolean;
  /** `stream_options: {include_usage: true}`; dropped for servers that reject it. */
  includeUsage: boolean;
  /** the model's parameters from `modelgate.models` (the request's own fields win) */
  params?: ModelRequestParams;
}

export function chatBody(request: ChatRequest, options: ChatBodyOptions): string {
  const { provider, ...rest } = request;
  const body: Record<string, unknown> = { ...withModelParams(withoutUndefined(rest), options.params), ...providerField(provider), stream: options.stream };
  if (options.stream && options.includeUsage) body.stream_options = { include_usage: true };
  return JSON.stringify(body);
}

export function imageBody(request: ImageRequest): string {
  const { provider, ...rest } = request;
  return JSON.stringify({ ...withoutUndefined(rest), ...providerField(provider) });
}

/** Did the server refuse `stream_options` (cline/cline#582: some compatible servers do)? */
export function rejectsStreamOptions(status: number | undefined, text: string): boolean {
  return (status === 400 || status === 422) && /stream_options|include_usage/i.test(text);
}
