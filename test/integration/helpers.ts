// Shared helpers of the integration suites (not a suite itself: index.ts loads *.test.js only).
import * as assert from 'node:assert/strict';

/** Polls `check` until it returns something truthy (returned), or fails the test after `ms`. */
export async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
