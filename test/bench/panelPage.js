// In-page part of the panel bench (test/bench/panel.bench.ts): runs inside Chromium, in a plain
// page holding the real webview bundle (dist/webview.js) and media/chat.css, and drives it with
// the host's messages exactly as the extension posts them. Plain JS (no bundler): it is read as
// text and evaluated in the page. Measures only; never asserts.
(() => {
  const longTasks = [];
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: false });
  const post = (data) => window.dispatchEvent(new MessageEvent('message', { data }));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const composer = { model: 'm', channel: 'stable', imageInput: false, attachments: [], contextTokens: 0, contextWindow: 1000000, hasKey: true };
  const snapshot = (id, messages) => ({
    type: 'snapshot',
    conversation: { id, title: 't', messages, draft: '', totalCost: 0 },
    conversations: [],
    composer,
    busy: false,
  });
  const longestSince = (t) => longTasks.filter((e) => e.start >= t).reduce((m, e) => Math.max(m, e.duration), 0);
  const countSince = (t, over) => longTasks.filter((e) => e.start >= t && e.duration > over).length;
  const articles = () => document.querySelectorAll('article').length;

  /** A conversation of `n` messages: short questions, answers with a list and a small code block. */
  function conversation(n) {
    const msgs = [];
    for (let i = 0; i < n; i++) {
      msgs.push(
        i % 2 === 0
          ? { id: 'm' + i, role: 'user', text: 'question ' + i, attachments: [], createdAt: i }
          : {
              id: 'm' + i,
              role: 'assistant',
              parts: [{ kind: 'text', text: `Answer **${i}** with \`code\` and a list:\n\n- one\n- two\n\n\`\`\`ts\nconst v${i} = ${i};\n\`\`\`\n` }],
              status: 'done',
              model: 'm',
              channel: 'stable',
              createdAt: i,
            },
      );
    }
    return msgs;
  }

  /** Deterministic mixed markdown of about `length` characters (prose, lists, code, tables). */
  function mixedMarkdown(length) {
    const parts = [];
    let size = 0;
    for (let i = 0; size < length; i++) {
      let s;
      switch (i % 6) {
        case 0:
          s = `## Step ${i}: update the \`handler${i}\`\n\n`;
          break;
        case 1:
          s = `The function **handler${i}** reads the *config* and calls [the API](https://example.com/api/${i}); it returns \`Result<T>\` and logs through \`log.info\`. When the input is empty it falls back to the defaults, which keeps the caller simple.\n\n`;
          break;
        case 2: {
          const lines = [];
          for (let k = 0; k < 5 + (i % 25); k++) lines.push(`  const value${k} = compute(${k}, "text", { flag: ${k % 2 === 0} }); // line ${k}`);
          s = '```ts\nexport function handler' + i + '() {\n' + lines.join('\n') + '\n}\n```\n\n';
          break;
        }
        case 3:
          s = `- first item ${i} with \`code\`\n- second item, **bold**\n  - nested item\n- third item\n\n`;
          break;
        case 4:
          s = `| name | value | note |\n|---|---:|---|\n| a${i} | ${i} | *ok* |\n| b${i} | ${i * 2} | \`x\` |\n\n`;
          break;
        default:
          s = `> A quote ${i} with a [link](https://example.com/${i}).\n\n`;
      }
      parts.push(s);
      size += s.length;
    }
    return parts.join('');
  }

  async function restore(n) {
    const t0 = performance.now();
    post(snapshot('restore', conversation(n)));
    const sync = performance.now() - t0;
    // the bench's trace splits the snapshot task from the idle work at this mark
    performance.mark('panel-snapshot-done');
    await frame();
    await sleep(0);
    const paint = performance.now() - t0;
    const shownAtPaint = articles();
    const log = document.querySelector('.transcript');
    // every message is in the DOM once the oldest is (pages of older messages go on top)
    while (!document.querySelector('[data-message-id="m0"]') && performance.now() - t0 < 60000) await sleep(100);
    const all = performance.now() - t0;
    const shownAll = articles();
    // scroll to the top: the first message must be there
    log.scrollTop = 0;
    await frame();
    await sleep(50);
    const first = document.querySelector('article .message-text');
    return {
      sync,
      paint,
      shownAtPaint,
      all,
      shownAll,
      longest: longestSince(t0),
      over50: countSince(t0, 50),
      firstText: first ? first.textContent : null,
    };
  }

  /**
   * Restores `n` messages and at once scrolls up the log for `ms`, 120 px per animation frame (a
   * fast wheel), while older messages load: frame intervals and long tasks meanwhile, and how far
   * back the view got (the oldest message rendered).
   */
  async function restoreScroll(n, ms) {
    post(snapshot('scroll', conversation(n)));
    await frame();
    const log = document.querySelector('.transcript');
    performance.mark('panel-scroll-start');
    const frames = [];
    const t0 = performance.now();
    let last = 0;
    await new Promise((resolve) => {
      const tick = (t) => {
        if (last) frames.push(t - last);
        last = t;
        if (performance.now() - t0 >= ms) return resolve();
        log.scrollTop -= 120;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const oldest = document.querySelector('article');
    frames.sort((a, b) => a - b);
    return {
      frames: frames.length,
      shareUnder16: frames.length ? frames.filter((d) => d < 16.7).length / frames.length : NaN,
      shareOnTime: onTimeShare(frames),
      over50: frames.filter((d) => d > 50).length,
      p95: frames[Math.floor(frames.length * 0.95)] || NaN,
      longestFrame: frames[frames.length - 1] || NaN,
      longestTask: longestSince(t0),
      tasksOver50: countSince(t0, 50),
      shown: articles(),
      oldest: oldest ? oldest.getAttribute('data-message-id') : null,
    };
  }

  /**
   * Share of frame intervals under 1.5 vsync periods (25 ms at 60 Hz): frames that missed no
   * vsync. An on-time frame's interval is 16.67 ms give or take the timer's jitter, so "under
   * 16.7 ms" counts about a third to a half of on-time frames as late; this one does not.
   */
  function onTimeShare(frames) {
    return frames.length ? frames.filter((d) => d < 1.5 * (1000 / 60)).length / frames.length : NaN;
  }

  async function bigBlock(chars) {
    const lines = [];
    let n = 0;
    for (let i = 0; n < chars; i++) {
      const l = `export const value${i} = compute(${i}, "text", { flag: ${i % 2 === 0} }); // line ${i}`;
      lines.push(l);
      n += l.length + 1;
    }
    const text = '```ts\n' + lines.join('\n') + '\n```\n';
    const t0 = performance.now();
    post(snapshot('big', [{ id: 'a', role: 'assistant', parts: [{ kind: 'text', text }], status: 'done', model: 'm', channel: 'stable', createdAt: 1 }]));
    const sync = performance.now() - t0;
    const coloured = () => {
      const slices = Array.from(document.querySelectorAll('.code-slice'));
      return slices.length > 0 && slices.every((s) => s.querySelector('[class^="hljs-"]'));
    };
    while (!coloured() && performance.now() - t0 < 60000) await sleep(50);
    const all = performance.now() - t0;
    await sleep(100);
    const code = document.querySelector('.code-block pre code');
    return {
      sync,
      all,
      longest: longestSince(t0),
      over50: countSince(t0, 50),
      slices: document.querySelectorAll('.code-slice').length,
      textKept: !!code && code.textContent === lines.join('\n') + '\n',
    };
  }

  /**
   * Streams `chars` of mixed markdown as the host does: one textDelta every `intervalMs` (the
   * host's DeltaCoalescer cadence) of `deltaChars` characters, and records every animation
   * frame's interval meanwhile.
   */
  async function stream(chars, deltaChars, intervalMs) {
    post(snapshot('stream', [{ id: 'u', role: 'user', text: 'go', attachments: [], createdAt: 0 }]));
    await sleep(200);
    post({ type: 'messageAdded', message: { id: 'a', role: 'assistant', parts: [], status: 'streaming', model: 'm', channel: 'stable', createdAt: 1 } });
    const text = mixedMarkdown(chars);
    const frames = [];
    let running = true;
    let last = 0;
    const tick = (t) => {
      if (last) frames.push(t - last);
      last = t;
      if (running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    await frame();
    const t0 = performance.now();
    let next = t0;
    for (let pos = 0; pos < text.length; pos += deltaChars) {
      post({ type: 'textDelta', messageId: 'a', text: text.slice(pos, pos + deltaChars) });
      next += intervalMs;
      await sleep(Math.max(0, next - performance.now()));
    }
    post({ type: 'messageFinished', messageId: 'a', status: 'done' });
    await sleep(300);
    running = false;
    const duration = performance.now() - t0;
    frames.sort((a, b) => a - b);
    const under = frames.filter((d) => d < 16.7).length;
    return {
      chars: text.length,
      duration,
      frames: frames.length,
      shareUnder16: frames.length ? under / frames.length : NaN,
      shareOnTime: onTimeShare(frames),
      over50: frames.filter((d) => d > 50).length,
      p50: frames[Math.floor(frames.length * 0.5)] || NaN,
      p95: frames[Math.floor(frames.length * 0.95)] || NaN,
      longestFrame: frames[frames.length - 1] || NaN,
      longestTask: longestSince(t0),
      tasksOver50: countSince(t0, 50),
    };
  }

  /**
   * The first words of `n` answers: from the textDelta message to its text in the DOM (drawn in
   * the same task, or after how many ms of waiting for a frame).
   */
  async function firstDelta(n) {
    post(snapshot('first', [{ id: 'u', role: 'user', text: 'go', attachments: [], createdAt: 0 }]));
    await sleep(200);
    const times = [];
    let sameTask = 0;
    for (let i = 0; i < n; i++) {
      const id = 'f' + i;
      post({ type: 'messageAdded', message: { id, role: 'assistant', parts: [], status: 'streaming', model: 'm', channel: 'stable', createdAt: 2 + i } });
      await sleep(30);
      const body = () => document.querySelector('article:last-of-type .message-body')?.textContent ?? '';
      const t0 = performance.now();
      post({ type: 'textDelta', messageId: id, text: 'First words' });
      if (body().includes('First words')) sameTask++;
      while (!body().includes('First words')) await new Promise((r) => setTimeout(r, 0));
      times.push(performance.now() - t0);
      post({ type: 'messageFinished', messageId: id, status: 'done' });
      await sleep(30);
    }
    times.sort((a, b) => a - b);
    return { n, sameTask, p50: times[Math.floor(n * 0.5)], p95: times[Math.floor(n * 0.95)], max: times[n - 1] };
  }

  /** Only the snapshot of a restore (for profiles of its synchronous part). */
  function restoreSync(n) {
    const msgs = conversation(n);
    const t0 = performance.now();
    post(snapshot('restore', msgs));
    return performance.now() - t0;
  }

  /** Streams one text (a hostile-corpus case) and returns the longest task meanwhile. */
  async function streamText(id, text, deltaChars, intervalMs) {
    post(snapshot('c' + id, [{ id: 'u', role: 'user', text: 'go', attachments: [], createdAt: 0 }]));
    await sleep(100);
    post({ type: 'messageAdded', message: { id: 'a', role: 'assistant', parts: [], status: 'streaming', model: 'm', channel: 'stable', createdAt: 1 } });
    const t0 = performance.now();
    for (let pos = 0; pos < text.length; pos += deltaChars) {
      post({ type: 'textDelta', messageId: 'a', text: text.slice(pos, pos + deltaChars) });
      await sleep(intervalMs);
    }
    post({ type: 'messageFinished', messageId: 'a', status: 'done' });
    await sleep(500);
    return { longest: longestSince(t0), over50: countSince(t0, 50) };
  }

  const rep = (s, n) => s.repeat(n);
  const words = (n) => Array.from({ length: n }, (_, i) => ['lorem', 'ipsum', 'dolor', 'sit', 'amet'][i % 5]).join(' ');
  /** The hostile corpus's slowest cases (test/e2e/hostileCorpus.e2e.test.ts), in the plain page. */
  const CORPUS = {
    line200k: () => words(25000) + ' zqNa zqNb',
    table3000: () => `|${rep(' a |', 3000)}\n|${rep('---|', 3000)}\n|${rep(' b |', 3000)}`,
    quotesLists200: () => Array.from({ length: 200 }, (_, i) => `${rep('> ', i)}- q${i}`).join('\n'),
    lists120: () => Array.from({ length: 120 }, (_, i) => `${'  '.repeat(i)}- item${i}`).join('\n'),
    quotes500: () => rep('> ', 500) + 'deep quote',
    links3000: () => rep('[', 3000) + 'deep' + rep('](https://example.com)', 3000),
  };
  async function corpus() {
    const out = {};
    let k = 0;
    for (const [name, make] of Object.entries(CORPUS)) if (!window.__only || window.__only === name) out[name] = await streamText(k++, make(), 600, 24);
    return out;
  }

  window.__panelBench = { restore, restoreScroll, restoreSync, bigBlock, stream, corpus, firstDelta };
})();
