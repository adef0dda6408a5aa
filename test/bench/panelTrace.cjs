// Devtools timeline trace of one panel bench scenario in Chromium: every main-thread task over a
// threshold, with its wall time (dur), the renderer thread's own CPU time (tdur: what the task
// cost without the time the tab waited for a core on a loaded machine), and what it spent it on.
// Run: node esbuild.mjs && node test/bench/panelTrace.cjs restore|restoreSync|block|stream [thresholdMs=50] [cpu]
// (with `cpu`, only tasks whose CPU time is over the threshold are listed; else wall or CPU)
// Uses dist/webview.js and test/bench/panelPage.js, like panelProfile.cjs. Prints only, never
// asserts. Writes test-results/panel-<scenario>.trace.json (open it in the devtools Performance tab).
const fs = require('fs');
const path = require('path');
const { root, SCENARIOS, launch, openPanelPage } = require('./panelHarness.cjs');

const scenario = process.argv[2] || 'restore';
const threshold = Number(process.argv[3] || 50);
const byCpu = process.argv[4] === 'cpu';

(async () => {
  const browser = await launch();
  const page = await openPanelPage(browser, { width: 500, height: 800 });
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink'] });
  const result = await page.evaluate(SCENARIOS[scenario]);
  const buffer = await browser.stopTracing();
  await browser.close();
  fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
  fs.writeFileSync(path.join(root, `test-results/panel-${scenario}.trace.json`), buffer);
  console.log(JSON.stringify(result));

  const events = JSON.parse(buffer.toString('utf8')).traceEvents;
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args && e.args.name === 'CrRendererMain');
  if (!main) throw new Error('no renderer main thread in the trace');
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && typeof e.dur === 'number');
  onMain.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = onMain.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
  // top-level tasks only (RunTask can nest)
  const top = [];
  let end = -1;
  for (const t of tasks)
    if (t.ts >= end) {
      top.push(t);
      end = t.ts + t.dur;
    }
  const ms = (us) => (us / 1000).toFixed(1);
  const totalWall = top.reduce((s, t) => s + t.dur, 0);
  const totalCpu = top.reduce((s, t) => s + (t.tdur || 0), 0);
  const cpuLongest = top.reduce((m, t) => Math.max(m, t.tdur || 0), 0);
  console.log(
    `\n${top.length} main-thread tasks: wall ${ms(totalWall)} ms, thread CPU ${ms(totalCpu)} ms; longest wall ${ms(top.reduce((m, t) => Math.max(m, t.dur), 0))} ms, longest CPU ${ms(cpuLongest)} ms`,
  );
  console.log(
    `tasks over ${threshold} ms: wall ${top.filter((t) => t.dur > threshold * 1000).length}, CPU ${top.filter((t) => (t.tdur || 0) > threshold * 1000).length}`,
  );
  // what the long tasks spent their time on: the sum of each event name inside them (nested names overlap)
  const kinds = [
    'FunctionCall',
    'V8.Execute',
    'EvaluateScript',
    'TimerFire',
    'FireIdleCallback',
    'FireAnimationFrame',
    'EventDispatch',
    'UpdateLayoutTree',
    'Layout',
    'PrePaint',
    'Paint',
    'Layerize',
    'UpdateLayer',
    'IntersectionObserverController::computeIntersections',
    'ScrollAnchor',
    'MajorGC',
    'MinorGC',
    'V8.GC_MC_BACKGROUND',
    'BlinkGC.AtomicPhase',
    'ParseHTML',
    'HitTest',
    'Commit',
    'v8.compile',
    'V8.ParseFunctions',
  ];
  for (const t of top.filter((x) => (!byCpu && x.dur > threshold * 1000) || (x.tdur || 0) > threshold * 1000).slice(0, 40)) {
    const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
    const sums = new Map();
    for (const e of inside) if (kinds.includes(e.name)) sums.set(e.name, (sums.get(e.name) || 0) + e.dur);
    const fn = inside.find((e) => e.name === 'FunctionCall' && e.args && e.args.data);
    const where = fn ? ` ${fn.args.data.functionName || '(anon)'}@${path.basename(fn.args.data.url || '')}:${fn.args.data.lineNumber ?? ''}` : '';
    const parts = [...sums]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${ms(v)}`)
      .join(', ');
    console.log(`  at ${ms(t.ts - top[0].ts).padStart(8)} ms: wall ${ms(t.dur).padStart(6)}, CPU ${ms(t.tdur || 0).padStart(6)}${where} | ${parts}`);
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
