// Whether an answer's cost is unknown, which the panel's header says rather than count it as $0.
// Pure: the host (when an answer ends) and the webview (a restored conversation) share it.

/**
 * An answer that ended without a cost, unless the gateway refused it before anything came back:
 * an error with no usage and nothing received is not billed (the spend ledger does not count
 * it either).
 */
export function costUnknown(m: { status: string; usage?: { promptTokens?: number; cost?: number }; parts: readonly unknown[] }): boolean {
  if (m.status === 'streaming' || m.usage?.cost !== undefined) return false;
  return !(m.status === 'error' && !m.usage && m.parts.length === 0);
}
