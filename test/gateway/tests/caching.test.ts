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

describe('gateway simulator: cache lifetime on its clock', function () {
  this.timeout(30_000);
  const ctx = useGateway();
  afterEach(() => ctx.gw.reset());

  it('OpenAI-style: a prefix idle for 5 minutes is forgotten; one used within them stays', async () => {
    const messages = [system('lifetime'), user('Lifetime question.')];
    await complete(ctx.gw, { messages });
    ctx.gw.advanceClock(4 * 60_000);
    const warm = await complete(ctx.gw, { messages });
    assert.ok(warm.usage.prompt_tokens_details.cached_tokens >= 1024, 'read within 5 minutes');
    // the read made it active again: 4 more minutes are still within 5 minutes of that use
    ctx.gw.advanceClock(4 * 60_000);
    assert.ok((await complete(ctx.gw, { messages })).usage.prompt_tokens_details.cached_tokens >= 1024);
    ctx.gw.advanceClock(5 * 60_000 + 1);
    assert.equal((await complete(ctx.gw, { messages })).usage.prompt_tokens_details.cached_tokens, 0, 'expired after 5 idle minutes');
  });

  it('POST /__sim/clock moves the clock (for a simulator in another process)', async () => {
    const before = ctx.gw.now();
    const res = await fetch(ctx.gw.baseUrl.replace(/\/v1$/, '/__sim/clock'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 3_600_000 }),
    });
    const { now } = (await res.json()) as { now: number };
    assert.ok(now - before >= 3_600_000 && now - before < 3_700_000);
    const bad = await fetch(ctx.gw.baseUrl.replace(/\/v1$/, '/__sim/clock'), { method: 'POST', body: JSON.stringify({ advanceMs: -1 }) });
    assert.equal(bad.status, 400);
  });
});

describe('gateway simulator: DeepSeek-style context caching (reasoner)', function () {
  this.timeout(30_000);
  const ctx = useGateway();
  afterEach(() => ctx.gw.reset());
  type DsUsage = { prompt_tokens: number; prompt_cache_hit_tokens: number; prompt_cache_miss_tokens: number; prompt_tokens_details?: unknown };
  const ask = async (messages: unknown[]) => {
    const res = await chat(ctx.gw, { model: 'reasoner', stream: false, messages });
    assert.equal(res.status, 200);
    return (await res.json()) as { choices: { message: { content: string; reasoning_content: string } }[]; usage: DsUsage & { completion_tokens: number } };
  };

  it("reports hits and misses in DeepSeek's fields, and the next turn reads the answer from cache too", async () => {
    const turn1 = [{ role: 'system', content: 'You are a helpful assistant.' }, user('What is the capital of France? [[words:30]]')];
    const a1 = await ask(turn1);
    assert.equal(a1.usage.prompt_cache_hit_tokens, 0);
    assert.equal(a1.usage.prompt_cache_miss_tokens, a1.usage.prompt_tokens);
    assert.equal(a1.usage.prompt_tokens_details, undefined);
    assert.ok(a1.choices[0]!.message.reasoning_content.length > 0, 'a reasoning model reasons without a marker');
    const answer = a1.choices[0]!.message.content;
    const a2 = await ask([...turn1, { role: 'assistant', content: answer }, user('And of Spain? [[words:5]]')]);
    // the unit at the end of the output: the first prompt and the answer, not the new question
    const hit = a2.usage.prompt_cache_hit_tokens;
    assert.ok(hit > a1.usage.prompt_tokens, `${hit} > ${a1.usage.prompt_tokens}: the answer was cached too`);
    assert.ok(hit < a2.usage.prompt_tokens);
    assert.equal(hit + a2.usage.prompt_cache_miss_tokens, a2.usage.prompt_tokens);
    // no 1,024-token minimum, no 128-token blocks
    assert.ok(hit < 1024);
  });

  it('hits only a whole unit; a common prefix becomes a unit for the request after', async () => {
    const a = 'A'.repeat(3000);
    const first = [{ role: 'system', content: a }, user('B question one')];
    await ask(first);
    const second = await ask([{ role: 'system', content: a }, user('C question two')]);
    assert.equal(second.usage.prompt_cache_hit_tokens, 0, 'A+C matches no unit of A+B');
    const third = await ask([{ role: 'system', content: a }, user('D question three')]);
    assert.ok(third.usage.prompt_cache_hit_tokens >= 900, `A+D hits the common prefix A (${third.usage.prompt_cache_hit_tokens})`);
  });

  it('keeps units for hours, not minutes, and forgets them after 4 idle hours', async () => {
    const turn = [{ role: 'system', content: 'Keep this. '.repeat(50) }, user('Question [[words:3]]')];
    const a1 = await ask(turn);
    ctx.gw.advanceClock(2 * 3_600_000);
    assert.equal((await ask(turn)).usage.prompt_cache_hit_tokens, a1.usage.prompt_tokens, 'the whole input after 2 hours');
    ctx.gw.advanceClock(4 * 3_600_000 + 1);
    assert.equal((await ask(turn)).usage.prompt_cache_hit_tokens, 0);
  });

  it('bills cache hits at the cache price', async () => {
    const turn = [{ role: 'system', content: 'Price check. '.repeat(80) }, user('Q [[words:2]]')];
    await ask(turn);
    const before = ctx.gw.balance('sk-test');
    const u = (await ask(turn)).usage;
    const charged = before - ctx.gw.balance('sk-test');
    const expected = chatCost('reasoner', 'stable', {
      prompt_tokens: u.prompt_tokens,
      completion_tokens: u.completion_tokens,
      prompt_tokens_details: { cached_tokens: u.prompt_cache_hit_tokens },
    });
    assert.ok(u.prompt_cache_hit_tokens > 0);
    assert.ok(Math.abs(charged - expected) < 1e-12, `${charged} vs ${expected}`);
  });
});
