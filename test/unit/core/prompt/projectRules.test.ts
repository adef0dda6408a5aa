// The project's rules files in the system message (src/core/prompt/projectRules.ts).
import * as assert from 'node:assert/strict';
import { capRulesText, RULES_HEADING, RULES_MAX_CHARS, systemPromptWithRules } from '../../../../src/core/prompt/projectRules';

describe('project rules in the system prompt', () => {
  it('no files: the base prompt unchanged (byte for byte)', () => {
    assert.equal(systemPromptWithRules('BASE', []), 'BASE');
  });

  it('files follow the base prompt in the order given, fenced so their content cannot close the fence', () => {
    const text = systemPromptWithRules('BASE', [
      { path: 'AGENTS.md', content: 'Use tabs.\n```\nnot a close\n```', truncated: false },
      { path: '.github/copilot-instructions.md', content: 'Be brief.', truncated: false },
    ]);
    assert.ok(text.startsWith(`BASE\n\n${RULES_HEADING}\n\nRules file: AGENTS.md\n\`\`\`\`markdown\nUse tabs.`));
    assert.ok(text.indexOf('AGENTS.md') < text.indexOf('.github/copilot-instructions.md'));
    assert.ok(text.endsWith('Rules file: .github/copilot-instructions.md\n```markdown\nBe brief.\n```'));
    assert.equal(
      text,
      systemPromptWithRules('BASE', [
        { path: 'AGENTS.md', content: 'Use tabs.\n```\nnot a close\n```', truncated: false },
        { path: '.github/copilot-instructions.md', content: 'Be brief.', truncated: false },
      ]),
      'the same files give the same bytes',
    );
  });

  it('a large file is capped with a note, never splitting a surrogate pair', () => {
    const big = capRulesText('x'.repeat(RULES_MAX_CHARS + 10));
    assert.equal(big.content.length, RULES_MAX_CHARS);
    assert.equal(big.truncated, true);
    const emoji = capRulesText(`${'x'.repeat(RULES_MAX_CHARS - 1)}😀tail`);
    assert.equal(emoji.content.length, RULES_MAX_CHARS - 1);
    assert.match(systemPromptWithRules('B', [{ path: 'AGENTS.md', ...big }]), /only its first 16000 characters/);
    assert.deepEqual(capRulesText('small'), { content: 'small', truncated: false });
  });
});
