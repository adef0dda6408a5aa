// What the manifest promises a newcomer: "Generate Image Here" only where an
// image can be linked (Markdown and HTML editors, not every .ts file), a walkthrough whose steps
// each show their own picture (shipped in the package) and tick only on what the step asks.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: {
    menus: Record<string, { command: string; when?: string }[]>;
    keybindings: { command: string }[];
    walkthroughs: { steps: { id: string; media: { svg?: string; image?: string }; completionEvents?: string[] }[] }[];
  };
};

describe('packaging: manifest', () => {
  it('"Generate Image Here" is in the editor context menu of Markdown and HTML files only', () => {
    const entry = manifest.contributes.menus['editor/context']!.find((m) => m.command === 'modelgate.generateImage');
    assert.ok(entry, 'still in the editor context menu');
    assert.equal(entry.when, 'resourceLangId == markdown || resourceLangId == html');
  });

  it('each walkthrough step has a picture of its own, shipped in the package; a step ticks on what it changes, never on opening its command (cancelled)', () => {
    const steps = manifest.contributes.walkthroughs[0]!.steps;
    const media = steps.map((s) => s.media.svg ?? s.media.image);
    assert.equal(new Set(media).size, steps.length, `one picture per step: ${media.join(', ')}`);
    const shipped = readFileSync(join(root, '.vscodeignore'), 'utf8');
    for (const m of media) {
      assert.ok(existsSync(join(root, m!)), m);
      assert.match(shipped, /^!media\/walkthrough\/\*\.svg$/m, 'the pictures are in the .vsix allow-list');
    }
    // a step's button whose command has a keybinding gets VS Code's "Tip: Use keyboard shortcut"
    // line, which does not wrap and was cut in the step column beside the pictures (spend e2e,
    // 1440 px): such buttons pass an empty argument list, which VS Code looks up as no keybinding
    const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const bound = new Set(manifest.contributes.keybindings.map((k) => k.command));
    for (const step of steps) {
      const text = nls[`walkthrough.${step.id}.description`] ?? '';
      for (const [, command] of text.matchAll(/^\[[^\]]+\]\(command:([\w.]+)\)$/gm))
        assert.ok(!bound.has(command!), `${step.id}: the button of ${command} shows a shortcut tip`);
    }
    // running a step's command and cancelling it is not doing the step (the picker, the address
    // box, the key box): each ticks on what the step changes
    for (const step of steps)
      assert.deepEqual(
        step.completionEvents?.filter((e) => e.startsWith('onCommand:')),
        [],
        `${step.id}: running its command is not doing the step`,
      );
  });
});
