// A completion the user keeps typing through is reused without a request: while what they type
// since it was shown is the start of it, the rest of it is still the answer. A completion stops
// being reusable when the typed text leaves it, when the text after the cursor changed (an edit
// elsewhere on the line), or in another document.

export interface ShownCompletion {
  /** the document (its URI) */
  docKey: string;
  /** where the completion was shown */
  line: number;
  character: number;
  /** the cursor line's text after the cursor when it was shown */
  lineAfter: string;
  text: string;
}

export interface CursorNow {
  docKey: string;
  line: number;
  character: number;
  /** the cursor line's text after the cursor now */
  lineAfter: string;
}

export class TypeThrough {
  private shown: ShownCompletion | undefined;

  remember(shown: ShownCompletion): void {
    this.shown = shown.text ? { ...shown } : undefined;
  }

  forget(docKey?: string): void {
    if (docKey === undefined || this.shown?.docKey === docKey) this.shown = undefined;
  }

  /** The shown completion, for the caller to read the text typed since (from its position to the cursor). */
  candidate(now: CursorNow): ShownCompletion | undefined {
    const s = this.shown;
    if (!s || s.docKey !== now.docKey) return undefined;
    if (now.line < s.line || (now.line === s.line && now.character < s.character)) return undefined;
    return s;
  }

  /**
   * The rest of the shown completion after `typed` (the document's text from where it was shown
   * to the cursor), or undefined when the user left it; the remembered completion is then dropped.
   * Typing all of it leaves nothing to show: also undefined (a new request may follow).
   */
  rest(now: CursorNow, typed: string): string | undefined {
    const s = this.candidate(now);
    if (!s) return undefined;
    if (now.lineAfter !== s.lineAfter || !s.text.startsWith(typed) || typed.length >= s.text.length) {
      this.shown = undefined;
      return undefined;
    }
    return s.text.slice(typed.length);
  }
}
