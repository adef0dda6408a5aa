// `[[replay:NAME]]`: the answer is a transcript of the stream corpus (streamCorpus/, each shaped
// after one provider's public documentation, named there) sent byte for byte, one SSE event at a
// time, so a test can put another server's shapes through the whole extension. Only for the
// request whose last message is the user's: the follow-up of a tool round gets the usual answer.
// The charge is the transcript's usage at the model's price.
import { transcript, type Transcript } from './streamCorpus/index';
import { invalidRequest } from './api-error';
import type { ResponseSender } from './response-sender';

/** The transcript a `[[replay:NAME]]` marker names; an unknown name is a 400 (a typo in a test). */
export function replayMarker(text: string): Transcript | undefined {
  const m = /\[\[replay:([a-z0-9-]+)\]\]/.exec(text);
  if (!m) return undefined;
  const found = transcript(m[1]!);
  if (!found) throw invalidRequest(`No transcript named ${m[1]} in the stream corpus.`, 'messages', 'invalid_value');
  return found;
}

/** The transcript's usage in the simulator's terms (for the charge); zeros when it reports none. */
export function replayUsage(t: Transcript): { prompt_tokens: number; completion_tokens: number; prompt_tokens_details: { cached_tokens: number } } {
  const u = t.expect.usage;
  return { prompt_tokens: u?.promptTokens ?? 0, completion_tokens: u?.completionTokens ?? 0, prompt_tokens_details: { cached_tokens: u?.cachedTokens ?? 0 } };
}

/** Sends the body one event at a time, with the channel's pause between events (so thinking is seen streaming), at most 40 ms. */
export async function sendReplay(sender: ResponseSender, t: Transcript, pause: () => number): Promise<void> {
  const events = t.body.split(/(?<=\n\n)/);
  for (const event of events) {
    if (sender.gone) return;
    await sender.write(event);
    const ms = Math.min(40, pause());
    if (ms > 0) await sender.stall(ms);
  }
  sender.end();
}
