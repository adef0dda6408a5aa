// Typing into the workbench and the panel, and reading back what they show, on a loaded machine.
//
// Playwright's fill() focuses the field and then sends the text to whatever holds the keyboard
// focus at that moment; page.keyboard.type() sends each key the same way. When the workbench
// moves the focus in between (a view that opens and takes it, a quick input that opens late),
// the text goes elsewhere or is cut short, and nothing says so. With the e2e workers beside the
// integration sessions on two cores that happened in CI: the palette filtered on a few stray
// letters, a search box stayed empty. So every field is typed into once it holds the focus, and
// what it holds is read back and typed again (cleared first) when it is not what was typed.
import type { Locator, Page } from 'playwright-core';

/** How often a field is typed into before the test fails. */
const ATTEMPTS = 3;

const log = (line: string) => console.log(`    [e2e] ${line}`);

/** Whether `target` holds the keyboard focus: its document's active element, in the frame that has the page's focus. */
export async function hasKeyboardFocus(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el.ownerDocument.activeElement === el && el.ownerDocument.hasFocus(), undefined, { timeout: 2_000 }).catch(() => false);
}

/** Waits until `target` holds the keyboard focus (see hasKeyboardFocus); false when `timeoutMs` passed first. */
export async function waitForKeyboardFocus(target: Locator, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await hasKeyboardFocus(target)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Fills the text field `target` (an input or textarea, in the workbench or a webview) with `text`
 * and checks that it holds exactly that; otherwise clears it and fills it again, up to 3 times.
 * Throws with what the field holds when it never took the text.
 */
export async function fillField(target: Locator, text: string, options: { timeoutMs?: number; attempts?: number } = {}): Promise<void> {
  const timeout = options.timeoutMs ?? 30_000;
  const attempts = options.attempts ?? ATTEMPTS;
  let held: string | undefined;
  for (let attempt = 1; ; attempt++) {
    await target.waitFor({ state: 'visible', timeout });
    if (attempt > 1) await target.fill('', { timeout });
    await target.fill(text, { timeout });
    held = await target.inputValue({ timeout: 5_000 }).catch(() => undefined);
    // A textarea's value has its line breaks as \n, whatever was typed.
    if (held === text || held === text.replace(/\r\n?/g, '\n')) return;
    if (attempt >= attempts) break;
    log(`a field took ${JSON.stringify(held)} instead of ${JSON.stringify(text)} (try ${attempt}): typed again`);
  }
  throw new Error(
    `the field did not take ${JSON.stringify(text)} in ${attempts} tries: it holds ${held === undefined ? '(unreadable)' : JSON.stringify(held)}`,
  );
}

/**
 * Types `text` with the keyboard into a field whose key handling matters (an editor) once it holds
 * the keyboard focus (`focused`; `focus` gives it, a click), and checks with `read` that it shows
 * the text; otherwise selects all, deletes and types again, up to 3 times.
 */
export async function typeKeys(
  page: Page,
  text: string,
  field: { focused: () => Promise<boolean>; focus: () => Promise<void>; read: () => Promise<string>; timeoutMs?: number; attempts?: number },
): Promise<void> {
  const timeout = field.timeoutMs ?? 30_000;
  const attempts = field.attempts ?? ATTEMPTS;
  let held = '';
  for (let attempt = 1; ; attempt++) {
    const deadline = Date.now() + timeout;
    while (!(await field.focused().catch(() => false))) {
      if (Date.now() >= deadline) throw new Error(`the field to type ${JSON.stringify(text)} into did not take the keyboard focus in ${timeout / 1000} s`);
      await field.focus().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 200));
    }
    if (attempt > 1) {
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Backspace');
    }
    await page.keyboard.type(text);
    held = await field.read().catch(() => '');
    if (held === text) return;
    if (attempt >= attempts) break;
    log(`a field shows ${JSON.stringify(held)} after typing ${JSON.stringify(text)} (try ${attempt}): typed again`);
  }
  throw new Error(`typing ${JSON.stringify(text)} did not reach the field in ${attempts} tries: it shows ${JSON.stringify(held)}`);
}

/**
 * The text `target` shows (innerText) once its frame has drawn: the transcript puts messages in
 * `content-visibility: auto` blocks, whose text innerText leaves out until a frame has decided
 * they are on screen. Right after a message arrived on a loaded machine that frame had not come
 * yet, and a finished answer read as its header and usage line only.
 */
export async function renderedText(target: Locator, options: { timeoutMs?: number } = {}): Promise<string> {
  const timeout = options.timeoutMs ?? 30_000;
  await target.waitFor({ state: 'attached', timeout });
  return target.evaluate(
    (el) =>
      new Promise<string>((resolve) => {
        const win = el.ownerDocument.defaultView;
        const read = () => resolve((el as HTMLElement).innerText);
        if (!win) return read();
        // A frame that does not draw (a hidden webview) gets no animation frames: read anyway.
        const fallback = win.setTimeout(read, 5_000);
        win.requestAnimationFrame(() =>
          win.requestAnimationFrame(() => {
            win.clearTimeout(fallback);
            read();
          }),
        );
      }),
    undefined,
    { timeout },
  );
}
