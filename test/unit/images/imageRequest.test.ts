import * as assert from 'node:assert/strict';
import { ModelCatalogue, type ImageModelInfo } from '../../../src/core/catalogue/modelCatalogue';
import { buildImageRequest, provenanceEntries } from '../../../src/images/imageRequest';

const catalogue = ModelCatalogue.build({});
const restricted = catalogue.imageModel('image-restricted') as ImageModelInfo;
const small = catalogue.imageModel('image-small') as ImageModelInfo;

describe('images: the wire request and the provenance text', () => {
  it('sends quality and style only to a model that has them', () => {
    assert.deepEqual(buildImageRequest(restricted, 'p', { size: '1792x1024', n: 1, quality: 'hd', style: 'natural' }), {
      model: 'image-restricted',
      prompt: 'p',
      n: 1,
      size: '1792x1024',
      quality: 'hd',
      style: 'natural',
    });
    // even if a caller slipped them in, the small model never gets them
    assert.deepEqual(buildImageRequest(small, 'p', { size: '256x256', n: 3, quality: 'hd', style: 'vivid' }), {
      model: 'image-small',
      prompt: 'p',
      n: 3,
      size: '256x256',
    });
  });

  it('sends response_format only when asked, and never a provider', () => {
    const b64 = buildImageRequest(small, 'p', { size: '256x256', n: 1 }, 'b64_json');
    assert.equal(b64.response_format, 'b64_json');
    assert.equal('response_format' in buildImageRequest(small, 'p', { size: '256x256', n: 1 }), false);
    assert.equal('provider' in b64, false);
  });

  it('sends `user` (the end-user id) only when there is one', () => {
    assert.equal(buildImageRequest(small, 'p', { size: '256x256', n: 1 }, undefined, 'team-a/alice').user, 'team-a/alice');
    assert.equal('user' in buildImageRequest(small, 'p', { size: '256x256', n: 1 }), false);
    assert.equal('user' in buildImageRequest(small, 'p', { size: '256x256', n: 1 }, undefined, ''), false);
  });

  it('keeps prompt, revised prompt, model, size and time', () => {
    const created = new Date(Date.UTC(2026, 10, 22, 10, 15, 30));
    assert.deepEqual(
      provenanceEntries({
        prompt: 'a cat',
        revisedPrompt: 'A fluffy cat.',
        model: 'image-restricted',
        choices: { size: '1024x1024', n: 1, quality: 'hd', style: 'vivid' },
        created,
      }),
      [
        ['Description', 'a cat'],
        ['Revised Prompt', 'A fluffy cat.'],
        ['Model', 'image-restricted'],
        ['Size', '1024x1024'],
        ['Quality', 'hd'],
        ['Style', 'vivid'],
        ['Creation Time', '2026-11-22T10:15:30.000Z'],
        ['Software', 'Modelgate'],
      ],
    );
    const plain = provenanceEntries({ prompt: 'a cat', revisedPrompt: 'a cat', model: 'image-small', choices: { size: '256x256', n: 2 }, created });
    assert.deepEqual(
      plain.map(([k]) => k),
      ['Description', 'Model', 'Size', 'Creation Time', 'Software'],
    );
  });
});
