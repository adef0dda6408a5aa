import * as assert from 'node:assert/strict';
import { candidateNames, imageBaseName, pickFreeName, slugify, timestamp } from '../../../src/images/fileNames';

describe('images: file names', () => {
  it('slugs a prompt to lower-case ASCII words joined by dashes', () => {
    assert.equal(slugify('A Sunset over the Mountains!'), 'a-sunset-over-the-mountains');
    assert.equal(slugify('  Café — crème brûlée  '), 'cafe-creme-brulee');
    assert.equal(slugify('../../etc/passwd'), 'etc-passwd');
    assert.equal(slugify('a/b\\c:d*e?f"g<h>i|j'), 'a-b-c-d-e-f-g-h-i-j');
  });

  it('falls back to "image" when nothing of the prompt is ASCII', () => {
    assert.equal(slugify('日本の山の夕焼け'), 'image');
    assert.equal(slugify('!!!'), 'image');
    assert.equal(slugify(''), 'image');
  });

  it('keeps slugs short and cuts at a word boundary', () => {
    const slug = slugify('a watercolor painting of a lighthouse on a rocky coast at dawn with seagulls');
    assert.ok(slug.length <= 40, slug);
    assert.equal(slug, 'a-watercolor-painting-of-a-lighthouse-on'); // 40 chars, ends on a word
    assert.equal(slugify('a watercolor painting of a lighthousekeeper'), 'a-watercolor-painting-of-a'); // not mid-word
    assert.ok(!slug.endsWith('-'));
    // one very long word is cut hard
    assert.equal(slugify('x'.repeat(100)), 'x'.repeat(40));
  });

  it('stamps local time as YYYYMMDD-HHMMSS', () => {
    assert.equal(timestamp(new Date(2026, 10, 22, 10, 15, 30)), '20261122-101530');
    assert.equal(timestamp(new Date(2026, 0, 2, 3, 4, 5)), '20260102-030405');
  });

  it('builds slug-timestamp-index names', () => {
    assert.equal(imageBaseName('Sunset over mountains', new Date(2026, 10, 22, 10, 15, 30), 2), 'sunset-over-mountains-20261122-101530-2');
  });

  it('offers base.ext first, then -2, -3 ... suffixes', () => {
    const it = candidateNames('x', 'png');
    assert.deepEqual([it.next().value, it.next().value, it.next().value], ['x.png', 'x-2.png', 'x-3.png']);
  });

  it('never picks a name that exists or that this run already took', async () => {
    const onDisk = new Set(['x.png', 'x-2.png']);
    const reserved = new Set<string>();
    const exists = async (n: string) => onDisk.has(n);
    assert.equal(await pickFreeName('x', 'png', exists, reserved), 'x-3.png');
    assert.equal(await pickFreeName('x', 'png', exists, reserved), 'x-4.png');
    // case-insensitive reservation: X.PNG and x.png are one file on some disks
    const r2 = new Set<string>(['y.png']);
    assert.equal(await pickFreeName('Y', 'PNG', async () => false, r2), 'Y-2.PNG');
  });

  it('gives up instead of overwriting when every candidate is taken', async () => {
    await assert.rejects(
      pickFreeName('x', 'png', async () => true),
      /No free file name/,
    );
  });
});
