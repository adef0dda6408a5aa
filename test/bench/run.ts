// `npm run bench`: prints figures and ratios for the speed targets. Nothing here asserts a
// time: these machines are shared and noisy, so the numbers are for people to read and
// compare, not for CI to gate on. Run on an idle machine for figures worth quoting.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { benchClient } from './client.bench';
import { benchRender } from './render.bench';
import { benchSse } from './sse.bench';
import type { BenchResult } from './types';

function print(results: BenchResult[]): void {
  for (const r of results) {
    console.log(`\n${r.name}`);
    for (const [k, v] of Object.entries(r.figures)) console.log(`  ${k.padEnd(44)} ${typeof v === 'number' ? v.toLocaleString('en-US') : v}`);
  }
}

function bundleSizes(): BenchResult[] {
  const figures: Record<string, number | string> = {};
  for (const f of ['dist/extension.js', 'dist/webview.js']) {
    try {
      figures[`${f} (KB)`] = Math.round(statSync(join(process.cwd(), f)).size / 1024);
    } catch {
      figures[`${f} (KB)`] = 'not built (run npm run build)';
    }
  }
  return [{ name: 'bundle sizes', figures }];
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const suites: [string, () => Promise<BenchResult[]> | BenchResult[]][] = [
    ['sse', benchSse],
    ['client', benchClient],
    // the naive (quadratic) comparison is capped at 20k characters: beyond that it takes minutes
    ['render', () => benchRender({ naiveSizes: [10_000, 20_000] })],
    ['bundle', bundleSizes],
  ];
  console.log(`Modelgate benchmarks — node ${process.version}, ${new Date().toISOString()}`);
  for (const [name, run] of suites) {
    if (only && only !== name) continue;
    const t = performance.now();
    print(await run());
    console.log(`  (${name} took ${((performance.now() - t) / 1000).toFixed(1)} s)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
