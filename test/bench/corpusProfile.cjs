// Where the hostile corpus's long tasks go (the target: no flush over 50 ms), one case at a time,
// in Chromium, closer to the e2e than the panel bench: the real webview bundle in a plain page of
// side-bar width, the case's text typed into the Message box and echoed as the user's message,
// then streamed as the answer in small deltas at the e2e's pace. Prints the long tasks of each
// phase and a CPU profile (self and inclusive time by function). Measures only; never asserts.
// Run: node esbuild.mjs && node test/bench/corpusProfile.cjs <case> [deltaChars=100] [intervalMs=24] [top=20]
// Cases: line200k, word100k, emph60k, table3000, brackets50k, quotes500, lists120, quotesLists200,
// links3000, divs5000, block100k (a closed 100 KB code block streamed), all.
const { launch, openPanelPage, printCpuProfile } = require('./panelHarness.cjs');

const [name = 'all', deltaArg = '100', intervalArg = '24', topArg = '20'] = process.argv.slice(2);
const rep = (s, n) => s.repeat(n);
const words = (n) => Array.from({ length: n }, (_, i) => `word${i % 97}`).join(' ');
function codeBlock(chars) {
  const lines = [];
  for (let i = 0, n = 0; n < chars; i++) {
    const l = `  const value${i} = compute(${i}, "text", { flag: ${i % 2 === 0} }); // line ${i}`;
    lines.push(l);
    n += l.length + 1;
  }
  return '```ts\n' + lines.join('\n') + '\n```';
}
// the bodies of test/e2e/hostileCorpus.e2e.test.ts
const CASES = {
  line200k: () => words(25_000),
  word100k: () => rep('a', 100_000),
  emph60k: () => rep('*_', 30_000),
  table3000: () => `|${rep(' a |', 3000)}\n|${rep('---|', 3000)}\n|${rep(' b |', 3000)}`,
  brackets50k: () => rep('`[', 25_000),
  quotes500: () => rep('> ', 500) + 'deep quote',
  lists120: () => Array.from({ length: 120 }, (_, i) => `${'  '.repeat(i)}- item${i}`).join('\n'),
  quotesLists200: () => Array.from({ length: 200 }, (_, i) => `${rep('> ', i)}- q${i}`).join('\n'),
  links3000: () => rep('[', 3000) + 'deep' + rep('](https://example.com)', 3000),
  divs5000: () => rep('<div>', 5000) + 'deep' + rep('</div>', 5000),
  block100k: () => codeBlock(100_000),
};

async function runCase(browser, key, deltaChars, intervalMs, profile) {
  const page = await openPanelPage(browser, { width: 360, height: 860 }, { benchPage: false });
  const text = `zq1a\n\n${CASES[key]()}\n\nzq1b`;
  const cdp = profile ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const result = await page.evaluate(
    async ({ text, deltaChars, intervalMs }) => {
      const long = [];
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) long.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: false });
      const post = (data) => window.dispatchEvent(new MessageEvent('message', { data }));
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const composer = { model: 'm', channel: 'stable', imageInput: false, attachments: [], contextTokens: 0, contextWindow: 1000000, hasKey: true };
      post({ type: 'snapshot', conversation: { id: 'c', title: 't', messages: [], draft: '', totalCost: 0 }, conversations: [], composer, busy: false });
      await sleep(300);
      const phases = {};
      const mark = (p) => {
        phases[p] = performance.now();
      };
      mark('type');
      const box = document.querySelector('textarea');
      box.value = `[[echo]]\n${text}`;
      box.dispatchEvent(new Event('input', { bubbles: true }));
      await sleep(300);
      mark('echo');
      box.value = '';
      box.dispatchEvent(new Event('input', { bubbles: true }));
      post({ type: 'messageAdded', message: { id: 'u', role: 'user', text: `[[echo]]\n${text}`, attachments: [], createdAt: 0 } });
      post({ type: 'messageAdded', message: { id: 'a', role: 'assistant', parts: [], status: 'streaming', model: 'm', channel: 'stable', createdAt: 1 } });
      await sleep(300);
      mark('stream');
      let next = performance.now();
      for (let pos = 0; pos < text.length; pos += deltaChars) {
        post({ type: 'textDelta', messageId: 'a', text: text.slice(pos, pos + deltaChars) });
        next += intervalMs;
        await sleep(Math.max(0, next - performance.now()));
      }
      mark('finish');
      post({ type: 'messageFinished', messageId: 'a', status: 'done' });
      await sleep(1500);
      mark('end');
      const order = Object.keys(phases);
      const out = {};
      for (let i = 0; i + 1 < order.length; i++) {
        const tasks = long.filter((t) => t.start >= phases[order[i]] && t.start < phases[order[i + 1]]).map((t) => Math.round(t.duration));
        out[order[i]] = {
          ms: Math.round(phases[order[i + 1]] - phases[order[i]]),
          longTasks: tasks.length,
          max: tasks.length ? Math.max(...tasks) : 0,
          worst: tasks.sort((a, b) => b - a).slice(0, 6),
        };
      }
      const answer = document.querySelectorAll('article')[1];
      out.kept = !!answer && answer.textContent.includes('zq1a') && answer.textContent.includes('zq1b');
      return out;
    },
    { text, deltaChars, intervalMs },
  );
  let prof = null;
  if (cdp) prof = (await cdp.send('Profiler.stop')).profile;
  await page.close();
  return { result, prof };
}

(async () => {
  const browser = await launch();
  try {
    const keys = name === 'all' ? Object.keys(CASES) : name.split(',');
    for (const key of keys) {
      const { result, prof } = await runCase(browser, key, Number(deltaArg), Number(intervalArg), keys.length === 1);
      console.log(`${key}: ${JSON.stringify(result)}`);
      if (prof) printCpuProfile(prof, Number(topArg), { skipIdle: true, indent: '  ' });
    }
  } finally {
    await browser.close();
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
