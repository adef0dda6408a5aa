// CPU profile of one panel bench scenario in Chromium, to see where the long tasks go.
// Run: node esbuild.mjs && node test/bench/panelProfile.cjs restore|restoreSync|block|stream|corpus [top=25]
// Uses dist/webview.js (not minified: function names are readable) and test/bench/panelPage.js.
// Prints self time and total time by function; never asserts. Writes test-results/panel-<scenario>.cpuprofile.
const fs = require('fs');
const path = require('path');
const { root, SCENARIOS, launch, openPanelPage, printCpuProfile } = require('./panelHarness.cjs');

const scenario = process.argv[2] || 'restore';
const top = Number(process.argv[3] || 25);

(async () => {
  const browser = await launch();
  const page = await openPanelPage(browser, { width: 500, height: 800 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const result = await page.evaluate(SCENARIOS[scenario]);
  const { profile } = await cdp.send('Profiler.stop');
  fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
  fs.writeFileSync(path.join(root, `test-results/panel-${scenario}.cpuprofile`), JSON.stringify(profile));
  console.log(JSON.stringify(result));
  printCpuProfile(profile, top);
  await browser.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
