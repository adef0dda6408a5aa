// `npm run bench -- compaction`: a 300-turn scripted agent conversation on a model with a 128K
// window, billed turn by turn with the quote's own cost model (`requestSeries`: a request reads
// from the cache the prompt of the request before while the cache lives, in OpenAI's documented
// units and lifetime), under two policies: the price rule (decideCompaction: compact when it pays
// over the turns that count, or when there is no room; never while the cache is warm and there is
// room) and "compact at 80 % of the window". The pace is scripted: bursts of turns a minute apart,
// with a 20-minute pause every 12 turns (the cache goes cold). Printed side by side: total cost,
// the share of prompt tokens read from the cache, and the compactions. A model of the billing, not
// the simulator: figures for people to read; nothing here asserts.
import { decideCompaction, turnsThatCount } from '../../src/core/compaction/compactionPrice';
import { cacheableTokens, CACHE_DEFAULTS } from '../../src/core/quote/cachePrediction';
import { requestCost } from '../../src/core/quote/projection';
import { figure } from './report';

const WINDOW = 128_000;
const RESERVE = 8_192;
const PREFIX = 6_000; // system prompt, rules and tools
const TURN_TOKENS = 2_400; // the question, two tool rounds' results, the answer
const OUTPUT = 600;
const SUMMARY = 2_500;
const KEPT = 3_000; // the latest turn, kept verbatim
const PRICE = { input: 1.25, output: 10, cacheRead: 0.125 };
const SUMMARY_PRICE = { input: 0.6, output: 4.8, cacheRead: 0.06 };
const TURNS = 300;
const gapBefore = (turn: number) => (turn > 0 && turn % 12 === 0 ? 20 * 60_000 : 60_000);

interface Outcome {
  usd: number;
  prompt: number;
  cached: number;
  compactions: number;
}

function run(policy: 'price' | 'at80'): Outcome {
  let history = 0; // tokens after the prefix
  let lastPrompt = 0;
  const out: Outcome = { usd: 0, prompt: 0, cached: 0, compactions: 0 };
  let compactedJustNow = false;
  for (let t = 0; t < TURNS; t++) {
    const gap = gapBefore(t);
    history += TURN_TOKENS;
    const prompt = PREFIX + history;
    const warm = t > 0 && gap <= CACHE_DEFAULTS.surelyAliveMs;
    const cachedNow = warm ? (compactedJustNow ? cacheableTokens(PREFIX, undefined) : cacheableTokens(Math.min(lastPrompt, prompt), undefined)) : 0;
    compactedJustNow = false;
    let compact = false;
    if (policy === 'at80') compact = prompt > 0.8 * WINDOW;
    else {
      const v = decideCompaction({
        promptTokens: prompt,
        cachedTokens: cachedNow,
        prefixTokens: PREFIX,
        compactedTokens: PREFIX + SUMMARY + KEPT,
        summaryPromptTokens: history,
        summaryOutputTokens: SUMMARY,
        contextWindow: WINDOW,
        outputReserve: RESERVE,
        price: PRICE,
        summaryPrice: SUMMARY_PRICE,
        assumeCaching: true,
        paceMs: gap,
        growthPerTurn: TURN_TOKENS,
        outputPerTurn: OUTPUT,
        turns: turnsThatCount(60_000, t + 1),
      });
      compact = v.compact;
    }
    let p = prompt;
    let cached = cachedNow;
    if (compact) {
      out.compactions++;
      out.usd += requestCost({ promptTokens: history, cachedTokens: 0, outputTokens: SUMMARY }, SUMMARY_PRICE);
      history = SUMMARY + KEPT;
      p = PREFIX + history;
      cached = warm ? cacheableTokens(PREFIX, undefined) : 0;
      compactedJustNow = true;
    }
    out.usd += requestCost({ promptTokens: p, cachedTokens: cached, outputTokens: OUTPUT }, PRICE);
    out.prompt += p;
    out.cached += cached;
    lastPrompt = p;
  }
  return out;
}

export async function benchCompaction(): Promise<void> {
  const price = run('price');
  const at80 = run('at80');
  const note = `${TURNS} turns, 128K window, $${PRICE.input}/${PRICE.cacheRead}/${PRICE.output} per 1M`;
  figure({
    name: 'compaction.priceRule.totalUsd',
    value: Math.round(price.usd * 1e4) / 1e4,
    unit: 'USD',
    peerName: 'compact at 80 %',
    peer: Math.round(at80.usd * 1e4) / 1e4,
    note,
  });
  figure({
    name: 'compaction.priceRule.cacheShare',
    value: Math.round((price.cached / price.prompt) * 1000) / 10,
    unit: '%',
    peerName: 'compact at 80 %',
    peer: Math.round((at80.cached / at80.prompt) * 1000) / 10,
  });
  figure({ name: 'compaction.priceRule.compactions', value: price.compactions, unit: '', peerName: 'compact at 80 %', peer: at80.compactions });
}
