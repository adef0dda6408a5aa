// The Thinking block of an answer: the model's reasoning of one round, above what it answered
// after it. A <details> element (keyboard and screen readers open it natively) whose summary
// says "Thinking… 12 s" while the reasoning streams, and "Thought for 12 s" once the answer
// started, when it collapses. The reasoning is rendered like answer text (the same markdown
// renderer, sanitizer and caps); its code blocks get no Copy/Insert/Apply (CSS hides them, and
// the transcript's click handler ignores code actions inside a Thinking block).
import { h } from './dom';
import { l10n } from './panelL10n';
import { StreamingMarkdown, type StreamingMarkdownOptions } from './streamingMarkdown';

export function formatThinkingTime(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return l10n.t('{0} s', s);
  return l10n.t('{0} min {1} s', Math.floor(s / 60), s % 60);
}

export class ReasoningBlock {
  readonly element: HTMLDetailsElement;
  private readonly label: HTMLElement;
  private readonly markdown: StreamingMarkdown;
  private readonly started: number;
  private timer: number | undefined;
  private ended = false;

  /** `done` given: a finished block (restored; `ms` unknown when it was cut off); else a live one whose clock starts now. */
  constructor(
    private readonly doc: Document,
    text: string,
    options: StreamingMarkdownOptions,
    done?: { ms?: number },
  ) {
    const win = doc.defaultView;
    this.started = win ? win.performance.now() : 0;
    this.label = h(doc, 'span', { className: 'reasoning-label' });
    this.markdown = done ? StreamingMarkdown.render(doc, text, options) : new StreamingMarkdown(doc, options);
    if (!done && text) {
      this.markdown.append(text);
      this.markdown.flush();
    }
    this.element = h(doc, 'details', { className: 'reasoning-block' }, [
      h(doc, 'summary', { className: 'reasoning-summary' }, [this.label]),
      h(doc, 'div', { className: 'reasoning-body' }, [this.markdown.element]),
    ]);
    if (!done) {
      this.element.open = true;
      this.element.classList.add('live');
      this.tick();
      if (win) this.timer = win.setInterval(() => this.tick(), 1000);
    } else this.end(done.ms ?? Number.NaN);
  }

  get live(): boolean {
    return !this.ended;
  }

  /** Buffers streamed reasoning; the caller flushes once per frame. */
  append(text: string): StreamingMarkdown {
    this.markdown.append(text);
    return this.markdown;
  }

  flush(): boolean {
    return this.markdown.flush();
  }

  /** The thinking ended after `ms` (the host's measure; else this block's own clock): collapse. */
  end(ms?: number): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer !== undefined) this.doc.defaultView?.clearInterval(this.timer);
    this.timer = undefined;
    this.markdown.finish();
    const took = ms ?? this.elapsed();
    this.label.textContent = Number.isFinite(took) ? l10n.t('Thought for {0}', formatThinkingTime(took)) : l10n.t('Thinking');
    this.element.classList.remove('live');
    this.element.open = false;
  }

  private elapsed(): number {
    const win = this.doc.defaultView;
    return win ? win.performance.now() - this.started : 0;
  }

  private tick(): void {
    if (!this.ended) this.label.textContent = l10n.t('Thinking… {0}', formatThinkingTime(this.elapsed()));
  }
}
