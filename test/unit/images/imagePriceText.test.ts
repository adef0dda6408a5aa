// What the image command's questions say each choice costs: from the catalogue's per-image prices,
// never $0 for a model without one.
import * as assert from 'node:assert/strict';
import { ModelCatalogue, type ImageModelInfo } from '../../../src/core/catalogue/modelCatalogue';
import { choicePriceText, modelPriceText, requestCost, requestPriceText } from '../../../src/images/imagePriceText';

const priced = ModelCatalogue.build({
  overrides: {
    'image-restricted': { kind: 'image', prices: { standard: { '1024x1024': 0.04, '1792x1024': 0.08, '1024x1792': 0.08 }, hd: { '1024x1024': 0.08 } } },
    'image-small': { kind: 'image', prices: { standard: { '256x256': 0.016, '512x512': 0.018, '1024x1024': 0.02 } } },
  },
});
const restricted = priced.imageModel('image-restricted') as ImageModelInfo;
const small = priced.imageModel('image-small') as ImageModelInfo;
const unpriced = ModelCatalogue.build({}).imageModel('image-small') as ImageModelInfo;

describe('images: the price each question shows', () => {
  it('a model row: the range per image over its sizes and qualities, and says when some have none', () => {
    assert.equal(modelPriceText(small), '$0.016–$0.02 per image');
    // hd has only one size priced here: the range is honest about the rest
    assert.equal(modelPriceText(restricted), '$0.04–$0.08 per image (some sizes have no price known)');
    assert.equal(modelPriceText(unpriced), 'no price known');
  });

  it('a size or count row: per image, or the whole request, at each quality the model has', () => {
    assert.equal(choicePriceText(small, '512x512', 1), '$0.018 per image');
    assert.equal(choicePriceText(small, '1024x1024', 3), '$0.06 for 3 images');
    assert.equal(choicePriceText(restricted, '1024x1024', 1), '$0.04 standard · $0.08 hd per image');
    assert.equal(choicePriceText(restricted, '1792x1024', 1), '$0.08 standard · hd: no price known');
    assert.equal(choicePriceText(unpriced, '1024x1024', 2), 'no price known');
  });

  it('the whole request at a quality; no price is never $0', () => {
    assert.equal(requestPriceText(requestCost(restricted, '1024x1024', 1, 'hd'), 1), '$0.08 per image');
    assert.equal(requestPriceText(requestCost(small, '256x256', 2), 2), '$0.032 for 2 images');
    assert.equal(requestPriceText(requestCost(unpriced, '256x256', 2), 2), 'no price known');
  });
});
