// CPU profile of one panel bench scenario in Chromium, to see where the long tasks go.
// Run: node esbuild.mjs && node test/bench/panelProfile.cjs restore|restoreSync|block|stream|corpus [top=25]
// Uses dist/webview.js (not minified: function names are readable) and test/bench/panelPage.js.
// Prints self time and total time by function; never asserts. Writes test-results/panel-<scenario>.cpuprofile.
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '../..');
const scenario = process.argv[2] || 'restore';
const top = Number(process.argv[3] || 25);
const calls = {
  restore: 'window.__panelBench.restore(2000)',
  restoreSync: 'window.__panelBench.restoreSync(2000)',
  block: 'window.__panelBench.bigBlock(100000)',
  stream: 'window.__panelBench.stream(400000, 1000, 24)',
  corpus: 'window.__panelBench.corpus()',
};

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.MODELGATE_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 500, height: 800 } });
  page.on('pageerror', (e) => console.log('PAGEERR', String(e).slice(0, 200)));
  const css = fs.readFileSync(path.join(root, 'media/chat.css'), 'utf8');
  await page.setContent(`<!DOCTYPE html><html><head><style>${css}</style></head><body></body></html>`);
  await page.evaluate(() => { window.acquireVsCodeApi = () => ({ postMessage() {}, getState() {}, setState() {} }); });
  await page.addScriptTag({ content: fs.readFileSync(path.join(root, 'dist/webview.js'), 'utf8') });
  await page.addScriptTag({ content: fs.readFileSync(path.join(__dirname, 'panelPage.js'), 'utf8') });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const result = await page.evaluate(calls[scenario]);
  const { profile } = await cdp.send('Profiler.stop');
  fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
  fs.writeFileSync(path.join(root, `test-results/panel-${scenario}.cpuprofile`), JSON.stringify(profile));
  console.log(JSON.stringify(result));
  // self time per node, then per function name (+ url:line)
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) || 0) + (dt[i] || 0) / 1000);
  const key = (n) => `${n.callFrame.functionName || '(anon)'} ${path.basename(n.callFrame.url || '')}:${n.callFrame.lineNumber + 1}`;
  const selfBy = new Map();
  const totalBy = new Map();
  for (const [id, ms] of self) {
    const n = byId.get(id);
    selfBy.set(key(n), (selfBy.get(key(n)) || 0) + ms);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur));
      if (seen.has(k)) continue;
      seen.add(k);
      totalBy.set(k, (totalBy.get(k) || 0) + ms);
    }
  }
  const print = (title, m) => {
    console.log(`\n${title}`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${v.toFixed(0).padStart(8)} ms  ${k}`);
  };
  print('self time', selfBy);
  print('total time (inclusive)', totalBy);
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
