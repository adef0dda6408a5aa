import * as assert from 'node:assert/strict';
import { chatCost, imageCost, PRICE_CARD } from '../prices';
import { chat, errorOf, images, useGateway, user } from './helpers';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

describe('gateway simulator: prepaid balance', function () {
  // Generous: the machine may be busy; no test asserts on timing.
  this.timeout(30_000);
  const ctx = useGateway({ keys: { 'sk-test': { balance: 100 }, 'sk-poor': { balance: 0.0001 }, 'sk-zero': { balance: 0 } } });

  it('charges a chat answer exactly what the price card says, per channel', async () => {
    for (const channel of ['direct', 'stable', 'economical'] as const) {
      const before = ctx.gw.balance('sk-test');
      const res = await chat(ctx.gw, { stream: false, provider: { channel }, messages: [user(`price check on ${channel}`)] });
      const body = (await res.json()) as { usage: Parameters<typeof chatCost>[2] };
      const expected = chatCost('flagship-text', channel, body.usage);
      close(before - ctx.gw.balance('sk-test'), expected);
      const p = PRICE_CARD.chat['flagship-text']![channel];
      close(expected, (body.usage.prompt_tokens * p.input + body.usage.completion_tokens * p.output) / 1e6);
    }
  });

  it('charges the default channel (no provider) at the stable price', async () => {
    const before = ctx.gw.balance('sk-test');
    const body = (await (await chat(ctx.gw, { stream: false, messages: [user('default channel')] })).json()) as { usage: Parameters<typeof chatCost>[2] };
    close(before - ctx.gw.balance('sk-test'), chatCost('flagship-text', 'stable', body.usage));
  });

  it('charges images per image by size and quality', async () => {
    const before = ctx.gw.balance('sk-test');
    const res = await images(ctx.gw, { size: '1792x1024', quality: 'hd', response_format: 'b64_json' });
    assert.equal(res.status, 200);
    close(before - ctx.gw.balance('sk-test'), 0.12);
    close(imageCost('image-restricted', 'hd', '1792x1024', 1)!, 0.12);
    const before2 = ctx.gw.balance('sk-test');
    await (await images(ctx.gw, { model: 'image-small', size: '256x256', n: 3, response_format: 'b64_json' })).json();
    close(before2 - ctx.gw.balance('sk-test'), 3 * 0.016);
  });

  it('answers 402 when the balance is used up, after a request took it below zero', async () => {
    const first = await chat(ctx.gw, { stream: false, messages: [user('[[long:20]]')] }, { key: 'sk-poor' });
    assert.equal(first.status, 200);
    assert.ok(ctx.gw.balance('sk-poor') < 0);
    const second = await chat(ctx.gw, { messages: [user('again')] }, { key: 'sk-poor' });
    assert.equal(second.status, 402);
    assert.deepEqual(await errorOf(second), {
      message: 'Insufficient balance. Top up in the console.',
      type: 'insufficient_quota',
      param: null,
      code: 'insufficient_balance',
    });
    const img = await images(ctx.gw, {}, { key: 'sk-poor' });
    assert.equal(img.status, 402);
  });

  it('answers 402 for a zero balance and recovers after setBalance()', async () => {
    assert.equal((await chat(ctx.gw, { messages: [user('hi')] }, { key: 'sk-zero' })).status, 402);
    ctx.gw.setBalance('sk-zero', 5);
    assert.equal(ctx.gw.balance('sk-zero'), 5);
    const res = await chat(ctx.gw, { stream: false, messages: [user('hi')] }, { key: 'sk-zero' });
    assert.equal(res.status, 200);
    assert.ok(ctx.gw.balance('sk-zero') < 5);
  });

  it('does not charge rejected requests', async () => {
    const before = ctx.gw.balance('sk-test');
    assert.equal((await chat(ctx.gw, { model: 'nope', messages: [user('hi')] })).status, 400);
    ctx.gw.injectFault({ kind: 'rateLimit', retryAfter: '1' });
    assert.equal((await chat(ctx.gw, { messages: [user('hi')] })).status, 429);
    assert.equal(ctx.gw.balance('sk-test'), before);
  });

  it('setBalance() adds a key; balance() of an unknown key throws without naming it', () => {
    ctx.gw.setBalance('sk-new', 1);
    assert.equal(ctx.gw.balance('sk-new'), 1);
    assert.throws(
      () => ctx.gw.balance('sk-secret-unknown'),
      (e: Error) => !e.message.includes('sk-secret-unknown'),
    );
  });
});
