// Chromium figures of the chat panel (issue 9), not yet wired into npm run bench: restore first paint of
// 2,000 messages, longest task during restore, 100 KB code block highlight. Prints only, never asserts.
// Run: node esbuild.mjs && node test/bench/panelChromium.cjs  (uses /usr/bin/chromium via playwright-core)
const { chromium } = require('playwright-core');
const fs = require('fs');
(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 500, height: 800 } }); page.on('pageerror', (e) => console.log('PAGEERR', String(e).slice(0,200)));
  const js = fs.readFileSync(require('path').join(__dirname, '../../dist/webview.js'), 'utf8');
  const css = fs.readFileSync(require('path').join(__dirname, '../../media/chat.css'), 'utf8');
  await page.setContent(`<!DOCTYPE html><html><head><style>${css}</style></head><body></body></html>`);
  await page.evaluate(() => { window.acquireVsCodeApi = () => ({ postMessage() {}, getState() {}, setState() {} }); });
  await page.addScriptTag({ content: js });
  const r = await page.evaluate(async () => {
    const longTasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: false });
    const msgs = [];
    for (let i = 0; i < 2000; i++) msgs.push(i % 2 === 0 ? { id: 'm' + i, role: 'user', text: 'question ' + i, attachments: [], createdAt: i }
      : { id: 'm' + i, role: 'assistant', parts: [{ kind: 'text', text: `Answer **${i}** with \`code\` and a list:\n\n- one\n- two\n\n\`\`\`ts\nconst v${i} = ${i};\n\`\`\`\n` }], status: 'done', model: 'm', channel: 'stable', createdAt: i });
    const composer = { model: 'm', channel: 'stable', imageInput: false, attachments: [], contextTokens: 0, contextWindow: 1000000, hasKey: true };
    const t0 = performance.now();
    window.dispatchEvent(new MessageEvent('message', { data: { type: 'snapshot', conversation: { id: 'c', title: 't', messages: msgs, draft: '', totalCost: 0 }, conversations: [], composer, busy: false } }));
    const sync = performance.now() - t0;
    await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
    const paint = performance.now() - t0;
    const shownAtPaint = document.querySelectorAll('article').length;
    const t1 = performance.now(); window.__errs = []; window.addEventListener('error', (e) => window.__errs.push(String(e.message)));
    while (document.querySelectorAll('article').length < 2000 && performance.now() - t1 < 15000) await new Promise((r) => setTimeout(r, 100));
    const all = performance.now() - t0; const shownAll = document.querySelectorAll('article').length; const errs = window.__errs;
    const restoreLong = Math.max(0, ...longTasks); longTasks.length = 0;
    // 100 KB highlight
    const lines = []; let n = 0; for (let i = 0; n < 100000; i++) { const l = `export const value${i} = compute(${i}, "text", { flag: ${i % 2 === 0} }); // line ${i}`; lines.push(l); n += l.length + 1; }
    const t2 = performance.now();
    window.dispatchEvent(new MessageEvent('message', { data: { type: 'snapshot', conversation: { id: 'c2', title: 't', messages: [{ id: 'a', role: 'assistant', parts: [{ kind: 'text', text: '```ts\n' + lines.join('\n') + '\n```\n' }], status: 'done', model: 'm', channel: 'stable', createdAt: 1 }], draft: '', totalCost: 0 }, conversations: [], composer, busy: false } }));
    const hlSync = performance.now() - t2;
    while (document.querySelectorAll('.code-slice').length === 0 || Array.from(document.querySelectorAll('.code-slice')).some((s) => !s.querySelector('[class^="hljs-"]'))) { await new Promise((r) => setTimeout(r, 50)); if (performance.now() - t2 > 60000) break; }
    const hlAll = performance.now() - t2;
    await new Promise((r) => setTimeout(r, 100));
    return { shownAll, errs, sync, paint, shownAtPaint, all, restoreLong, hlSync, hlAll, hlLong: Math.max(0, ...longTasks), slices: document.querySelectorAll('.code-slice').length };
  });
  console.log(JSON.stringify(r, null, 1));
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
