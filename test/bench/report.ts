// One printing/JSON helper for every bench suite: each figure is one line (name, value, unit,
// the peer or floor it is compared with, the ratio), and the same records go to
// test-results/bench.json. Nothing here asserts: the figures are for people to read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Figure {
  /** Stable name, e.g. "sse.smallDeltas.ours" */
  name: string;
  value: number;
  /** "ms", "KB", "%", "x", "events/s", ... */
  unit: string;
  /** What the value is compared with ("openai SDK", "bytes alone", "target"), if anything. */
  peerName?: string;
  peer?: number;
  /** value / peer (computed when both are given and ratio is not). */
  ratio?: number;
  /** The goal, as text ("<= 0.30"), printed next to the ratio. */
  target?: string;
  /** Short free text (run count, chunking, why a figure is missing). */
  note?: string;
}

const figures: Figure[] = [];

const fmt = (n: number): string => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

/** Records one figure and prints it as one line. */
export function figure(f: Figure): Figure {
  const out: Figure = { ...f };
  if (out.ratio === undefined && out.peer !== undefined && out.peer > 0) out.ratio = Math.round((out.value / out.peer) * 1000) / 1000;
  figures.push(out);
  const peer = out.peer !== undefined ? `  vs ${out.peerName ?? 'peer'} ${fmt(out.peer)} ${out.unit}` : '';
  const ratio = out.ratio !== undefined ? `  ratio ${out.ratio.toFixed(3)}${out.target ? ` (target ${out.target})` : ''}` : '';
  const note = out.note ? `  [${out.note}]` : '';
  console.log(`${out.name.padEnd(46)} ${fmt(out.value).padStart(10)} ${out.unit.padEnd(6)}${peer}${ratio}${note}`);
  return out;
}

/** Every figure recorded so far (for tests of the bench itself). */
export function allFigures(): readonly Figure[] {
  return figures;
}

/** Writes everything recorded to test-results/bench.json (or `path`). */
export function writeBenchJson(meta: Record<string, unknown>, path = join(process.cwd(), 'test-results', 'bench.json')): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ ...meta, figures }, null, 2)}\n`);
  return path;
}
