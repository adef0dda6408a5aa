// src/core/l10n.ts: the vscode-free modules' l10n.t. Unwired it fills {n} placeholders in the
// English message; wired (extension.ts passes vscode.l10n.t) it hands over the message as the key.
import * as assert from 'node:assert/strict';
import { l10n, setTranslator } from '../../../src/core/l10n';
import { prepareImage } from '../../../src/core/prompt/imageInput';

describe('l10n: the translator of vscode-free modules', () => {
  afterEach(() => setTranslator(undefined));

  it('unwired, fills the placeholders of the English message', () => {
    assert.equal(l10n.t('{0} of {1}, {0} again', 'a', 2), 'a of 2, a again');
    assert.equal(l10n.t('no args {0}'), 'no args {0}');
    assert.equal(l10n.t('Plain.'), 'Plain.');
  });

  it('wired, passes the message (the bundle key) and the arguments to the translator', () => {
    const seen: unknown[][] = [];
    setTranslator((message, ...args) => (seen.push([message, ...args]), `DE:${message}`));
    assert.equal((prepareImage(new Uint8Array()) as { problem: string }).problem, 'DE:The image is empty.');
    assert.deepEqual(seen[0], ['The image is empty.']);
    setTranslator(undefined);
    assert.equal((prepareImage(new Uint8Array()) as { problem: string }).problem, 'The image is empty.');
  });
});
