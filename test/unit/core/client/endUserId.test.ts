import * as assert from 'node:assert/strict';
import { checkEndUserId, END_USER_ID_MAX } from '../../../../src/core/client/endUserId';

describe('core: the end-user id (modelgate.endUserId, the image request `user`)', () => {
  it('unset, null, empty or blank: no id, nothing to send', () => {
    for (const raw of [undefined, null, '', '   ']) assert.deepEqual(checkEndUserId(raw, 'x'), { ok: true, value: undefined });
  });

  it('a plain id is kept, trimmed', () => {
    assert.deepEqual(checkEndUserId('  team-a/alice@example.org ', 'x'), { ok: true, value: 'team-a/alice@example.org' });
    assert.deepEqual(checkEndUserId('ユーザー42', 'x'), { ok: true, value: 'ユーザー42' });
    assert.equal(checkEndUserId('a'.repeat(END_USER_ID_MAX), 'x').ok, true);
  });

  const refused = (raw: unknown, pattern: RegExp) => {
    const r = checkEndUserId(raw, '"modelgate.endUserId"');
    assert.equal(r.ok, false, `refused: ${JSON.stringify(raw)}`);
    if (!r.ok) {
      assert.match(r.problem, /^"modelgate\.endUserId" /, 'names the setting');
      assert.match(r.problem, pattern);
      if (typeof raw === 'string' && raw.length > 3) assert.equal(r.problem.includes(raw.trim()), false, 'never echoes the value');
    }
  };

  it('refuses what cannot be an id, saying why, without echoing it', () => {
    refused(42, /must be a string.*not number/);
    refused({ id: 'x' }, /must be a string.*not object/);
    refused('a'.repeat(END_USER_ID_MAX + 1), new RegExp(`${END_USER_ID_MAX + 1} characters long; at most ${END_USER_ID_MAX}`));
    refused('alice\nbob', /line breaks or control characters/);
    refused('alice\u0000', /control characters/);
    refused('alice\u2028bob', /line breaks/);
  });

  it('refuses an API key pasted into the wrong field', () => {
    refused('sk-abcdefgh12345678', /looks like an API key/);
    refused('Bearer sk-abcdefgh12345678', /looks like an API key/);
    assert.equal(checkEndUserId('sk-team', 'x').ok, true, 'a short id that merely starts with sk- is fine');
  });
});
