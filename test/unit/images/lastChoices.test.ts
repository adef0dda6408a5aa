import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { ModelCatalogue, type ImageModelInfo } from '../../../src/core/catalogue/modelCatalogue';
import { defaultChoices } from '../../../src/images/imageOptions';
import { LAST_CHOICES_KEY, LastImageChoices } from '../../../src/images/lastChoices';

/** globalState is a key-value store; this one keeps values in a Map, as VS Code keeps them in a file. */
class MapMemento implements vscode.Memento {
  readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }
  async update(key: string, value: unknown): Promise<void> {
    // VS Code stores JSON: a round trip drops what JSON cannot hold.
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

const catalogue = ModelCatalogue.build({});
const restricted = catalogue.imageModel('image-restricted') as ImageModelInfo;
const small = catalogue.imageModel('image-small') as ImageModelInfo;

describe('images: last choices per model', () => {
  it('remembers choices per model and starts the next run there', async () => {
    const memento = new MapMemento();
    const last = new LastImageChoices(memento);
    await last.remember('image-small', { size: '512x512', n: 4 });
    await last.remember('image-restricted', { size: '1792x1024', n: 1, quality: 'hd', style: 'natural' });
    assert.deepEqual(defaultChoices(small, last.get('image-small')), { size: '512x512', n: 4 });
    assert.deepEqual(defaultChoices(restricted, last.get('image-restricted')), { size: '1792x1024', n: 1, quality: 'hd', style: 'natural' });
    await last.remember('image-small', { size: '256x256', n: 2 });
    assert.deepEqual(last.get('image-small'), { size: '256x256', n: 2 });
    assert.deepEqual(last.get('image-restricted')?.quality, 'hd', 'other models keep theirs');
  });

  it('keeps only option values under its key (no prompt, nothing secret)', async () => {
    const memento = new MapMemento();
    await new LastImageChoices(memento).remember('image-small', { size: '256x256', n: 2 });
    assert.deepEqual(memento.keys(), [LAST_CHOICES_KEY]);
    assert.deepEqual(memento.get(LAST_CHOICES_KEY), { 'image-small': { size: '256x256', n: 2 } });
  });

  it('ignores a corrupt stored value instead of failing', async () => {
    const memento = new MapMemento();
    await memento.update(LAST_CHOICES_KEY, 'garbage');
    const last = new LastImageChoices(memento);
    assert.equal(last.get('image-small'), undefined);
    await last.remember('image-small', { size: '256x256', n: 1 });
    assert.deepEqual(last.get('image-small'), { size: '256x256', n: 1 });
  });
});
