// Every user-visible string of package.json goes through package.nls.json: a contributed title,
// description, markdownDescription, enumDescription, name, displayName, altText or walkthrough
// text that is not a %key% fails here, as does a %key% with no entry in package.nls.json.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../harness/paths';

const VISIBLE = new Set([
  'title',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'name',
  'displayName',
  'altText',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'label',
  'contextualTitle',
  'shortTitle',
]);

/** [json path, value] of every visible string under `node`. */
export function visibleStrings(node: unknown, path: string[] = [], out: [string, string][] = []): [string, string][] {
  if (Array.isArray(node)) node.forEach((v, i) => visibleStrings(v, [...path, String(i)], out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      // A language model tool's `name` is its id, and its `inputSchema` is read by models, not users
      // (like its modelDescription): neither is translated.
      if (path.at(-2) === 'languageModelTools' && (k === 'name' || k === 'inputSchema')) continue;
      // Keys of the configuration properties are setting ids, not text.
      if (VISIBLE.has(k) && typeof v === 'string') out.push([[...path, k].join('.'), v]);
      else if (VISIBLE.has(k) && Array.isArray(v)) v.forEach((s, i) => typeof s === 'string' && out.push([[...path, k, String(i)].join('.'), s]));
      else visibleStrings(v, [...path, k], out);
    }
  }
  return out;
}

const root = repoRoot();
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const isKey = (s: string) => /^%[\w.-]+%$/.test(s);

describe('l10n: package.json strings go through package.nls.json', () => {
  const strings = [
    ['displayName', manifest.displayName as string],
    ['description', manifest.description as string],
    ...visibleStrings(manifest.contributes, ['contributes']),
    ...visibleStrings(manifest.capabilities, ['capabilities']),
  ] as [string, string][];

  it('finds the contributed strings (commands, settings, walkthrough)', () => {
    assert.ok(strings.some(([p]) => /^contributes\.commands\.\d+\.title$/.test(p)));
    assert.ok(strings.some(([p]) => /markdownDescription$/.test(p)));
    assert.ok(strings.some(([p]) => /^contributes\.walkthroughs\.0\.steps\.\d+\.description$/.test(p)));
    assert.ok(strings.some(([p]) => /enumDescriptions\.\d+$/.test(p)));
  });

  it('every one is a %key% with an entry in package.nls.json', () => {
    const literal = strings.filter(([, v]) => !isKey(v)).map(([p, v]) => `${p}: ${JSON.stringify(v.slice(0, 60))}`);
    assert.deepEqual(literal, [], 'user-visible strings written into package.json instead of package.nls.json');
    const missing = strings.filter(([, v]) => isKey(v) && !(v.slice(1, -1) in nls)).map(([p, v]) => `${p}: ${v}`);
    assert.deepEqual(missing, [], '%key%s without a package.nls.json entry');
  });

  it('the check catches a literal string', () => {
    const found = visibleStrings({ commands: [{ command: 'x', title: 'Literal' }], walkthroughs: [{ steps: [{ description: 'Also literal' }] }] });
    assert.deepEqual(found.filter(([, v]) => !isKey(v)).length, 2);
  });
});
