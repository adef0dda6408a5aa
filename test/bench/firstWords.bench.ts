// The first words of an answer, host side: how long the chat's DeltaCoalescer holds the first
// delta of an answer before posting it to the webview (it merges deltas into one post per 24 ms
// window), and how long after the last chunk of a 2,000-chunk stream its text is posted. The
// webview's side (the message to the text in the DOM) is the panel suite's `firstDelta`
// scenario. Prints only, never asserts.
import { DeltaCoalescer } from '../../src/chat/view/deltaCoalescer';
import type { HostMessage } from '../../src/chat/protocol';
import { figure } from './report';

const ANSWERS = 40;
const STREAM_CHUNKS = 2_000;
const STREAM_RUNS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? NaN;

export async function benchFirstWords(): Promise<void> {
  // one answer after another, each after a quiet moment (as after the user's question)
  const holds: number[] = [];
  for (let i = 0; i < ANSWERS; i++) {
    let at = 0;
    const t0 = performance.now();
    const c = new DeltaCoalescer(() => (at ||= performance.now()));
    c.text(`a${i}`, 'The first');
    c.text(`a${i}`, ' words');
    while (!at) await sleep(1);
    holds.push(at - t0);
    c.dispose();
    await sleep(40);
  }
  figure({
    name: 'chat.firstDelta.hostHold.p50',
    value: quantile(holds, 0.5),
    unit: 'ms',
    note: `first chunk of an answer to its post to the webview, ${ANSWERS} answers; p95 ${quantile(holds, 0.95).toFixed(2)} ms, max ${Math.max(...holds).toFixed(2)} ms`,
  });

  // a 2,000-chunk stream, a chunk about every millisecond: the last chunk to the post that carries it
  const tails: number[] = [];
  const posts: number[] = [];
  for (let run = 0; run < STREAM_RUNS; run++) {
    let last = 0;
    let n = 0;
    let lastChunkAt = 0;
    const c = new DeltaCoalescer((m: HostMessage) => {
      n++;
      if (m.type === 'textDelta' && m.text.endsWith('END')) last = performance.now();
    });
    for (let i = 0; i < STREAM_CHUNKS; i++) {
      lastChunkAt = performance.now();
      c.text('s', i === STREAM_CHUNKS - 1 ? 'END' : `w${i} `);
      await sleep(1);
    }
    while (!last) await sleep(1);
    tails.push(last - lastChunkAt);
    posts.push(n);
    c.dispose();
  }
  figure({
    name: 'chat.stream2000.lastChunkToPost.max',
    value: Math.max(...tails),
    unit: 'ms',
    peerName: 'target',
    peer: 25,
    target: '<= 1',
    note: `${STREAM_RUNS} runs (${tails.map((t) => t.toFixed(1)).join(', ')} ms), ${posts.join('/')} posts for ${STREAM_CHUNKS} chunks`,
  });
}
