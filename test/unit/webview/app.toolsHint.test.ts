// The composer's "tools are off" hint shows the host's reason once: the reason (turnContext.ts)
// is already a whole sentence starting "Workspace tools are off:", and the composer used to put
// that prefix in front again ("Workspace tools are off: Workspace tools are off: ...").
import * as assert from 'node:assert/strict';
import type { ComposerState, HostMessage } from '../../../src/chat/protocol';
import { toolOffer } from '../../../src/chat/context/turnContext';
import { startChatApp } from '../../../src/webview/app';
import { newWindow } from './jsdomEnv';

describe('chat panel: the tools-off hint', () => {
  it('shows the reason the host gives, once', () => {
    const reason = toolOffer({ id: 'm', tools: true } as never, false, 8, () => []).reason!;
    assert.match(reason, /^Workspace tools are off: /);
    const win = newWindow();
    const frames = { requestAnimationFrame: (cb: () => void) => (cb(), 1), cancelAnimationFrame: () => {}, setTimeout: (cb: () => void) => (cb(), 1), clearTimeout: () => {} };
    startChatApp(win, { postMessage: () => {}, getState: () => undefined, setState: () => {} }, { frameHost: frames as never });
    const composer: ComposerState = { model: 'm', channel: 'stable', imageInput: false, attachments: [], contextTokens: 1, contextWindow: 1000, hasKey: true, toolsDisabledReason: reason };
    const snapshot: HostMessage = { type: 'snapshot', conversation: { id: 'c1', title: 'x', messages: [], draft: '', totalCost: 0 }, conversations: [{ id: 'c1', title: 'x', updatedAt: 1 }], composer, busy: false };
    win.dispatchEvent(new win.MessageEvent('message', { data: snapshot }));
    const hint = win.document.querySelector('.composer-hint')!;
    assert.equal(hint.textContent, reason);
  });
});
