// Bytes -> server-sent events. eventsource-parser does the line splitting (pinned at 3.0.8,
// the release that fixed its quadratic rescans of one huge event arriving in many chunks);
// a streaming TextDecoder keeps a multi-byte character that is split across chunks whole.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseDecoder {
  /** Feeds one network chunk; returns the events it completed (often none, sometimes many). */
  push(bytes: Uint8Array): EventSourceMessage[];
  /** End of the body: flushes a last event the server did not terminate with a blank line. */
  end(): EventSourceMessage[];
}

export function createSseDecoder(onComment?: (comment: string) => void): SseDecoder {
  const decoder = new TextDecoder('utf-8');
  let ready: EventSourceMessage[] = [];
  const parser = createParser({
    onEvent: (event) => {
      ready.push(event);
    },
    onComment,
  });
  const take = (): EventSourceMessage[] => {
    const out = ready;
    ready = [];
    return out;
  };
  return {
    push(bytes) {
      const text = decoder.decode(bytes, { stream: true });
      if (text) parser.feed(text);
      return take();
    },
    end() {
      const rest = decoder.decode();
      // Two line ends complete a pending line and dispatch its event. Some servers close the
      // body straight after `data: [DONE]` with no blank line.
      parser.feed(`${rest}\n\n`);
      return take();
    },
  };
}
