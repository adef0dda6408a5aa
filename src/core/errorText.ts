// The message of anything thrown: an Error's message, anything else as text. For logs, notices and
// tool results that name a failure without its stack.
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
