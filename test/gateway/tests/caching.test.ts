import * as assert from 'node:assert/strict';
import { chatCost } from '../prices';
import { chat, useGateway, user } from './helpers';

/** A system prompt far above the 1024-token threshold (~3000 tokens); the tag keeps tests apart. */
const system = (tag: string) => ({ role: 'system', content: `[${tag}] ` + 'You are a careful assistant. '.repeat(420) });

async function complete(gw: Parameters<typeof chat>[0], body: Record<string, unknown>, key?: string) {
  const res = await chat(gw, { stream: false, ...body }, key ? { key } : undefined);
  assert.equal(res.status, 200);
  return (await res.json()) as {
    choices: { message: { content: string } }[];
    usage: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details: { cached_tokens: number } };
  };
}

const blockFloor = (chars: number) => Math.floor(Math.floor(chars / 4) / 128) * 128;

describe('gateway simulator: prompt caching', function () {
  // Generous: the machine may be busy; no test asserts on timing.
  this.timeout(30_000);
  const ctx = useGateway({ keys: { 'sk-test': { balance: 100 }, 'sk-other': { balance: 100 } } });

  it('turn 2 of a conversation reads the shared prefix from cache, in 128-token blocks', async () => {
    const turn1 = [system('turns'), user('First question about caching.')];
    const a1 = await complete(ctx.gw, { model: 'long-context-tools', messages: turn1 });
    assert.equal(a1.usage.prompt_tokens_details.cached_tokens, 0);

    const turn2 = [...turn1, { role: 'assistant', content: a1.choices[0]!.message.content }, user('And a follow-up.')];
    const before = ctx.gw.balance('sk-test');
    const a2 = await complete(ctx.gw, { model: 'long-context-tools', messages: turn2 });
    const cached = a2.usage.prompt_tokens_details.cached_tokens;
    // The shared prefix is turn 1's serialized messages without the closing bracket.
    assert.equal(cached, blockFloor(JSON.stringify(turn1).length - 1));
    assert.equal(cached % 128, 0);
    assert.ok(cached <= a1.usage.prompt_tokens && cached > a1.usage.prompt_tokens - 129, `${cached} vs ${a1.usage.prompt_tokens}`);
    assert.ok(cached < a2.usage.prompt_tokens);
    // Billed at the cache-read price, once.
    const charged = before - ctx.gw.balance('sk-test');
    assert.ok(Math.abs(charged - chatCost('long-context-tools', 'stable', a2.usage)) < 1e-12);
    assert.ok(charged < chatCost('long-context-tools', 'stable', { ...a2.usage, prompt_tokens_details: { cached_tokens: 0 } }));
  });

  it('keeps a cache per channel: the same prompt on another channel starts cold', async () => {
    const messages = [system('channel'), user('Channel question.')];
    await complete(ctx.gw, { messages, provider: { channel: 'direct' } });
    const again = await complete(ctx.gw, { messages, provider: { channel: 'direct' } });
    assert.ok(again.usage.prompt_tokens_details.cached_tokens >= 1024);
    const other = await complete(ctx.gw, { messages, provider: { channel: 'economical' } });
    assert.equal(other.usage.prompt_tokens_details.cached_tokens, 0);
  });

  it('treats no provider as the default (stable) channel', async () => {
    const messages = [system('default'), user('Default channel question.')];
    await complete(ctx.gw, { messages });
    const stable = await complete(ctx.gw, { messages, provider: { channel: 'stable' } });
    assert.ok(stable.usage.prompt_tokens_details.cached_tokens >= 1024);
  });

  it('keeps a cache per key and per model', async () => {
    const messages = [system('per-key'), user('Per key question.')];
    await complete(ctx.gw, { messages });
    const otherKey = await complete(ctx.gw, { messages }, 'sk-other');
    assert.equal(otherKey.usage.prompt_tokens_details.cached_tokens, 0);
    const otherModel = await complete(ctx.gw, { messages, model: 'long-context-tools' });
    assert.equal(otherModel.usage.prompt_tokens_details.cached_tokens, 0);
  });

  it('reports nothing cached under 1024 tokens', async () => {
    const messages = [{ role: 'system', content: 'Short system prompt. '.repeat(150) }, user('Small question.')];
    assert.ok(JSON.stringify(messages).length / 4 < 1024);
    await complete(ctx.gw, { messages });
    const again = await complete(ctx.gw, { messages });
    assert.ok(again.usage.prompt_tokens > 700);
    assert.equal(again.usage.prompt_tokens_details.cached_tokens, 0);
  });

  it('loses the cache when something volatile comes first', async () => {
    const first = [{ role: 'system', content: `Time: 10:00:01. ${system('volatile').content}` }, user('q')];
    const second = [{ role: 'system', content: `Time: 10:00:02. ${system('volatile').content}` }, user('q')];
    await complete(ctx.gw, { messages: first });
    const b = await complete(ctx.gw, { messages: second });
    assert.equal(b.usage.prompt_tokens_details.cached_tokens, 0);
  });

  it('counts tools as part of the cached prefix', async () => {
    const tools = [{ type: 'function', function: { name: 'read_file', description: 'Reads a file. '.repeat(400), parameters: {} } }];
    await complete(ctx.gw, { tools, messages: [user('one')] });
    const b = await complete(ctx.gw, { tools, messages: [user('two')] });
    assert.ok(b.usage.prompt_tokens_details.cached_tokens >= 1024);
  });
});
