import * as assert from 'node:assert/strict';
import { KeyPresence } from '../../../src/lm/keyPresence';

/** A plain event source: the listeners KeyPresence subscribes, fired by the test. */
function eventSource() {
  const listeners = new Set<() => void>();
  return {
    on: (l: () => void) => {
      listeners.add(l);
      return { dispose: () => listeners.delete(l) };
    },
    fire: () => listeners.forEach((l) => l()),
    count: () => listeners.size,
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('lm: key presence', () => {
  it('knows a missing key once read, and forgets it while a re-read is pending', async () => {
    let stored: string | undefined;
    let release: (() => void) | undefined;
    const read = () => new Promise<string | undefined>((resolve) => (release = () => resolve(stored)));
    const changes = eventSource();
    const presence = new KeyPresence(read, [changes.on]);
    assert.equal(presence.knownMissing(), false, 'unknown before the first read completes');
    release!();
    await tick();
    assert.equal(presence.knownMissing(), true);

    stored = 'sk-x';
    changes.fire();
    assert.equal(presence.knownMissing(), false, 'pending re-read: nothing assumed');
    release!();
    await tick();
    assert.equal(presence.knownMissing(), false);

    presence.dispose();
    assert.equal(changes.count(), 0);
  });

  it('lets only the latest read decide', async () => {
    const pending: ((v: string | undefined) => void)[] = [];
    const changes = eventSource();
    const presence = new KeyPresence(() => new Promise((r) => pending.push(r)), [changes.on]);
    changes.fire(); // second read
    pending[1]!('sk-new');
    pending[0]!(undefined); // the older read finishing late must not win
    await tick();
    assert.equal(presence.knownMissing(), false);
  });

  it('treats a failed read as unknown, never as missing', async () => {
    const presence = new KeyPresence(() => Promise.reject(new Error('storage down')), []);
    await tick();
    assert.equal(presence.knownMissing(), false);
  });
});
