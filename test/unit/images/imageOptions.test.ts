import * as assert from 'node:assert/strict';
import { BUILTIN_MODELS, ModelCatalogue, type ImageModelInfo } from '../../../src/core/catalogue/modelCatalogue';
import { buildImageRequest } from '../../../src/images/imageRequest';
import { allowedText, defaultChoices, describeRejectedOption, optionSpace, validateChoices } from '../../../src/images/imageOptions';

const catalogue = ModelCatalogue.build({});
const restricted = catalogue.imageModel('image-restricted') as ImageModelInfo;
const small = catalogue.imageModel('image-small') as ImageModelInfo;

describe('images: options per model, from the catalogue', () => {
  it("the catalogue has the gateway's two image models", () => {
    assert.ok(restricted && small);
    assert.equal(BUILTIN_MODELS.filter((m) => m.kind === 'image').length, 2);
  });

  it('restricted model: n = 1 only, no 256/512, quality and style', () => {
    const space = optionSpace(restricted);
    assert.deepEqual(space.sizes, ['1024x1024', '1792x1024', '1024x1792']);
    assert.deepEqual(space.counts, [1]);
    assert.deepEqual(space.qualities, ['standard', 'hd']);
    assert.deepEqual(space.styles, ['vivid', 'natural']);
  });

  it('small model: 256/512/1024, n up to 10, no quality or style', () => {
    const space = optionSpace(small);
    assert.deepEqual(space.sizes, ['256x256', '512x512', '1024x1024']);
    assert.deepEqual(space.counts, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.equal(space.qualities, undefined);
    assert.equal(space.styles, undefined);
  });

  it('follows a catalogue override from settings', () => {
    const c = ModelCatalogue.build({ overrides: { 'my-img': { kind: 'image', sizes: ['1024x1792', '512x512'], maxN: 3, quality: true } } });
    const space = optionSpace(c.imageModel('my-img') as ImageModelInfo);
    assert.deepEqual(space.sizes, ['512x512', '1024x1792']); // the gateway's order
    assert.deepEqual(space.counts, [1, 2, 3]);
    assert.deepEqual(space.qualities, ['standard', 'hd']);
    assert.equal(space.styles, undefined);
  });

  it("pre-selects the last choices while they are still allowed, else the gateway's defaults", () => {
    assert.deepEqual(defaultChoices(restricted), { size: '1024x1024', n: 1, quality: 'standard', style: 'vivid' });
    assert.deepEqual(defaultChoices(restricted, { size: '1792x1024', quality: 'hd', style: 'natural', n: 4 }), {
      size: '1792x1024',
      n: 1,
      quality: 'hd',
      style: 'natural',
    });
    assert.deepEqual(defaultChoices(small, { size: '1792x1024', n: 3, quality: 'hd' }), { size: '1024x1024', n: 3 });
    assert.deepEqual(defaultChoices(small, { size: '256x256', n: 'many' }), { size: '256x256', n: 1 });
  });

  it('validates requested options and lists what is allowed', () => {
    assert.deepEqual(validateChoices(restricted, {}), { ok: true, choices: { size: '1024x1024', n: 1 } });
    assert.deepEqual(validateChoices(restricted, { size: '1024x1792', quality: 'hd', style: 'natural' }), {
      ok: true,
      choices: { size: '1024x1792', n: 1, quality: 'hd', style: 'natural' },
    });
    assert.deepEqual(validateChoices(small, { size: '512x512', n: 4 }), { ok: true, choices: { size: '512x512', n: 4 } });

    const n2 = validateChoices(restricted, { n: 2 });
    assert.equal(n2.ok, false);
    assert.match(!n2.ok ? n2.problems.join() : '', /n = 2 .*image-restricted.*allowed: only 1/);

    const wide = validateChoices(small, { size: '1792x1024' });
    assert.match(!wide.ok ? wide.problems.join() : '', /size “1792x1024”.*allowed: 256x256, 512x512, 1024x1024/);

    const q = validateChoices(small, { quality: 'hd', style: 'vivid', n: 11 });
    assert.equal(!q.ok && q.problems.length, 3);
    assert.match(!q.ok ? q.problems.join('|') : '', /quality is not supported by image-small/);
    assert.match(!q.ok ? q.problems.join('|') : '', /style is not supported by image-small/);
    assert.match(!q.ok ? q.problems.join('|') : '', /allowed: 1 to 10/);

    const bad = validateChoices(restricted, { quality: 'ultra', size: '256x256', n: 1.5 });
    assert.equal(!bad.ok && bad.problems.length, 3);
    assert.match(!bad.ok ? bad.problems.join('|') : '', /allowed: standard, hd/);
  });

  it('describes allowed values in words', () => {
    assert.equal(allowedText(restricted, 'n'), 'only 1');
    assert.equal(allowedText(small, 'quality'), 'not supported by this model');
    assert.equal(allowedText(restricted, 'style'), 'vivid, natural');
  });

  it('names the rejected option and what the catalogue allows', () => {
    const msg = describeRejectedOption(small, { size: '512x512', n: 4 }, { param: 'size', serverMessage: 'Invalid size for this model.' });
    assert.ok(msg);
    assert.match(msg, /rejected size “512x512” for image-small/);
    assert.match(msg, /gateway said: Invalid size for this model\./);
    assert.match(msg, /allows size: 256x256, 512x512, 1024x1024/);
    const fromWords = describeRejectedOption(restricted, { size: '1024x1024', n: 1 }, { serverMessage: 'n must be 1 for this model' });
    assert.match(fromWords ?? '', /rejected n = 1 .*allows n: only 1/);
    assert.equal(describeRejectedOption(small, { size: '256x256', n: 1 }, { param: 'prompt', serverMessage: 'prompt too long' }), undefined);
    assert.equal(describeRejectedOption(small, { size: '256x256', n: 1 }, { serverMessage: 'content policy violation' }), undefined);
  });
});

describe('images: a model whose rules the catalogue does not know', () => {
  const listed = ModelCatalogue.build({ gatewayIds: ['image-gateway-only'] }).imageModel('image-gateway-only') as ImageModelInfo;

  it('a gateway-listed image model is marked as of unknown rules', () => {
    assert.equal(listed.rulesUnknown, true);
    assert.equal(restricted.rulesUnknown, undefined);
  });

  it('the options asked for are kept (not cut to one size and n = 1)', () => {
    const r = validateChoices(listed, { size: '512x512', n: 3, quality: 'hd', style: 'natural' });
    assert.deepEqual(r, { ok: true, choices: { size: '512x512', n: 3, quality: 'hd', style: 'natural' } });
    assert.deepEqual(buildImageRequest(listed, 'p', { size: '512x512', n: 3, quality: 'hd', style: 'natural' }), {
      model: 'image-gateway-only',
      prompt: 'p',
      n: 3,
      size: '512x512',
      quality: 'hd',
      style: 'natural',
    });
  });

  it('values the gateway does not define are still refused before any request', () => {
    const r = validateChoices(listed, { size: '333x333', n: 11, quality: 'ultra' });
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.problems.length, 3);
  });

  it('a rejection names the gateway answer and how to pin the rules', () => {
    const text = describeRejectedOption(listed, { size: '512x512', n: 3 }, { param: 'n', serverMessage: 'n must be at most 2.' });
    assert.match(text ?? '', /rejected n = 3 for image-gateway-only\. The gateway said: n must be at most 2\./);
    assert.match(text ?? '', /does not know this model's rules/);
  });
});
