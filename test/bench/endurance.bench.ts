// The endurance suite in the real VS Code at its full size: 200 chats in a row (send, stop,
// regenerate) and 10 conversations streaming at once, in an integration session of its own
// (build, package, one extension host). The test run's endurance suite does 40 chats (enough to
// show a leak of one handle per chat); the 200-chat figures live here. The suite writes
// test-results/endurance.json; MODELGATE_BENCH_ENDURANCE_REUSE=1 prints the last run's instead.
// Nothing is asserted here (the suite's own assertions still hold at 200: no leaked handles, heap
// back within its bound, every conversation intact).
import { integrationBenchResult } from './integrationBench';
import { figure } from './report';

const CHATS = 200;

export function benchEndurance(): void {
  const r = integrationBenchResult<{
    date: string;
    host: string;
    chats: number;
    rowSeconds: number;
    heapBeforeMb: number;
    heapAfterMb: number;
    gcExposed: boolean;
    resourcesBefore: Record<string, number>;
    resourcesAfter: Record<string, number>;
  }>({
    file: 'endurance.json',
    grep: '^endurance ',
    reuseEnv: 'MODELGATE_BENCH_ENDURANCE_REUSE',
    env: { MODELGATE_ENDURANCE_CHATS: String(CHATS) },
    missing: {
      name: 'endurance.chatsInARow',
      unit: 's',
      note: `no test-results/endurance.json: the run failed (MODELGATE_SKIP=unit,e2e,install MODELGATE_ENDURANCE_CHATS=${CHATS} MODELGATE_TEST_GREP='^endurance ' npm test shows why)`,
    },
  });
  if (!r) return;
  const from = `${r.host}, integration run of ${r.date}`;
  figure({ name: `endurance.chatsInARow.${r.chats}`, value: r.rowSeconds, unit: 's', note: `send / regenerate / stop / stop+regenerate in turn; ${from}` });
  figure({ name: 'endurance.perChat', value: (r.rowSeconds * 1000) / r.chats, unit: 'ms', note: 'wall clock, counts waiting for a core' });
  figure({
    name: 'endurance.heapGrowthAfterGc',
    value: r.heapAfterMb - r.heapBeforeMb,
    unit: 'MB',
    note: `${r.heapBeforeMb} -> ${r.heapAfterMb} MB${r.gcExposed ? '' : ' (no gc exposed: an upper bound)'}`,
  });
  const grown = Object.keys(r.resourcesAfter)
    .map((k) => [k, (r.resourcesAfter[k] ?? 0) - (r.resourcesBefore[k] ?? 0)] as const)
    .sort((a, b) => b[1] - a[1]);
  figure({
    name: 'endurance.activeResourcesGrowth',
    value: grown[0]?.[1] ?? 0,
    unit: '',
    note: `largest growth of a kind (${grown[0]?.[0] ?? 'none'}); the suite allows 4`,
  });
}
