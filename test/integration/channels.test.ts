// Channels in the real extension host, against the gateway
// simulator with channels set to behave differently:
// - health: after a few requests on a fast, reliable channel and a slow, failing one, the channel
//   picker's figures order them as the simulator's own record does, and its error counts are the
//   simulator's (no timing assertion: orderings and counts only);
// - failover: with `fallbackChannels: ["stable"]` and `direct` answering 503, the answer comes
//   from `stable` once (no text twice), the usage names `stable`, the switch is noted once per
//   conversation, health counts the `direct` failures; the same through vscode.lm; a drop after
//   the first token is not retried on another channel.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatController } from '../../src/chat';
import type { PickerItemView } from '../../src/statusBar/modelChannelPicker';
import type { HostMessage } from '../../src/chat/protocol';
import { PRICE_CARD } from '../gateway/index';
import { answerText, config, lastAssistant, until, useModelgate } from './helpers';

const KEY = 'sk-channels-5e1d93a0c7';
const MODEL = 'flagship-text';

/** "p50 first token 0.8 s" / "42 ms" -> ms; "N errors in M" -> counts. */
function figures(item: PickerItemView | undefined): { p50?: number; errors?: number; requests?: number; text: string } {
  const text = item?.detail ?? '';
  const p50 = /p50 first token ([\d.]+) (ms|s)\b/.exec(text);
  const errors = /(\d+) errors? in (\d+)/.exec(text);
  return {
    text,
    p50: p50 ? Number(p50[1]) * (p50[2] === 's' ? 1000 : 1) : undefined,
    errors: errors ? Number(errors[1]) : undefined,
    requests: errors ? Number(errors[2]) : undefined,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] as number;

describe('channels: health and failover (real VS Code, gateway simulator)', function () {
  this.timeout(120_000);
  const byChannel = PRICE_CARD.chat[MODEL]!;
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: { 'chat.model': MODEL, models: { [MODEL]: { prices: { default: byChannel.stable, ...byChannel } } } },
    restores: ['channel', 'fallbackChannels'],
    ready: (api) => api.settings().chatModel === MODEL && api.catalogue().price(MODEL, 'economical')?.input === byChannel.economical.input,
    key: KEY,
    chat: true,
  });
  let posts: HostMessage[] = [];
  let subscription: vscode.Disposable | undefined;
  const chat = (): ChatController => mg.api.chat.controller;
  const row = (channel: string) => mg.api.channelPickerItems().find((i) => i.label.endsWith(channel));
  const channelsAsked = () =>
    mg.gw.requests
      .filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'))
      .map((r) => (r.body as { provider?: { channel?: string } }).provider?.channel ?? 'default');
  const record = (channel: string) => mg.gw.channelRecord().find((r) => r.model === MODEL && r.channel === channel);

  async function setChannel(channel: string): Promise<void> {
    await config().update('channel', channel, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().channel === channel, `channel = ${channel}`);
  }

  async function setFallback(channels: string[] | undefined): Promise<void> {
    await config().update('fallbackChannels', channels, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().fallbackChannels.join() === (channels ?? []).join(), `fallbackChannels = ${channels?.join() ?? '[]'}`);
  }

  beforeEach(async () => {
    mg.gw.reset();
    await vscode.commands.executeCommand('modelgate.resetChannelHealth');
    await chat().newChat();
    subscription?.dispose();
    posts = [];
    subscription = chat().onDidPost((m) => posts.push(m));
  });

  afterEach(async () => {
    if (chat().busy) chat().stop();
    await chat().whenIdle();
    subscription?.dispose();
  });

  it('shows measured health per channel in the picker, ordered as the simulator’s own record, with its error counts', async () => {
    // direct: quick and reliable; economical: slow first token and often failing. Seeded: with
    // the simulator's default seed this sequence fails 3 economical attempts of 9.
    mg.gw.setChannel('direct', { firstTokenMs: 15, perChunkMs: 1, failureRate: 0 });
    mg.gw.setChannel('economical', { firstTokenMs: 600, perChunkMs: 1, failureRate: 0.4, failureStatus: 503 });
    for (const s of mg.api.channelPickerItems()) assert.match(s.detail ?? '', /not measured yet$/, `before any request: ${s.label}`);
    for (const channel of ['direct', 'economical']) {
      await setChannel(channel);
      for (let i = 0; i < 6; i++) {
        await chat().newChat();
        await chat().send(`[[words:12]] health ${channel} ${i}`);
      }
    }
    const direct = figures(row('Direct'));
    const economical = figures(row('Economical'));
    // what the simulator itself did
    const simDirect = record('direct')!;
    const simEconomical = record('economical')!;
    assert.ok(simEconomical.failures > 0, 'the seeded error rate failed some economical requests');
    assert.equal(direct.requests, simDirect.requests, `direct requests: ${direct.text}`);
    assert.equal(direct.errors, simDirect.failures, `direct errors: ${direct.text}`);
    assert.equal(economical.requests, simEconomical.requests, `economical requests: ${economical.text}`);
    assert.equal(economical.errors, simEconomical.failures, `economical errors: ${economical.text}`);
    // orderings, never absolute times
    assert.ok(median(simDirect.firstTokenMs) < median(simEconomical.firstTokenMs), 'the simulator made direct the faster channel');
    assert.ok(direct.p50 !== undefined && economical.p50 !== undefined && direct.p50 < economical.p50, `picker: ${direct.text} | ${economical.text}`);
    assert.ok(direct.errors! / direct.requests! < economical.errors! / economical.requests!);
    // the price is whole, before the health figures; a channel not used says so
    const byChannel = PRICE_CARD.chat[MODEL]!;
    assert.ok(
      row('Economical')!.detail!.startsWith(`$${byChannel.economical.input} / $${byChannel.economical.output} per 1M (from your settings) · p50 first token `),
      row('Economical')!.detail,
    );
    assert.match(row('Stable')!.detail!, /^\$2 \/ \$8 per 1M \(from your settings\) · not measured yet$/);
    // the tooltip, per channel of the current model
    const tooltip = mg.api.statusBarTooltip();
    assert.match(tooltip, /Channel health/);
    assert.match(tooltip, /Direct: p50 first token [\d.]+ m?s · p90 /);
    assert.match(tooltip, new RegExp(`Economical\\*\\*: p50 first token .* ${economical.errors} errors? in ${economical.requests} \\(last: server 503\\)`));
    assert.match(tooltip, /Stable: not measured yet/);
  });

  it('fails over from direct (503) to stable before content: the answer once, usage names stable, noted once, the direct failures counted', async () => {
    await setChannel('direct');
    await setFallback(['stable']);
    mg.gw.setChannel('direct', { failureRate: 1, failureStatus: 503 });
    try {
      await chat().send('[[echo]] alpha beta gamma delta epsilon');
      const a = await lastAssistant(chat());
      assert.equal(a.status, 'done', a.error?.message);
      assert.equal(answerText(a), 'alpha beta gamma delta epsilon', 'the answer, once');
      const streamed = posts.flatMap((p) => (p.type === 'textDelta' ? [p.text] : [])).join('');
      assert.equal(streamed, 'alpha beta gamma delta epsilon', 'no text streamed twice');
      assert.equal(a.channel, 'stable', 'the answer names the channel that served it');
      const finished = posts.find((p): p is Extract<HostMessage, { type: 'messageFinished' }> => p.type === 'messageFinished');
      assert.equal(finished?.channel, 'stable');
      assert.equal(mg.api.lastUsage()?.channel, 'stable');
      const price = PRICE_CARD.chat[MODEL]!.stable;
      assert.ok(
        a.usage?.cost !== undefined && Math.abs(a.usage.cost - (a.usage.promptTokens * price.input + a.usage.completionTokens * price.output) / 1e6) < 1e-12,
        'priced at stable',
      );
      assert.deepEqual(channelsAsked(), ['direct', 'direct', 'direct', 'stable']);
      const notes = () => posts.filter((p) => p.type === 'notice' && /came from stable/.test(p.message));
      assert.equal(notes().length, 1, 'the switch is noted');
      // the first answer of a new conversation: nothing was cached anywhere, so no word about a cache
      assert.match((notes()[0] as { message: string }).message, /direct \(server 503\) failed before answering/);
      assert.doesNotMatch((notes()[0] as { message: string }).message, /cache/);
      // the health counts the direct failures, as the simulator does
      await until(() => figures(row('Direct')).errors === 3, `direct errors: ${row('Direct')?.detail}`);
      assert.equal(record('direct')!.failures, 3);
      assert.equal(figures(row('Stable')).errors, 0);
      // the same conversation switches again: not noted again
      await chat().send('[[echo]] zeta eta');
      assert.equal(answerText(await lastAssistant(chat())), 'zeta eta');
      assert.equal(notes().length, 1, 'noted once per conversation');
      assert.equal(posts.filter((p) => p.type === 'notice' && p.level === 'error').length, 0);
      // a conversation whose first answer came from direct (its cache is there): the failover note says what the cache loss cost
      await chat().newChat();
      mg.gw.setChannel('direct', { failureRate: 0 });
      await chat().send('[[echo]] theta');
      assert.equal((await lastAssistant(chat())).channel, 'direct');
      mg.gw.setChannel('direct', { failureRate: 1, failureStatus: 503 });
      await chat().send('[[echo]] iota');
      assert.equal((await lastAssistant(chat())).channel, 'stable');
      assert.equal(notes().length, 2, 'the new conversation is noted');
      assert.match((notes()[1] as { message: string }).message, /prompt tokens were billed uncached on stable/);
    } finally {
      await setFallback(undefined);
    }
  });

  it('fails over for another extension through vscode.lm too', async function () {
    if (typeof vscode.lm?.selectChatModels !== 'function') this.skip();
    await setChannel('direct');
    await setFallback(['stable']);
    mg.gw.setChannel('direct', { failureRate: 1, failureStatus: 503 });
    try {
      const [m] = await vscode.lm.selectChatModels({ vendor: 'modelgate', id: MODEL });
      assert.ok(m);
      const response = await m.sendRequest([vscode.LanguageModelChatMessage.User('[[echo]] one two three')], {}, new vscode.CancellationTokenSource().token);
      let text = '';
      for await (const part of response.text) text += part;
      assert.equal(text, 'one two three');
      assert.deepEqual(channelsAsked(), ['direct', 'direct', 'direct', 'stable']);
      await until(() => mg.api.lastUsage()?.channel === 'stable', 'usage recorded on stable');
      await until(() => figures(row('Direct')).errors === 3, `direct errors: ${row('Direct')?.detail}`);
    } finally {
      await setFallback(undefined);
    }
  });

  it('does not retry on another channel once the first token arrived', async () => {
    await setChannel('direct');
    await setFallback(['stable']);
    try {
      mg.gw.injectFault({ kind: 'drop', afterChunks: 2 });
      await chat().send('[[words:40]] cut off');
      const a = await lastAssistant(chat());
      assert.equal(a.status, 'error');
      assert.ok(answerText(a).length > 0, 'the partial answer is kept');
      assert.equal(a.channel, 'direct');
      assert.deepEqual(channelsAsked(), ['direct'], 'nothing was sent to stable');
      assert.equal(posts.filter((p) => p.type === 'notice' && /came from/.test(p.message)).length, 0);
      await until(() => figures(row('Direct')).errors === 1, `direct errors: ${row('Direct')?.detail}`);
    } finally {
      await setFallback(undefined);
    }
  });

  describe('the model/channel picker', () => {
    // VS Code has no API to read a context key: the walkthrough's `modelgate.pickedModel` is set
    // by extension.ts exactly when the picker command resolves true, so each case checks that result.
    const OTHER = 'long-context-tools'; // not the first row, so "opens on the current model" is not "opens on the first row"
    const picker = () => Promise.resolve(vscode.commands.executeCommand<boolean>('modelgate.pickModelOrChannel'));
    const active = (label: string | RegExp, what: string) =>
      until(() => {
        const row = mg.api.pickerActiveRow();
        return row !== undefined && (typeof label === 'string' ? row === label : label.test(row)) ? row : undefined;
      }, `${what} (active row: ${mg.api.pickerActiveRow()})`);
    const closeUntil = async (run: Promise<boolean | undefined>) => {
      // Escape whatever the row opened (an input box) or the picker itself until the command ends
      let done = false;
      void run.finally(() => (done = true));
      await until(async () => {
        if (done) return true;
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        await new Promise((r) => setTimeout(r, 200));
        return done;
      }, 'the picker command to end');
      return run;
    };

    beforeEach(async () => {
      await config().update('chat.model', OTHER, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().chatModel === OTHER, `chat.model = ${OTHER}`);
      await setChannel('economical');
    });
    afterEach(async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await config().update('chat.model', MODEL, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().chatModel === MODEL, `chat.model = ${MODEL}`);
    });

    it('opens on the current model, so Enter changes nothing (never "Change API Key…")', async () => {
      const run = picker();
      await active(`$(check) ${OTHER}`, 'the picker open on the current model');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      assert.equal(await run, true, 'Enter picked the current model');
      assert.equal(mg.api.settings().chatModel, OTHER);
      assert.equal(mg.api.settings().channel, 'economical');
    });

    it('ends with the Gateway section: "Change API Key…", then "Use in VS Code\'s Chat…"; neither counts as a pick, nor does Escape', async () => {
      // Escape
      let run = picker();
      await active(`$(check) ${OTHER}`, 'the picker open');
      assert.equal(await closeUntil(run), false, 'Escape picked nothing');
      // the last rows
      run = picker();
      await active(`$(check) ${OTHER}`, 'the picker open');
      await vscode.commands.executeCommand('quickInput.last');
      await active(/Use in VS Code's Chat…$/, "the last row: Use in VS Code's Chat…");
      await vscode.commands.executeCommand('quickInput.previous');
      await active(/\$\(key\) Change API Key…$/, 'the row before it: Change API Key…');
      await vscode.commands.executeCommand('quickInput.previous');
      // before the Gateway section: the channels (or the reasoning effort), never a model
      const before = await active(/^\$\((check|blank)\) /, 'the row before the Gateway section');
      assert.doesNotMatch(before, /flagship-text|long-context-tools/, before);
      // "Change API Key…" runs Set API Key (its input box is then escaped): no pick
      await vscode.commands.executeCommand('quickInput.next');
      await active(/Change API Key…$/, 'Change API Key… active');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      assert.equal(await closeUntil(run), false, '"Change API Key…" is not a model pick');
      assert.ok(await mg.api.hasKey(), 'the key is kept');
      // "Use in VS Code's Chat…" runs "Modelgate: Use in VS Code Chat" (its question answered "Don't Change" here): no pick
      let asked = 0;
      mg.api.useInVsCodeChatPrompts({ confirm: async () => (asked++, false), notify: async () => undefined, chatOpened: () => asked++ });
      run = picker();
      await active(`$(check) ${OTHER}`, 'the picker open');
      await vscode.commands.executeCommand('quickInput.last');
      await active(/Use in VS Code's Chat…$/, "Use in VS Code's Chat… active");
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      assert.equal(await closeUntil(run), false, '"Use in VS Code\'s Chat…" is not a model pick');
      await until(() => asked > 0 || undefined, 'Use in VS Code Chat ran');
      mg.api.useInVsCodeChatPrompts(undefined);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      assert.equal(mg.api.settings().chatModel, OTHER);
      assert.equal(mg.api.settings().channel, 'economical');
    });

    it('choosing another model is a pick', async () => {
      const run = picker();
      await active(`$(check) ${OTHER}`, 'the picker open');
      await vscode.commands.executeCommand('quickInput.first');
      await active(`$(blank) ${MODEL}`, `${MODEL} active`);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      assert.equal(await run, true, 'a model was picked');
      await until(() => mg.api.settings().chatModel === MODEL, `chat.model = ${MODEL}`);
      assert.equal(mg.api.settings().channel, 'economical');
    });
  });

  it('says clearly what is wrong with a bad fallbackChannels value', async () => {
    await config().update('fallbackChannels', ['stable', 'warp'], vscode.ConfigurationTarget.Global);
    try {
      await until(() => mg.api.settings().problems.some((p) => p.includes('fallbackChannels')), 'a settings problem');
      const problem = mg.api.settings().problems.find((p) => p.includes('fallbackChannels'))!;
      assert.match(problem, /"warp", which is not a channel; allowed: direct, stable, economical\. Using stable\./);
      assert.deepEqual(mg.api.settings().fallbackChannels, ['stable']);
    } finally {
      await setFallback(undefined);
    }
  });
});
