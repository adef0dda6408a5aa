// The language of a block against the file's (src/workspaceEdits/apply/blockLanguages.ts).
import * as assert from 'node:assert/strict';
import { languageIdOfFence, languageIdOfPath, languagesCompatible } from '../../../../src/workspaceEdits/apply/blockLanguages';

describe('apply: the language of a block (pure)', () => {
  describe('languages', () => {
    it('maps fence names and extensions to VS Code ids', () => {
      assert.equal(languageIdOfFence('ts'), 'typescript');
      assert.equal(languageIdOfFence('golang'), 'go');
      assert.equal(languageIdOfFence('go'), 'go');
      assert.equal(languageIdOfPath('src/a.tsx'), 'typescriptreact');
      assert.equal(languageIdOfPath('main.go'), 'go');
      assert.equal(languageIdOfPath('README'), undefined);
    });
    it('a Go block into a TypeScript file is a mismatch; JS into TS, unknown or plain text are not', () => {
      assert.equal(languagesCompatible('go', 'typescript'), false);
      assert.equal(languagesCompatible('python', 'javascript'), false);
      assert.equal(languagesCompatible('javascript', 'typescript'), true);
      assert.equal(languagesCompatible('typescript', 'typescript'), true);
      assert.equal(languagesCompatible(undefined, 'typescript'), true);
      assert.equal(languagesCompatible('plaintext', 'go'), true);
      assert.equal(languagesCompatible('json', 'jsonc'), true);
    });
  });
});
