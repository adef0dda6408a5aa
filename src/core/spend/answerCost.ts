// Whether an answer's cost is unknown, which the panel's header says rather than count it as $0, and
// the share of a conversation's prompt the cache served. Pure: the host (when an answer ends, the
// conversation list) and the webview (a restored conversation) share them.

/**
 * An answer that ended without a cost, unless the gateway refused it before anything came back:
 * an error with no usage and nothing received is not billed (the spend ledger does not count
 * it either).
 */
export function costUnknown(m: { status: string; usage?: { promptTokens?: number; cost?: number }; parts: readonly unknown[] }): boolean {
  if (m.status === 'streaming' || m.usage?.cost !== undefined) return false;
  return !(m.status === 'error' && !m.usage && m.parts.length === 0);
}

/**
 * Share of a conversation's prompt tokens the cache served, over its answers' reported usage;
 * undefined when none reported any. The panel's header and the conversation list show the same
 * figure because both take it from here.
 */
export function cachedShareOf(usages: Iterable<{ promptTokens: number; cachedTokens: number } | undefined>): number | undefined {
  let prompt = 0;
  let cached = 0;
  for (const u of usages)
    if (u) {
      prompt += u.promptTokens;
      cached += u.cachedTokens;
    }
  return prompt > 0 ? Math.min(1, cached / prompt) : undefined;
}
