// The scripted conversations of `npm run bench -- quote`: plain questions, attachments (files
// pinned at the start and later, selections, an image), a channel switch, agent answers of 3 to 8
// tool rounds, and a reasoning model, with pauses that let OpenAI-style caches expire. Seeded, so
// every run replays the same conversations; the simulator's markers set each answer's length
// ([[words:N]]), its reasoning ([[think:N]]) and its rounds ([[call:...]] [[rounds:N]]).
import type { Channel } from '../../src/core/client/types';
import type { ImageInput, PinnedFile, VolatileContext } from '../../src/core/prompt/promptLayout';
import { seededRng, type Rng } from '../gateway/rng';

export type SendKind = 'plain' | 'attachment' | 'switch' | 'agent' | 'reasoning';

export interface ScriptedSend {
  kinds: SendKind[];
  text: string;
  contexts?: VolatileContext[];
  images?: ImageInput[];
  /** a file pinned just before this send (after the last message) */
  pin?: PinnedFile;
  /** the conversation moves to this channel before this send */
  channel?: Channel | 'default';
  /** the user's pause before this send (ms of the simulator's clock) */
  pauseMs: number;
  /** bytes of each tool result of this send's rounds */
  resultBytes?: number[];
}

export interface Script {
  name: string;
  model: string;
  channel: Channel | 'default';
  pinned: PinnedFile[];
  sends: ScriptedSend[];
}

const SEC = 1_000;
const MIN = 60 * SEC;

/** Code-like text of about `bytes` characters. */
export function codeText(seed: number, bytes: number): string {
  const rng = seededRng(seed);
  const names = ['parse', 'render', 'cache', 'stream', 'token', 'budget', 'channel', 'answer', 'prompt', 'quote'];
  let out = '';
  for (let i = 0; out.length < bytes; i++) {
    const n = names[Math.floor(rng() * names.length)]!;
    out +=
      i % 7 === 0
        ? `// ${n}: keeps the ${names[Math.floor(rng() * names.length)]} stable across turns (${Math.floor(rng() * 1000)})\n`
        : `export function ${n}${i}(input: string, limit = ${Math.floor(rng() * 512)}): number {\n  return input.length > limit ? ${i} : input.split('${n}').length;\n}\n`;
  }
  return out.slice(0, bytes);
}

/** A small valid PNG as a data URL (the simulator checks the form, not the picture). */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const TOPICS = [
  'the cache layout',
  'the stream parser',
  'the budget check',
  'the retry policy',
  'the tool loop',
  'the model picker',
  'error messages',
  'the ledger',
];

/** A per-conversation answer length, varied per turn (log-normal around the conversation's mean). */
function wordsOf(rng: Rng, mean: number): number {
  const z = Math.sqrt(-2 * Math.log(Math.max(1e-9, rng()))) * Math.cos(2 * Math.PI * rng());
  return Math.max(5, Math.round(mean * Math.exp(0.3 * z)));
}

function pause(rng: Rng, long = false): number {
  return long ? Math.round((8 + rng() * 12) * MIN) : Math.round((15 + rng() * 150) * SEC);
}

function question(rng: Rng, i: number, words: number): string {
  return `Turn ${i}: how does ${TOPICS[Math.floor(rng() * TOPICS.length)]} handle case ${Math.floor(rng() * 100)}? [[words:${words}]]`;
}

function plain(seed: number, model: string, channel: Script['channel'], turns: number, mean: number): Script {
  const rng = seededRng(seed);
  const sends: ScriptedSend[] = [];
  const kind: SendKind = model === 'reasoner' ? 'reasoning' : 'plain';
  for (let i = 0; i < turns; i++) sends.push({ kinds: [kind], text: question(rng, i, wordsOf(rng, mean)), pauseMs: pause(rng, i === 4 && seed % 2 === 0) });
  return { name: `plain-${seed}`, model, channel, pinned: [], sends };
}

function attachments(seed: number, model: string, turns: number, mean: number): Script {
  const rng = seededRng(seed);
  const pinned: PinnedFile[] = [{ path: `src/module${seed}.ts`, language: 'ts', content: codeText(seed, 3_000 + Math.floor(rng() * 15_000)) }];
  const sends: ScriptedSend[] = [];
  for (let i = 0; i < turns; i++) {
    const s: ScriptedSend = { kinds: ['attachment'], text: question(rng, i, wordsOf(rng, mean)), pauseMs: pause(rng) };
    if (i % 2 === 1)
      s.contexts = [
        {
          title: `Selection from src/module${seed}.ts, lines ${i * 10}-${i * 10 + 30}`,
          language: 'ts',
          text: codeText(seed * 31 + i, 500 + Math.floor(rng() * 2_500)),
        },
      ];
    if (i === 3) s.pin = { path: `src/later${seed}.ts`, language: 'ts', content: codeText(seed * 7, 2_000 + Math.floor(rng() * 6_000)) };
    if (i === 2 && model === 'long-context-tools') s.images = [{ dataUrl: PNG }];
    sends.push(s);
  }
  return { name: `attachments-${seed}`, model, channel: 'stable', pinned, sends };
}

function channelSwitch(seed: number, model: string, to: Channel, turns: number, mean: number): Script {
  const rng = seededRng(seed);
  const pinned: PinnedFile[] = [{ path: `src/big${seed}.ts`, language: 'ts', content: codeText(seed, 8_000 + Math.floor(rng() * 8_000)) }];
  const sends: ScriptedSend[] = [];
  for (let i = 0; i < turns; i++) {
    const s: ScriptedSend = { kinds: ['plain'], text: question(rng, i, wordsOf(rng, mean)), pauseMs: pause(rng) };
    if (i === 3) {
      s.channel = to;
      s.kinds = ['switch'];
    }
    sends.push(s);
  }
  return { name: `switch-${seed}`, model, channel: 'stable', pinned, sends };
}

function agent(seed: number, model: string, turns: number, rounds: [number, number], opts: { think?: number; resultBytes?: [number, number] } = {}): Script {
  const rng = seededRng(seed);
  const [lo, hi] = rounds;
  const [bLo, bHi] = opts.resultBytes ?? [1_500, 6_000];
  const sends: ScriptedSend[] = [];
  for (let i = 0; i < turns; i++) {
    // now and then a plain question between the tasks
    if (i === 2) {
      sends.push({
        kinds: opts.think ? ['reasoning'] : ['plain'],
        text: `${question(rng, i, wordsOf(rng, 120))}${opts.think ? ` [[think:${wordsOf(rng, opts.think)}]]` : ''}`,
        pauseMs: pause(rng),
      });
      continue;
    }
    const n = lo + Math.floor(rng() * (hi - lo + 1));
    const path = `src/part${Math.floor(rng() * 20)}.ts`;
    const think = opts.think ? ` [[think:${wordsOf(rng, opts.think)}]]` : '';
    sends.push({
      kinds: opts.think ? ['agent', 'reasoning'] : ['agent'],
      text: `Task ${i}: find where ${TOPICS[Math.floor(rng() * TOPICS.length)]} goes wrong. [[call:read_file {"path":"${path}"}]] [[rounds:${n}]]${think}`,
      pauseMs: pause(rng, i === 4),
      resultBytes: Array.from({ length: n }, () => bLo + Math.floor(rng() * (bHi - bLo))),
    });
  }
  return { name: `agent-${seed}`, model, channel: 'stable', pinned: [], sends };
}

function reasoning(seed: number, turns: number, think: number, mean: number, longPauseAt?: number): Script {
  const rng = seededRng(seed);
  const sends: ScriptedSend[] = [];
  for (let i = 0; i < turns; i++) {
    sends.push({
      kinds: ['reasoning'],
      text: `${question(rng, i, wordsOf(rng, mean))} [[think:${wordsOf(rng, think)}]]`,
      pauseMs: i === longPauseAt ? 90 * MIN : pause(rng, i === 3),
    });
  }
  return { name: `reasoning-${seed}`, model: 'reasoner', channel: 'stable', pinned: [], sends };
}

/** 32 conversations, 240-odd sends. */
export function scripts(): Script[] {
  return [
    plain(1, 'flagship-text', 'stable', 8, 120),
    plain(2, 'long-context-tools', 'stable', 8, 250),
    plain(3, 'flagship-text', 'default', 7, 60),
    plain(4, 'long-context-tools', 'direct', 9, 400),
    plain(5, 'long-context-tools', 'economical', 6, 180),
    plain(6, 'flagship-text', 'direct', 10, 300),
    plain(7, 'long-context-tools', 'default', 7, 90),
    attachments(11, 'long-context-tools', 8, 200),
    attachments(12, 'flagship-text', 7, 150),
    attachments(13, 'long-context-tools', 9, 350),
    attachments(14, 'flagship-text', 6, 100),
    attachments(15, 'long-context-tools', 8, 250),
    attachments(16, 'long-context-tools', 7, 80),
    channelSwitch(21, 'long-context-tools', 'economical', 7, 200),
    channelSwitch(22, 'long-context-tools', 'direct', 6, 150),
    channelSwitch(23, 'flagship-text', 'economical', 7, 250),
    channelSwitch(24, 'reasoner', 'economical', 6, 120),
    channelSwitch(25, 'long-context-tools', 'economical', 8, 300),
    agent(31, 'long-context-tools', 7, [3, 8]),
    agent(32, 'flagship-text', 6, [3, 5]),
    agent(33, 'long-context-tools', 7, [5, 8]),
    agent(34, 'long-context-tools', 6, [3, 6], { resultBytes: [4_000, 12_000] }),
    agent(35, 'flagship-text', 7, [4, 8]),
    agent(36, 'long-context-tools', 6, [3, 4]),
    agent(37, 'reasoner', 5, [3, 5], { think: 200, resultBytes: [1_000, 3_000] }),
    agent(38, 'reasoner', 5, [3, 6], { think: 120, resultBytes: [800, 2_500] }),
    reasoning(41, 8, 300, 150),
    reasoning(42, 7, 600, 250, 4),
    reasoning(43, 9, 150, 80),
    reasoning(44, 6, 900, 400),
    reasoning(45, 8, 250, 200, 5),
    plain(8, 'reasoner', 'direct', 7, 150),
  ];
}
