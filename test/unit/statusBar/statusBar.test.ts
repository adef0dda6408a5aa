// The status bar's cost of the last request (src/statusBar/statusBar.ts) with a `vscode` stand-in:
// after a request that used another model than the one shown (VS Code's Chat, another extension,
// an image), the cost is shown with the model that cost it, never beside the panel's model alone.
import * as assert from 'node:assert/strict';
import { installVscodeStub } from '../vscodeStub';

type StatusBar = typeof import('../../../src/statusBar/statusBar');

describe('statusBar: the last request’s cost names the model it used', () => {
  let bar: StatusBar;
  before(async () => {
    installVscodeStub();
    bar = await import('../../../src/statusBar/statusBar');
  });

  it('the shown model’s own cost goes bare; another model’s cost comes with that model; no cost, no text', () => {
    assert.equal(bar.lastCostText({ model: 'flagship-text', cost: 0.0042 }, 'flagship-text'), ' · $0.0042');
    assert.equal(bar.lastCostText({ model: 'long-context-tools', cost: 0.0042 }, 'flagship-text'), ' · long-context-tools $0.0042');
    assert.equal(bar.lastCostText({ model: 'long-context-tools', cost: undefined }, 'flagship-text'), '');
    assert.equal(bar.lastCostText(undefined, 'flagship-text'), '');
  });
});
