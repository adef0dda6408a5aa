// The chat webview's boundary (docs/reliability.md, category 2), in the real extension host.
//  - the HTML the view is served: its Content-Security-Policy (default-src 'none', the script by
//    nonce only, no unsafe-eval / unsafe-inline, no remote hosts for images, scripts or styles)
//    and the webview options (localResourceRoots = the extension's dist and media only);
//  - every message type the webview can send, fuzzed with invalid shapes (wrong types, missing
//    and extra fields, over-long strings, prototype-pollution keys, unknown and near-miss types,
//    non-objects), a fixed list plus seeded random mutations, through the view provider's own
//    entry (the function onDidReceiveMessage calls): each one rejected, logged once (type only,
//    never the content), and without effect: nothing posted to the view, no request to the
//    gateway, no change to the conversation, the list, the composer or Object.prototype.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { parseWebviewMessage, type HostMessage } from '../../src/chat/protocol';
import { seededRng, type Rng } from '../gateway/rng';
import { EXTENSION_ID, modelgateLogFile, until, useModelgate } from './helpers';

const KEY = 'sk-webview-fuzz-61f0a9c2d4';
/** appears in every fuzzed string, so a log that echoes content is caught */
const CANARY = 'FUZZCANARY7q3';
const SEED = 0x5eed_c5f2;
const RANDOM_CASES = 400;

/** One valid message of every type the webview may send (src/chat/protocol.ts). */
const VALID: Record<string, Record<string, unknown>> = {
  ready: { type: 'ready' },
  send: { type: 'send', text: 'hi' },
  stop: { type: 'stop' },
  regenerate: { type: 'regenerate' },
  editAndResend: { type: 'editAndResend', messageId: 'm1', text: 'hi' },
  newChat: { type: 'newChat' },
  switchConversation: { type: 'switchConversation', conversationId: 'c1' },
  deleteConversation: { type: 'deleteConversation', conversationId: 'c1' },
  openConversations: { type: 'openConversations' },
  attachSelection: { type: 'attachSelection' },
  attachFile: { type: 'attachFile' },
  attachImage: { type: 'attachImage' },
  attachDiagnostics: { type: 'attachDiagnostics' },
  pasteImage: { type: 'pasteImage', mime: 'image/png', base64: 'iVBORw0KGgo=', name: 'a.png' },
  removeAttachment: { type: 'removeAttachment', attachmentId: 'a1' },
  copyCode: { type: 'copyCode', code: 'x' },
  insertCode: { type: 'insertCode', code: 'x' },
  applyCode: { type: 'applyCode', code: 'x', language: 'ts' },
  openLink: { type: 'openLink', href: 'https://example.com/' },
  action: { type: 'action', action: 'retry' },
  draft: { type: 'draft', text: 'hi' },
  openImage: { type: 'openImage', openId: 'image-1' },
};

const badValues = new Map<string, unknown[]>();
/** Per field, values that break it (every field is a string or an enum of strings); made once, shared. */
function badValuesFor(field: string): unknown[] {
  let values = badValues.get(field);
  if (!values) badValues.set(field, (values = makeBadValues(field)));
  return values;
}

function makeBadValues(field: string): unknown[] {
  const huge: Record<string, number> = {
    text: 2_000_001,
    code: 2_000_001,
    messageId: 201,
    conversationId: 201,
    attachmentId: 201,
    openId: 201,
    href: 8193,
    name: 201,
    language: 51,
    base64: 28_000_001,
  };
  const values: unknown[] = [42, null, true, [CANARY], { toString: CANARY }, { $gt: '' }];
  if (huge[field] !== undefined) values.push((CANARY + 'a'.repeat(huge[field]!)).slice(0, huge[field]!));
  if (['messageId', 'conversationId', 'attachmentId', 'openId'].includes(field)) values.push('');
  if (field === 'mime') values.push('image/svg+xml', 'text/html', 'IMAGE/PNG', `image/png;${CANARY}`);
  if (field === 'action') values.push('runCommand', 'setKey ', CANARY, '__proto__');
  if (field === 'base64') values.push(`${CANARY}!!`, 'data:image/png;base64,AAAA', 'AA\nAA');
  return values;
}

/** The fixed list: for every type, each field broken every way, each field missing, an extra field, pollution keys. */
function fixedCases(): { label: string; raw: unknown }[] {
  const cases: { label: string; raw: unknown }[] = [];
  for (const [type, valid] of Object.entries(VALID)) {
    for (const field of Object.keys(valid).filter((k) => k !== 'type')) {
      for (const v of badValuesFor(field)) cases.push({ label: `${type}.${field} = ${show(v)}`, raw: { ...valid, [field]: v } });
      const { [field]: _dropped, ...missing } = valid;
      const optional = (type === 'pasteImage' && field === 'name') || (type === 'applyCode' && field === 'language');
      if (!optional) cases.push({ label: `${type} without ${field}`, raw: missing });
    }
    cases.push({ label: `${type} + extra field`, raw: { ...valid, extra: CANARY } });
    cases.push({ label: `${type} + command field`, raw: { ...valid, command: 'workbench.action.terminal.new', args: [CANARY] } });
    // JSON.parse makes __proto__ an own property, as a structured clone from the webview would.
    cases.push({ label: `${type} + __proto__`, raw: JSON.parse(JSON.stringify(valid).replace(/^\{/, `{"__proto__":{"polluted":"${CANARY}"},`)) });
    cases.push({ label: `${type} + constructor.prototype`, raw: { ...valid, constructor: { prototype: { polluted: CANARY } } } });
    cases.push({ label: `${type} + prototype`, raw: { ...valid, prototype: { polluted: CANARY } } });
    cases.push({ label: `${type} with type in capitals`, raw: { ...valid, type: type.toUpperCase() } });
    cases.push({ label: `${type} with a trailing space in type`, raw: { ...valid, type: `${type} ` } });
    cases.push({ label: `${type} as an array`, raw: [valid] });
    cases.push({ label: `${type} as JSON text`, raw: JSON.stringify(valid) });
  }
  for (const raw of [
    null,
    undefined,
    0,
    42,
    '',
    'send',
    CANARY,
    true,
    [],
    {},
    { type: null },
    { type: 42 },
    { type: ['send'] },
    { type: { toString: 'send' } },
    { text: CANARY },
  ])
    cases.push({ label: `non-message ${show(raw)}`, raw });
  for (const type of [
    'runCommand',
    'executeCommand',
    'setApiKey',
    'getApiKey',
    'openFile',
    'writeFile',
    'eval',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    CANARY,
    'x'.repeat(10_000),
    `send\n2026-01-01 00:00:00.000 [error] forged ${CANARY}`,
    `send)${CANARY}`,
  ])
    cases.push({ label: `unknown type ${type.slice(0, 30)}`, raw: { type, text: CANARY, command: 'workbench.action.reloadWindow' } });
  return cases;
}

/** Seeded random mutations of valid messages: always at least one invalid change. */
function randomCases(rng: Rng, n: number): { label: string; raw: unknown }[] {
  const types = Object.keys(VALID);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const cases: { label: string; raw: unknown }[] = [];
  for (let i = 0; i < n; i++) {
    const type = pick(types);
    const msg: Record<string, unknown> = { ...VALID[type]! };
    const fields = Object.keys(msg).filter((k) => k !== 'type');
    const how = fields.length ? Math.floor(rng() * 4) : 2 + Math.floor(rng() * 2);
    const changes: string[] = [];
    if (how === 0) {
      const f = pick(fields);
      msg[f] = pick(badValuesFor(f));
      changes.push(`bad ${f}`);
    } else if (how === 1) {
      const f = pick(fields);
      msg[f] = pick(badValuesFor(f));
      const g = pick(fields);
      msg[g] = pick(badValuesFor(g));
      changes.push(`bad ${f}, ${g}`);
    } else if (how === 2) {
      const key = pick(['extra', '__proto__', 'constructor', 'prototype', 'then', 'valueOf', `k${Math.floor(rng() * 1e6)}`]);
      Object.defineProperty(msg, key, { value: pick([CANARY, 1, null, { polluted: CANARY }]), enumerable: true, configurable: true, writable: true });
      changes.push(`extra ${key}`);
    } else {
      const t = pick([`${type}x`, type.slice(0, -1), type.toUpperCase(), ` ${type}`, `${type}\u0000`, `${type}\u200b`]);
      msg.type = t;
      changes.push('near-miss type');
    }
    cases.push({ label: `random #${i}: ${type} (${changes.join('; ')})`, raw: msg });
  }
  return cases;
}

function show(v: unknown): string {
  if (typeof v === 'string') return v.length > 40 ? `string(${v.length})` : JSON.stringify(v);
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : String(v);
}

const REJECTED = /Chat view sent a message that is not valid \(type [^)]*\); ignored\./g;

describe('webview boundary: CSP and fuzzed messages (real VS Code)', function () {
  this.timeout(120_000);
  const mg = useModelgate({ gateway: { keys: { [KEY]: { balance: 100 } } }, settings: { 'chat.model': 'flagship-text' }, key: KEY, chat: true });

  before(async () => {
    await vscode.commands.executeCommand('modelgate.openChat');
    await until(() => mg.api.chat.view.served?.html, 'the chat view to be resolved (its HTML served)');
  });

  it('serves a strict CSP: default-src none, the script by nonce, no unsafe-*, no remote hosts', () => {
    const html = mg.api.chat.view.served!.html;
    const metas = [...html.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/gi)];
    assert.equal(metas.length, 1, 'exactly one CSP meta tag');
    const csp = metas[0]![1]!
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    const directives = new Map<string, string[]>();
    for (const part of csp
      .split(';')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [name, ...values] = part.split(/\s+/);
      assert.ok(!directives.has(name!), `directive ${name} given twice`);
      directives.set(name!, values);
    }
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    const scripts = directives.get('script-src');
    assert.ok(scripts, 'script-src is set');
    const nonces = scripts.filter((s) => s.startsWith("'nonce-"));
    assert.equal(nonces.length, 1, 'one nonce');
    const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(nonces[0]!)?.[1];
    assert.ok(nonce && nonce.length >= 16, 'a nonce of at least 16 base64 characters');
    assert.deepEqual(scripts, [nonces[0]], 'scripts only by nonce: no host, no keyword');
    // Every script tag carries the nonce; there is no inline script or handler, and no inline style.
    const scriptTags = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    assert.ok(scriptTags.length >= 1);
    for (const [, attrs, body] of scriptTags) {
      assert.match(attrs!, new RegExp(`nonce="${nonce!.replace(/[+/=]/g, (c) => `\\${c}`)}"`));
      assert.match(attrs!, /\ssrc="/, 'the script is a file, not inline');
      assert.equal(body!.trim(), '', 'no inline script');
    }
    assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no inline event handler');
    assert.doesNotMatch(html, /<style\b|\sstyle\s*=/i, 'no inline style');
    for (const [name, values] of directives) {
      assert.ok(!values.includes("'unsafe-eval'"), `${name} allows unsafe-eval`);
      assert.ok(!values.includes("'unsafe-inline'"), `${name} allows unsafe-inline`);
      assert.ok(!values.includes("'unsafe-hashes'") && !values.includes("'wasm-unsafe-eval'"), `${name} allows an unsafe keyword`);
      for (const v of values) {
        // Only the webview's own resource origin (cspSource), 'self', data: for images, the nonce.
        assert.ok(!['*', 'http:', 'https:', 'ws:', 'wss:', 'blob:', 'filesystem:'].includes(v), `${name} allows any host: ${v}`);
      }
    }
    const img = directives.get('img-src') ?? [];
    const cspSourceHosts = (directives.get('style-src') ?? []).filter((v) => v !== "'self'");
    for (const v of img) assert.ok(v === 'data:' || v === "'self'" || cspSourceHosts.includes(v), `img-src has a remote source: ${v}`);
    assert.ok(!directives.has('connect-src') || directives.get('connect-src')!.every((v) => v === "'none'"), 'no connect-src to anywhere');
    for (const name of ['frame-src', 'child-src', 'object-src', 'form-action', 'worker-src']) {
      const v = directives.get(name);
      assert.ok(!v || v.every((x) => x === "'none'"), `${name} is open: ${v?.join(' ')}`);
    }
  });

  it('keeps what the page last said of its keyboard focus: Open Chat focuses the view again only while the page has not got it', () => {
    const view = mg.api.chat.view;
    view.receive({ type: 'ready', hasFocus: false });
    assert.equal(view.pageHasFocus, false, 'ready without the keyboard');
    // the workbench gives the frame the keyboard while the host is still sending it the conversation
    view.receive({ type: 'keyboardFocus', hasFocus: true });
    assert.equal(view.pageHasFocus, true, 'the keyboard given after ready');
    view.receive({ type: 'keyboardFocus', hasFocus: false });
    assert.equal(view.pageHasFocus, false, 'and taken away');
    view.receive({ type: 'keyboardFocus', hasFocus: 'yes' });
    assert.equal(view.pageHasFocus, false, 'a message that is not valid changes nothing');
    view.receive({ type: 'ready', hasFocus: true });
    assert.equal(view.pageHasFocus, true, 'ready with the keyboard');
  });

  it("gives the view the extension's dist and media folders as its only local resource roots, and no command links", () => {
    const options = mg.api.chat.view.served!.options;
    assert.equal(options.enableScripts, true);
    assert.ok(!options.enableCommandUris, 'command: links are off');
    assert.ok(!options.enableForms, 'forms are off');
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const roots = (options.localResourceRoots ?? []).map((u) => u.toString()).sort();
    assert.deepEqual(roots, [vscode.Uri.joinPath(ext.extensionUri, 'dist').toString(), vscode.Uri.joinPath(ext.extensionUri, 'media').toString()].sort());
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri.toString();
    for (const r of roots) {
      if (ws) assert.ok(!ws.startsWith(r) && !r.startsWith(ws), `the workspace is reachable from ${r}`);
      assert.ok(!r.includes(mg.api.chat.storageUri.path), 'the chat history is not a resource root');
    }
  });

  it('rejects every invalid message of every type (fixed list and seeded random), logs each once without its content, and nothing changes', async () => {
    const chat = mg.api.chat.controller;
    // A known state to compare against: one finished exchange and a draft.
    await chat.newChat();
    await chat.send('before the fuzz [[words:5]]');
    await chat.whenIdle();
    // the quote the answer's end asked for is posted on a timer, after the answer: not a reply to the fuzz
    await chat.quotes.whenSettled();
    const fixed = fixedCases();
    const cases = [...fixed, ...randomCases(seededRng(SEED), RANDOM_CASES)];
    // Each case must be invalid: the schema itself is what the test relies on.
    for (const c of cases) assert.equal(parseWebviewMessage(c.raw), undefined, `schema accepts ${c.label}`);
    assert.ok(
      Object.keys(VALID).every((t) => parseWebviewMessage(VALID[t]) !== undefined),
      'every valid sample parses',
    );
    const typesCovered = new Set(cases.map((c) => c.label.split(/[ .]/)[0]));
    for (const t of Object.keys(VALID)) assert.ok(typesCovered.has(t), `no fuzz case for ${t}`);

    const state = async () => JSON.stringify({ conversation: await chat.conversation(), composer: await chat.composer(), busy: chat.busy });
    const before = await state();
    const requestsBefore = mg.gw.requests.length;
    const logFile = modelgateLogFile(mg.api);
    assert.ok(logFile, 'found the Modelgate log file');
    const loggedBefore = (fs.readFileSync(logFile, 'utf8').match(REJECTED) ?? []).length;
    const editorsBefore = vscode.window.visibleTextEditors.length;
    const posted: HostMessage[] = [];
    const sub = chat.onDidPost((m) => posted.push(m));
    let log: string;
    try {
      for (const c of cases) mg.api.chat.view.receive(c.raw);
      // Logged, once each, by type only: the log never holds what the message carried. Once every
      // rejection is in the log, every message has been handled.
      log = await until(
        () => {
          const text = fs.readFileSync(logFile, 'utf8');
          return (text.match(REJECTED) ?? []).length - loggedBefore >= cases.length && text;
        },
        `${cases.length} rejections in the log`,
        30_000,
      );
      // 'the same entry does act on valid messages' below shows that a handled message is posted here.
      assert.deepEqual(
        posted.map((p) => p.type),
        [],
        'nothing was posted to the view',
      );
    } finally {
      sub.dispose();
    }
    assert.equal(await state(), before, 'conversation, composer and busy state unchanged');
    assert.equal(mg.gw.requests.length, requestsBefore, 'no request reached the gateway');
    assert.equal(vscode.window.visibleTextEditors.length, editorsBefore, 'no editor opened');
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype polluted');
    assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
    assert.equal((log.match(REJECTED) ?? []).length - loggedBefore, cases.length, 'one log line per rejected message');
    assert.ok(!log.includes(CANARY), 'the log holds content of a rejected message');
    console.log(`[webview fuzz] ${cases.length} invalid messages (${fixed.length} fixed + ${RANDOM_CASES} random, seed ${SEED}): all rejected and logged`);
  });

  it('the same entry does act on valid messages (so the test above can fail)', async () => {
    const chat = mg.api.chat.controller;
    const posted: HostMessage[] = [];
    const sub = chat.onDidPost((m) => posted.push(m));
    try {
      const before = (await chat.conversation()).id;
      mg.api.chat.view.receive({ type: 'newChat' });
      await until(async () => (await chat.conversation()).id !== before, 'a new chat');
      assert.ok(posted.length > 0, 'the view was told');
    } finally {
      sub.dispose();
    }
  });
});
