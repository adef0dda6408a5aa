// The key store's memory of SecretStorage: a value read once is served without another round trip
// to the window, a slot SecretStorage says changed is read again, a read that was under way when
// it changed is not kept, and a change that came without its event is found by the background
// read of the next use (and reported, so the status bar and the panel catch up).
import * as assert from 'node:assert/strict';
import { SecretCache } from '../../../src/services/secretCache';

/** A SecretStorage stand-in: `values` is what it holds; each read waits for release() when `held`. */
function storage(values: Record<string, string | undefined>) {
  const reads: string[] = [];
  let held: (() => void)[] | undefined;
  return {
    reads,
    values,
    hold: () => (held = []),
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const r of waiting) r();
    },
    read: (slot: string): Promise<string | undefined> => {
      reads.push(slot);
      if (!held) return Promise.resolve(values[slot]);
      const wait = held;
      return new Promise((resolve) => wait.push(() => resolve(values[slot])));
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('services: SecretCache (what SecretStorage last said)', () => {
  it('serves a value read once without waiting for SecretStorage again', async () => {
    const s = storage({ key: 'sk-one' });
    const cache = new SecretCache(s.read);
    assert.equal(await cache.get('key'), 'sk-one');
    s.hold(); // SecretStorage is slow now (the window is busy drawing the panel)
    assert.equal(await cache.get('key'), 'sk-one', 'answered from memory, not after the round trip');
    s.release();
  });

  it('a slot SecretStorage says changed is read again (a key stored in another window is used at once)', async () => {
    const s = storage({ key: 'sk-old' });
    const cache = new SecretCache(s.read);
    assert.equal(await cache.get('key'), 'sk-old');
    s.values.key = 'sk-new';
    cache.forget('key');
    assert.equal(await cache.get('key'), 'sk-new');
    s.values.key = undefined; // deleted
    cache.forget('key');
    assert.equal(await cache.get('key'), undefined);
  });

  it('a read under way when the slot changed is not kept', async () => {
    const s = storage({ key: 'sk-old' });
    const cache = new SecretCache(s.read);
    s.hold();
    const first = cache.get('key');
    s.release(); // resolves with the old value ...
    cache.forget('key'); // ... but the change was announced before that answer landed
    s.values.key = 'sk-new';
    assert.equal(await first, 'sk-old', 'the caller that asked before the change gets what was there');
    assert.equal(await cache.get('key'), 'sk-new', 'the next caller does not get the stale answer');
  });

  it('a change that came without its event is found by the next use, and reported', async () => {
    const s = storage({ key: 'sk-old' });
    const stale: string[] = [];
    const cache = new SecretCache(s.read, (slot) => stale.push(slot));
    await cache.get('key');
    s.values.key = 'sk-new'; // no forget(): the event never came
    assert.equal(await cache.get('key'), 'sk-old', 'this use is served from memory');
    await settle();
    assert.deepEqual(stale, ['key'], 'the background read found the change');
    assert.equal(await cache.get('key'), 'sk-new', 'the next use has it');
  });

  it('one background read at a time per slot, and none when nothing changed', async () => {
    const s = storage({ key: 'sk-one', headers: '{}' });
    const stale: string[] = [];
    const cache = new SecretCache(s.read, (slot) => stale.push(slot));
    await cache.get('key');
    await cache.get('headers');
    s.reads.length = 0;
    s.hold();
    await Promise.all([cache.get('key'), cache.get('key'), cache.get('key'), cache.get('headers')]);
    assert.deepEqual(s.reads, ['key', 'headers'], 'one read each while one is under way');
    s.release();
    await settle();
    assert.deepEqual(stale, []);
  });

  it('a read that fails is not kept: the next use asks SecretStorage again', async () => {
    let fail = true;
    const cache = new SecretCache(async () => {
      if (fail) throw new Error('secret storage unavailable');
      return 'sk-one';
    });
    await assert.rejects(cache.get('key'), /unavailable/);
    fail = false;
    assert.equal(await cache.get('key'), 'sk-one');
  });
});
