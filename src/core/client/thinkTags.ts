// Reasoning in a `<think>…</think>` block at the very start of `content` (Qwen's compatible
// mode without a reasoning parser, local servers, some gateways). The tags may be split across
// stream chunks at any character, so what could still be the start of a tag is held back until
// the next chunk decides. Only a block at the start counts (leading whitespace allowed): a
// `<think>` later in prose or in a code block is text and stays text. Pure.

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * start: nothing but whitespace (or a prefix of `<think>`) so far; inside: in the block;
 * after: after `</think>` (whitespace before the answer is dropped); text: plain text from here on.
 */
type State = 'start' | 'inside' | 'after' | 'text';

export interface ThinkSink {
  reasoning(text: string): void;
  text(text: string): void;
}

function leadingWhitespace(text: string): number {
  let i = 0;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagAtEnd(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (text.endsWith(tag.slice(0, n))) return n;
  return 0;
}

export class ThinkSplitter {
  private state: State = 'start';
  /** start: a partial `<think>` after the whitespace; inside: a partial `</think>` */
  private held = '';
  /**
   * start: the whitespace so far, in pieces. Joined with each chunk, 16K of spaces streamed in
   * small chunks cost a pass over all of them per chunk (quadratic).
   */
  private space: string[] = [];

  /** No more tags to look for: the caller may pass text straight on. */
  get plain(): boolean {
    return this.state === 'text';
  }

  push(chunk: string, sink: ThinkSink): void {
    if (!chunk) return;
    if (this.state === 'text') return sink.text(chunk);
    let text: string;
    if (this.state === 'start') {
      let rest = chunk;
      if (!this.held) {
        const ws = leadingWhitespace(chunk);
        if (ws) this.space.push(chunk.slice(0, ws));
        rest = chunk.slice(ws);
        if (!rest) return; // whitespace only: the next chunk decides
      }
      rest = this.held + rest;
      this.held = '';
      if (rest.length < OPEN.length && OPEN.startsWith(rest)) {
        this.held = rest; // the start of `<think>`: the next chunk decides
        return;
      }
      const space = this.space.join('');
      this.space = [];
      if (!rest.startsWith(OPEN)) {
        this.state = 'text';
        return sink.text(space + rest);
      }
      this.state = 'inside';
      text = rest.slice(OPEN.length);
    } else {
      text = this.held + chunk;
      this.held = '';
    }
    if (this.state === 'inside') {
      const end = text.indexOf(CLOSE);
      if (end === -1) {
        const keep = partialTagAtEnd(text, CLOSE);
        if (text.length > keep) sink.reasoning(text.slice(0, text.length - keep));
        this.held = text.slice(text.length - keep);
        return;
      }
      if (end > 0) sink.reasoning(text.slice(0, end));
      this.state = 'after';
      text = text.slice(end + CLOSE.length);
    }
    // after
    const ws = leadingWhitespace(text);
    if (ws === text.length) return;
    this.state = 'text';
    sink.text(text.slice(ws));
  }

  /** End of the content: what was held back goes out as what it was. */
  end(sink: ThinkSink): void {
    const held = this.state === 'start' ? this.space.join('') + this.held : this.held;
    this.held = '';
    this.space = [];
    if (!held) return;
    if (this.state === 'start') sink.text(held);
    else if (this.state === 'inside') sink.reasoning(held); // cut off while thinking: it was thinking
  }
}

/** A whole (non-streamed) content string: its leading `<think>` block and the answer after it. */
export function splitThink(content: string): { reasoning: string; text: string } {
  let reasoning = '';
  let text = '';
  const splitter = new ThinkSplitter();
  const sink: ThinkSink = { reasoning: (t) => (reasoning += t), text: (t) => (text += t) };
  splitter.push(content, sink);
  splitter.end(sink);
  return { reasoning, text };
}
