// Whether the transcript follows the newest text: pinned to the bottom until the user scrolls up,
// pinned again once they scroll back down. Our own scrolls are told apart from the user's by the
// offset we last set, so content that grows before a scroll event arrives does not unpin the view.

/** Distance from the bottom (px) within which the view counts as "at the bottom". */
const STICK_THRESHOLD = 40;

export class PinnedScroll {
  /** the view follows the bottom */
  pinned = true;
  /** the scroll offset last seen (a scroll event or our own scroll), read without forcing layout */
  knownTop = 0;
  private lastAutoScrollTop = 0;

  constructor(private readonly el: HTMLElement) {}

  /** After content changed: back to the bottom when pinned. */
  follow(): void {
    if (this.pinned) this.toBottom();
  }

  toBottom(): void {
    const el = this.el;
    el.scrollTop = el.scrollHeight;
    this.lastAutoScrollTop = el.scrollTop;
    this.knownTop = this.lastAutoScrollTop;
  }

  /** Content went in above at an offset scroll anchoring does not hold (0): keep the same content in view. */
  keepContent(topBefore: number, heightBefore: number): void {
    const el = this.el;
    if (this.pinned) this.toBottom();
    else if (el.scrollTop === topBefore) {
      el.scrollTop = topBefore + (el.scrollHeight - heightBefore);
      this.lastAutoScrollTop = el.scrollTop;
      this.knownTop = el.scrollTop;
    }
  }

  /** A scroll event. */
  onScroll(): void {
    const el = this.el;
    this.knownTop = el.scrollTop;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    if (distance <= STICK_THRESHOLD) this.pinned = true;
    // Only a move upwards is the user's: our own scrolls land at the bottom, and content that
    // grew before the scroll event arrived must not unpin the view.
    else if (el.scrollTop < this.lastAutoScrollTop - 1) this.pinned = false;
  }
}
