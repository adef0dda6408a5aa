// Renders one streaming markdown text into a container element, in time linear in its length.
//
// Re-parsing the whole message per token is quadratic and froze Continue's panel on long
// answers (continuedev/continue#5972). Here:
// - append() only buffers; flush() (called at most once per animation frame by the caller)
//   applies the buffered text.
// - The text is split into top-level blocks. A block is "committed" once it can no longer
//   change (the next block has started on a complete line, or it is a closed code fence): it
//   is rendered, sanitized and highlighted once, and its DOM is never touched again. Only the
//   unfinished last block (the "tail") is re-rendered per flush.
// - An open top-level code fence is not re-lexed at all: new lines are appended to its <code>
//   as text nodes (in blocks of lines, so the browser re-lays out only the last one).
// - A tail that is itself huge (a 2,000-item list, an enormous paragraph) is re-rendered only
//   when it has grown by a fixed fraction since its last render; in between, the new text is
//   shown raw. Total work stays linear (a geometric series) in every case.
// CommonMark decides block structure line by line, and a complete line never changes how an
// earlier, already-closed block is read; decisions are therefore taken on complete lines only
// (a partial line such as "--" may still become "--x", a paragraph continuation).
import { createCodeBlock, createPlainBlock, highlightCodeBlock, PLAIN_SEGMENT_CHARS } from './codeBlock';
import { h } from './dom';
import { decorate } from './markdownDecorate';
import {
  hasLongLine,
  hitNestingLimit,
  isClosingFence,
  isPathologicalMarkdown,
  isPlainTextToken,
  langFromInfo,
  longLineBlocksAsPlain,
  md,
  plainTextTokens,
  renderTokens,
  topLevelBlocks,
  type MdToken,
  type TopBlock,
} from './markdown';
import { sanitizeMarkdownHtml } from './sanitize';
import { OpenCodeFence } from './streamingFence';

export interface StreamingMarkdownOptions {
  /** highlight closed code blocks (default true) */
  highlight?: boolean;
  /** tails longer than this are re-rendered only after growing by `tailGrowth` (default 12,000) */
  largeTailChars?: number;
  /** fraction of its size a large tail must grow before it is re-rendered (default 0.25) */
  tailGrowth?: number;
  /** lines per streaming segment of an open code fence (default 200) */
  fenceSegmentLines?: number;
}

/** Counters of the work done, for tests and the benchmark (not timings). */
export interface StreamingStats {
  /** markdown-it parses */
  parses: number;
  /** characters handed to markdown-it, summed over all parses */
  parsedChars: number;
  /** blocks committed (rendered for good) */
  committedBlocks: number;
  /** flushes that only appended raw text to a large tail */
  rawAppends: number;
  /** flushes that appended to an open code fence without parsing */
  fenceAppends: number;
  /** texts shown as plain text because their markup was pathological (too deep, too dense) */
  plainFallbacks: number;
}

const COMMIT_BATCH_BLOCKS = 32;
const CHUNK_BLOCKS = 32;

export class StreamingMarkdown {
  readonly element: HTMLElement;
  readonly stats: StreamingStats = { parses: 0, parsedChars: 0, committedBlocks: 0, rawAppends: 0, fenceAppends: 0, plainFallbacks: 0 };
  private readonly doc: Document;
  private readonly highlight: boolean;
  private readonly largeTailChars: number;
  private readonly tailGrowth: number;
  private readonly fenceSegmentLines: number;

  private pending: string[] = [];
  /** a '\r' that ended the last chunk: held back until we know whether '\n' follows */
  private heldCarriageReturn = false;
  /** source of the uncommitted part, in normal mode */
  private tail = '';
  private tailNodes: Node[] = [];
  private tailRenderedLength = 0;
  /** length of the tail's complete-lines prefix that the last commit decision looked at */
  private decidedCompleteEnd = -1;
  private rawPreview: HTMLElement | null = null;
  /** the raw preview's last segment and its length (see appendRawPreview) */
  private rawSegment: HTMLElement | null = null;
  private rawSegmentChars = 0;
  private fence: OpenCodeFence | null = null;
  private finished = false;
  private chunk: HTMLElement | null = null;
  private chunkSize = 0;
  /** rendered at once (a finished message): small blocks are coloured at once, not on idle time */
  private oneGo = false;

  constructor(doc: Document, options: StreamingMarkdownOptions = {}, element?: HTMLElement) {
    this.doc = doc;
    this.element = element ?? h(doc, 'div');
    this.element.classList.add('markdown');
    this.highlight = options.highlight ?? true;
    this.largeTailChars = options.largeTailChars ?? 12_000;
    this.tailGrowth = options.tailGrowth ?? 0.25;
    this.fenceSegmentLines = options.fenceSegmentLines ?? 200;
  }

  /** Renders a complete text at once (used for finished messages in a snapshot). */
  static render(doc: Document, text: string, options: StreamingMarkdownOptions = {}): StreamingMarkdown {
    const r = new StreamingMarkdown(doc, options);
    r.oneGo = true;
    r.append(text);
    r.finish();
    return r;
  }

  get isFinished(): boolean {
    return this.finished;
  }

  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** Buffers text; nothing reaches the DOM until flush() or finish(). */
  append(text: string): void {
    if (this.finished || !text) return;
    this.pending.push(text);
  }

  /** Applies the buffered text. Returns true when the DOM changed. */
  flush(): boolean {
    if (this.finished || this.pending.length === 0) return false;
    const added = this.takePending(false);
    if (!added) return false;
    this.consume(added, false);
    return true;
  }

  /** Applies everything and renders the rest as final (closes an open fence, highlights). */
  finish(): void {
    if (this.finished) return;
    const added = this.takePending(true);
    this.consume(added, true);
    this.finished = true;
  }

  // ---------------------------------------------------------------------------------------

  private takePending(final: boolean): string {
    let s = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
    this.pending = [];
    if (this.heldCarriageReturn) s = `\r${s}`;
    this.heldCarriageReturn = !final && s.endsWith('\r');
    if (this.heldCarriageReturn) s = s.slice(0, -1);
    // markdown-it normalizes line endings and NUL the same way; doing it here keeps line
    // arithmetic (fence lines, complete lines) identical to what the parser sees.
    return s.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD');
  }

  private consume(added: string, final: boolean): void {
    if (this.fence) {
      const rest = this.feedFence(added, final);
      if (rest === null) return;
      added = rest;
    }
    this.tail += added;
    this.updateTail(added, final);
  }

  private parse(src: string): MdToken[] {
    if (isPathologicalMarkdown(src)) {
      this.stats.plainFallbacks++;
      return plainTextTokens(src);
    }
    this.stats.parses++;
    this.stats.parsedChars += src.length;
    const tokens = md.parse(src, {});
    if (hitNestingLimit(tokens)) {
      this.stats.plainFallbacks++;
      return plainTextTokens(src);
    }
    if (!hasLongLine(src)) return tokens;
    this.stats.plainFallbacks++;
    return longLineBlocksAsPlain(tokens, src);
  }

  private updateTail(added: string, final: boolean): void {
    const tail = this.tail;
    if (!final && tail.length > this.largeTailChars && tail.length - this.tailRenderedLength < this.tailRenderedLength * this.tailGrowth) {
      this.appendRawPreview(added);
      return;
    }
    this.removeTail();

    if (final) {
      this.tail = '';
      this.tailRenderedLength = 0;
      if (tail.trim()) {
        const tokens = this.parse(tail);
        this.commit(tokens, 0, tokens.length);
      }
      return;
    }

    // Decide what is final on the complete lines only. When no line was completed since the
    // last decision, nothing can have become final: skip straight to re-rendering the tail.
    const completeEnd = tail.lastIndexOf('\n') + 1;
    let cut = 0;
    let reusable: MdToken[] | null = null;
    if (completeEnd > 0 && completeEnd !== this.decidedCompleteEnd) {
      const complete = tail.slice(0, completeEnd);
      const tokens = this.parse(complete);
      const blocks = topLevelBlocks(tokens);
      const lineStarts = lineStartOffsets(complete);
      const completeLines = lineStarts.length - 1;
      let k = 0;
      while (k < blocks.length && this.isFinalBlock(tokens, blocks, k, complete, lineStarts)) k++;
      if (k > 0) {
        this.commit(tokens, blocks[0].from, blocks[k - 1].to);
        cut = k < blocks.length ? lineStarts[blocks[k].startLine] : lineStarts[Math.min(blocks[k - 1].endLine, completeLines)];
      }
      // The last block is an open top-level fence: from here on, lines are appended as text.
      if (k === blocks.length - 1 && blocks[k].type === 'fence' && tokens[blocks[k].from].level === 0 && !isPlainTextToken(tokens[blocks[k].from])) {
        this.openFence(tokens[blocks[k].from], tail.slice(lineStarts[blocks[k].startLine]));
        this.tail = '';
        this.tailRenderedLength = 0;
        this.decidedCompleteEnd = -1;
        return;
      }
      if (completeEnd === tail.length && k < blocks.length) reusable = tokens.slice(blocks[k].from);
    }
    this.tail = tail.slice(cut);
    this.decidedCompleteEnd = completeEnd - cut;
    this.tailRenderedLength = this.tail.length;
    if (!this.tail.trim()) return;
    const tokens = reusable ?? this.parse(this.tail);
    this.tailNodes = this.insertTokens(tokens, 0, tokens.length, false);
  }

  /** Block k is final when the next block has started, or when it is a closed fence. */
  private isFinalBlock(tokens: MdToken[], blocks: TopBlock[], k: number, src: string, lineStarts: number[]): boolean {
    if (k + 1 < blocks.length) return true;
    const b = blocks[k];
    const t = tokens[b.from];
    if (b.type !== 'fence' || t.level !== 0 || b.endLine - b.startLine < 2 || isPlainTextToken(t)) return false;
    const last = b.endLine - 1;
    const line = src.slice(lineStarts[last], lineStarts[last + 1] - 1);
    return isClosingFence(line, t.markup);
  }

  private commit(tokens: MdToken[], from: number, to: number): void {
    // Rendered in batches of blocks: one sanitizer pass over thousands of top-level nodes is
    // quadratic in jsdom (tests, benchmark), and the batches produce the same nodes.
    let start = from;
    let blocks = 0;
    for (let i = from; i < to; i++) {
      const t = tokens[i];
      if (t.level !== 0 || t.nesting > 0) continue;
      this.stats.committedBlocks++;
      if (++blocks % COMMIT_BATCH_BLOCKS === 0) {
        this.insertTokens(tokens, start, i + 1, true);
        start = i + 1;
      }
    }
    if (start < to) this.insertTokens(tokens, start, to, true);
  }

  private insertTokens(tokens: MdToken[], from: number, to: number, complete: boolean): Node[] {
    // Top-level code fences and plain-text blocks are built as DOM text directly: their content
    // is text by construction, and sending a 100 KB block through HTML and the sanitizer was one
    // long task. Everything else goes through the renderer and the sanitizer, in runs between them.
    const nodes: Node[] = [];
    let run = from;
    for (let i = from; i < to; i++) {
      const t = tokens[i];
      if (t.type !== 'fence' || t.level !== 0) continue;
      if (run < i) nodes.push(...this.insertRendered(renderTokens(tokens, run, i), complete));
      const plain = isPlainTextToken(t);
      const block = plain ? createPlainBlock(this.doc, t.content) : createCodeBlock(this.doc, langFromInfo(t.info), t.content);
      if (complete) {
        this.appendCommittedNode(block);
        if (this.highlight && !plain) highlightCodeBlock(block, undefined, !this.oneGo);
      } else this.element.appendChild(block);
      nodes.push(block);
      run = i + 1;
    }
    if (run < to) nodes.push(...this.insertRendered(renderTokens(tokens, run, to), complete));
    return nodes;
  }

  /** Sanitizes, decorates and renders HTML: committed blocks go into chunks, a tail is appended as is. */
  private insertRendered(html: string, complete: boolean): Node[] {
    const frag = sanitizeMarkdownHtml(this.doc, html);
    decorate(this.doc, frag, complete && this.highlight);
    const nodes = Array.from(frag.childNodes);
    if (complete) for (const n of nodes) this.appendCommittedNode(n);
    else this.element.appendChild(frag);
    return nodes;
  }

  /**
   * Committed blocks are grouped into chunks of CHUNK_BLOCKS elements. A long answer then gives
   * its container a few hundred children instead of thousands, so the browser's per-frame
   * layout of the container (which walks its children) stays small, and off-screen chunks can
   * skip layout altogether (content-visibility in chat.css). Chunking depends only on the
   * sequence of committed blocks, so a streamed and a one-go render stay identical.
   */
  private appendCommittedNode(node: Node): void {
    if (!this.chunk || this.chunkSize >= CHUNK_BLOCKS) {
      this.chunk = h(this.doc, 'div', { className: 'md-chunk' });
      this.chunkSize = 0;
      const firstTail = this.tailNodes.find((n) => n.parentNode === this.element) ?? this.rawPreview;
      this.element.insertBefore(this.chunk, firstTail ?? null);
    }
    this.chunk.appendChild(node);
    this.chunkSize++;
  }

  private removeTail(): void {
    for (const n of this.tailNodes) n.parentNode?.removeChild(n);
    this.tailNodes = [];
    if (this.rawPreview) {
      this.rawPreview.remove();
      this.rawPreview = null;
      this.rawSegment = null;
    }
  }

  /**
   * Shows text that arrived since the large tail's last render, as is. It goes into segments of
   * about PLAIN_SEGMENT_CHARS (block boxes), so each flush lays out one small segment instead of
   * all the text appended so far (one line of 170 KB otherwise grew one box by every flush).
   */
  private appendRawPreview(added: string): void {
    this.stats.rawAppends++;
    if (!this.rawPreview) {
      this.rawPreview = h(this.doc, 'div', { className: 'md-raw' });
      this.element.appendChild(this.rawPreview);
      this.rawSegment = null;
    }
    let pos = 0;
    while (pos < added.length) {
      if (!this.rawSegment || this.rawSegmentChars >= PLAIN_SEGMENT_CHARS) {
        this.rawSegment = h(this.doc, 'div', { className: 'md-raw-segment' });
        this.rawPreview.appendChild(this.rawSegment);
        this.rawSegmentChars = 0;
      }
      let take = Math.min(added.length - pos, PLAIN_SEGMENT_CHARS - this.rawSegmentChars);
      const c = added.charCodeAt(pos + take - 1);
      if (pos + take < added.length && take > 1 && c >= 0xd800 && c <= 0xdbff) take--;
      this.rawSegment.appendChild(this.doc.createTextNode(added.slice(pos, pos + take)));
      this.rawSegmentChars += take;
      pos += take;
    }
  }

  // ---------------------------------------------------------------- open code fences

  private openFence(token: MdToken, raw: string): void {
    const firstNl = raw.indexOf('\n');
    const fence = new OpenCodeFence(this.doc, token, raw.slice(0, firstNl), {
      segmentLines: this.fenceSegmentLines,
      highlight: this.highlight,
      deferHighlight: !this.oneGo,
      stats: this.stats,
    });
    this.fence = fence;
    // The open fence is the last block, and nothing is committed while it is open: it can take
    // its final place in a chunk now, so closing it moves nothing.
    this.appendCommittedNode(fence.block);
    this.tailNodes = [];
    this.feedFence(raw.slice(firstNl + 1), false);
  }

  /**
   * Appends text to the open fence. Returns the text after its closing line (the fence is then
   * committed), or null while it stays open. With `final`, the fence ends with the text.
   */
  private feedFence(added: string, final: boolean): string | null {
    const rest = this.fence!.feed(added, final);
    if (rest !== null) this.fence = null;
    return rest;
  }
}

/** Offsets where each line starts, plus one past the end: lines = result.length - 1. */
function lineStartOffsets(src: string): number[] {
  const starts = [0];
  for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) starts.push(i + 1);
  if (starts[starts.length - 1] !== src.length) starts.push(src.length);
  return starts;
}
