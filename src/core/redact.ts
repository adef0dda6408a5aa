// The API key must never reach a message, a log line or a stack trace, not even when a server
// or proxy echoes the Authorization header back in its error body (openai-python#1196 leaked
// keys through logged headers). Every text that leaves the client passes through here.

const REDACTED = '[redacted]';

/** Replaces every occurrence of the key (and so also of `Bearer <key>`) in `text`. */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join(REDACTED);
}

/** Redacts the secret from every text field of an error in place, stack included. */
export function redactErrorInPlace<E extends Error>(error: E, secret: string | undefined): E {
  if (!secret) return error;
  error.message = redactSecret(error.message, secret);
  if (typeof error.stack === 'string') error.stack = redactSecret(error.stack, secret);
  const record = error as unknown as Record<string, unknown>;
  for (const field of ['serverMessage', 'code', 'param', 'type'] as const) {
    const value = record[field];
    if (typeof value === 'string') record[field] = redactSecret(value, secret);
  }
  return error;
}
