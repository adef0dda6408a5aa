// Shared by the panel profiling scripts (panelProfile.cjs, panelTrace.cjs, corpusProfile.cjs):
// the harness's Chromium, a plain page holding the webview bundle and media/chat.css, the
// panel bench scenarios by name, and a CPU profile printed by function. Measures only.
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '../..');

/** The panel bench scenarios (panelPage.js), as page expressions. */
const SCENARIOS = {
  restore: 'window.__panelBench.restore(2000)',
  restoreSync: 'window.__panelBench.restoreSync(2000)',
  block: 'window.__panelBench.bigBlock(100000)',
  stream: 'window.__panelBench.stream(400000, 1000, 24)',
  corpus: 'window.__panelBench.corpus()',
};

function launch() {
  return chromium.launch({ executablePath: process.env.MODELGATE_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
}

/** A page with chat.css, a stub VS Code API and the webview bundle (MODELGATE_WEBVIEW_JS or dist/webview.js); panelPage.js too with `benchPage`. */
async function openPanelPage(browser, viewport, { benchPage = true } = {}) {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (e) => console.log('PAGEERR', String(e).slice(0, 200)));
  const css = fs.readFileSync(path.join(root, 'media/chat.css'), 'utf8');
  await page.setContent(`<!DOCTYPE html><html><head><style>${css}</style></head><body></body></html>`);
  await page.evaluate(() => {
    window.acquireVsCodeApi = () => ({ postMessage() {}, getState() {}, setState() {} });
  });
  await page.addScriptTag({ content: fs.readFileSync(process.env.MODELGATE_WEBVIEW_JS || path.join(root, 'dist/webview.js'), 'utf8') });
  if (benchPage) await page.addScriptTag({ content: fs.readFileSync(path.join(__dirname, 'panelPage.js'), 'utf8') });
  return page;
}

/** Prints a CDP CPU profile's `top` functions by self time and by total time. */
function printCpuProfile(profile, top, { skipIdle = false, indent = '' } = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) || 0) + (profile.timeDeltas[i] || 0) / 1000);
  const key = (n) => `${n.callFrame.functionName || '(anon)'} ${path.basename(n.callFrame.url || '')}:${n.callFrame.lineNumber + 1}`;
  const selfBy = new Map();
  const totalBy = new Map();
  for (const [id, ms] of self) {
    const k0 = key(byId.get(id));
    selfBy.set(k0, (selfBy.get(k0) || 0) + ms);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur));
      if (seen.has(k)) continue;
      seen.add(k);
      totalBy.set(k, (totalBy.get(k) || 0) + ms);
    }
  }
  for (const [title, m] of [
    ['self time', selfBy],
    ['total time (inclusive)', totalBy],
  ]) {
    console.log(`\n${indent}${title}`);
    const rows = [...m].filter(([k]) => !skipIdle || (!k.startsWith('(idle)') && !k.startsWith('(root)')));
    for (const [k, v] of rows.sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${v.toFixed(0).padStart(8)} ms  ${k}`);
  }
}

module.exports = { root, SCENARIOS, launch, openPanelPage, printCpuProfile };
