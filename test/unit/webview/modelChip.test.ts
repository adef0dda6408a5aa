// The composer's model chip (src/webview/modelChip.ts): what it shows and says. How it gives way
// at the default side-bar width is measured in the real layout by the contrast e2e suite (290 px).
import * as assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { elideMiddle, ModelChip, shortChannel } from '../../../src/webview/modelChip';

describe('model chip: name, channel icon and word, accessible name', () => {
  it('elides in the middle, keeping the end a little longer than the start', () => {
    assert.equal(elideMiddle('long-context-tools', 10), 'long-…tools');
    assert.equal(elideMiddle('long-context-tools', 11), 'long-…-tools');
    assert.equal(elideMiddle('flagship-text', 13), 'flagship-text');
    assert.equal(elideMiddle('flagship-text', 40), 'flagship-text');
    assert.equal(elideMiddle('flagship-text', 2), 'f…t');
  });

  it('abbreviates a long channel word where room is short, keeps the short ones whole', () => {
    assert.equal(shortChannel('economical'), 'econ.');
    for (const c of ['default', 'direct', 'stable']) assert.equal(shortChannel(c), c);
    assert.equal(shortChannel('experimental'), 'expe.');
  });

  it('shows the name, the channel with its icon, and says both in its name and tooltip', () => {
    const doc = new JSDOM('<body><div class="bar"></div></body>').window.document;
    const chip = new ModelChip(doc, () => undefined);
    doc.querySelector('.bar')!.append(chip.element);
    chip.set('flagship-text', 'economical');
    assert.equal(chip.element.querySelector('.model-name')?.textContent, 'flagship-text');
    assert.equal(chip.element.querySelector('.model-channel-text')?.textContent, 'economical');
    assert.ok(chip.element.querySelector('svg.channel-icon.channel-economical'), 'the channel has its icon');
    assert.equal(chip.element.getAttribute('aria-label'), 'Model flagship-text, channel economical');
    assert.equal(chip.element.title, 'Model flagship-text, channel economical. Pick the model or channel.');
    // without layout (jsdom) nothing is cut
    assert.ok(!chip.element.classList.contains('stacked'));
    // a channel the panel has no icon for keeps its word
    chip.set('flagship-text', 'nightly');
    assert.equal(chip.element.querySelector('.channel-icon'), null);
    assert.equal(chip.element.querySelector('.model-channel-text')?.textContent, 'nightly');
  });

  it('for a model that thinks, shows its reasoning effort beside the channel (auto when none is sent), and says it', () => {
    const doc = new JSDOM('<body><div class="bar"></div></body>').window.document;
    const chip = new ModelChip(doc, () => undefined);
    doc.querySelector('.bar')!.append(chip.element);
    chip.set('reasoner', 'stable', 'high');
    assert.equal(chip.element.querySelector('.model-effort-text')?.textContent, 'high');
    assert.ok(chip.element.querySelector('.model-meta .model-effort svg.effort-icon'), 'the effort has its icon, on the channel’s line');
    assert.equal(chip.element.getAttribute('aria-label'), 'Model reasoner, channel stable, reasoning effort high');
    assert.match(chip.element.title, /reasoning effort high\. Pick the model, channel or reasoning effort\.$/);
    chip.set('reasoner', 'stable', 'default');
    assert.equal(chip.element.querySelector('.model-effort-text')?.textContent, 'auto');
    assert.match(chip.element.getAttribute('aria-label')!, /reasoning effort the model’s default$/);
    // a model that does not think: no effort at all
    chip.set('flagship-text', 'stable');
    assert.equal(chip.element.querySelector('.model-effort'), null);
  });
});
