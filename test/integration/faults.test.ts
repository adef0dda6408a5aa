// The fault matrix (docs/reliability.md, category 5), in the real extension host, through the gateway
// simulator. Every case sends one chat message into a fault and checks what the user is left
// with: one clear message with the action that fixes it (no markup, no raw server page), the
// partial answer kept (and replayed as it stands by the next request), the next request working,
// and no unhandled promise rejection in the extension host.
//
// The two never-ending streams (keep-alive comments only; one endless SSE line) are in their own
// describe: they need the decoder's idle/line caps and fail without them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatController } from '../../src/chat';
import type { ChatMessage } from '../../src/core/client/types';
import type { ErrorAction, HostMessage } from '../../src/chat/protocol';
import type { Fault } from '../gateway/index';
import { answerText, lastAssistant, staysFalse, until, useModelgate } from './helpers';

const KEY = 'sk-fault-matrix-3a9c51d7e0';
const POOR_KEY = 'sk-fault-poor-7be20c44';
const WRONG_KEY = 'sk-fault-wrong-c0d4e2aa';
const HTML_PAGE = `<!DOCTYPE html><html><head><title>Service Unavailable</title><script>var x=1</script></head><body><h1>503 Service Unavailable</h1><p>The edge could not reach the origin. Ray 1f2e3d</p></body></html>`;
/** the smallest idle timeout the setting allows (seconds) */
const TIMEOUT_S = 5;

interface Case {
  name: string;
  prompt: string;
  /** injected before sending (a proxy's fault; `times` covers the retries) */
  inject?: { fault: Fault; times: number };
  /** how the answer ends */
  status: 'error' | 'done';
  /** actions the message must offer */
  actions?: ErrorAction[];
  /** the message must mention this (case-insensitive) */
  says?: RegExp;
  /** the message must not match this (e.g. a timeout where a cap should have acted) */
  saysNot?: RegExp;
  /** text streamed before the fault must be kept */
  partial?: boolean;
  /** how many chat requests the case makes (retries included) */
  requests?: number;
  /** switches the key for this case */
  key?: string;
}

describe('fault matrix (real VS Code, gateway simulator)', function () {
  this.timeout(60_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 }, [POOR_KEY]: { balance: 0 } } },
    settings: { 'chat.model': 'flagship-text', channel: 'default', requestTimeoutSeconds: TIMEOUT_S },
    ready: (api) => api.settings().requestTimeoutMs === TIMEOUT_S * 1000,
    key: KEY,
    chat: true,
  });
  let posts: HostMessage[] = [];
  let subscription: vscode.Disposable | undefined;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  const chat = (): ChatController => mg.api.chat.controller;
  const chatRequests = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'));
  const lastBody = () => chatRequests().at(-1)!.body as { messages: ChatMessage[] };

  async function setKey(key: string): Promise<void> {
    await vscode.commands.executeCommand('modelgate.setApiKey', key);
  }

  before(async () => {
    process.on('unhandledRejection', onRejection);
  });

  beforeEach(async () => {
    await chat().newChat();
    subscription?.dispose();
    posts = [];
    subscription = chat().onDidPost((m) => posts.push(m));
  });

  afterEach(async () => {
    // A case that failed while streaming must not leave a request running into the next one.
    if (chat().busy) chat().stop();
    await chat().whenIdle();
    mg.gw.clearFaults();
    subscription?.dispose();
  });

  after(async () => {
    process.off('unhandledRejection', onRejection);
  });

  /** Sends into the fault, checks the message, then that the next request works and replays the partial. */
  async function runCase(c: Case): Promise<void> {
    const rejectionsBefore = rejections.length;
    if (c.key) await setKey(c.key);
    try {
      if (c.inject) mg.gw.injectFault(c.inject.fault, c.inject.times);
      const before = chatRequests().length;
      await chat().send(c.prompt);
      const a = await lastAssistant(chat());
      assert.equal(a.status, c.status, `status (${a.error?.message ?? ''})`);
      if (c.requests !== undefined) assert.equal(chatRequests().length - before, c.requests, 'requests made, retries included');
      const finished = posts.filter((p): p is Extract<HostMessage, { type: 'messageFinished' }> => p.type === 'messageFinished');
      assert.equal(finished.length, 1, 'one finished answer');
      const errorNotices = posts.filter((p) => p.type === 'notice' && p.level === 'error');
      if (c.status === 'error') {
        // One clear message: on the answer, readable, short, with its actions; not also a notice.
        const e = a.error;
        assert.ok(e, 'the answer carries an error');
        assert.deepEqual(finished[0]!.error, e);
        assert.equal(errorNotices.length, 0, 'no second error notice');
        assert.ok(e.message.length >= 10 && e.message.length <= 400, `message length: ${e.message}`);
        assert.ok(!/[<>]/.test(e.message) && !/doctype|<script|\bvar x\b/i.test(e.message), `no markup in: ${e.message}`);
        for (const k of [KEY, POOR_KEY, WRONG_KEY]) assert.ok(!e.message.includes(k), 'no key in the message');
        for (const action of c.actions ?? []) assert.ok(e.actions.includes(action), `action ${action} in [${e.actions.join()}] for: ${e.message}`);
        if (c.says) assert.match(e.message, c.says);
        if (c.saysNot) assert.doesNotMatch(e.message, c.saysNot);
      } else {
        assert.equal(a.error, undefined);
        assert.equal(errorNotices.length, 0);
      }
      const partial = answerText(a);
      if (c.partial) assert.ok(partial.length > 0, 'the text streamed before the fault is kept');
      // The next request works, and carries the partial answer as it stands.
      if (c.key) await setKey(KEY);
      mg.gw.clearFaults();
      await chat().send('and now? [[words:3]]');
      const next = await lastAssistant(chat());
      assert.equal(next.status, 'done', `the next request works (${next.error?.message ?? ''})`);
      assert.equal(answerText(next).split(' ').length, 3);
      const replayed = lastBody().messages;
      assert.equal(replayed.at(-1)!.content, 'and now? [[words:3]]');
      if (partial) assert.deepEqual(replayed.at(-2), { role: 'assistant', content: partial }, 'the partial answer is replayed as it stands');
      const view = await chat().conversation();
      assert.equal(view.messages.filter((m) => m.role === 'user').length, 2, 'both user messages kept');
    } finally {
      if (c.key) await setKey(KEY);
    }
    assert.deepEqual(rejections.slice(rejectionsBefore).map(String), [], 'no unhandled rejection');
  }

  const status = (s: number, body?: string, contentType?: string): Fault => ({
    kind: 'status',
    status: s,
    ...(body === undefined ? {} : { body }),
    ...(contentType ? { contentType } : {}),
  });
  const jsonError = (message: string, type: string, code: string) => JSON.stringify({ error: { message, type, param: null, code } });
  const inAnHour = () => new Date(Date.now() + 3_600_000).toUTCString();

  const cases: Case[] = [
    { name: '401 wrong key: Set API Key', prompt: 'hello [[words:3]]', key: WRONG_KEY, status: 'error', actions: ['setKey'], requests: 1 },
    { name: '402 no balance: Top Up', prompt: 'hello [[words:3]]', key: POOR_KEY, status: 'error', actions: ['topUp'], requests: 1 },
    {
      name: '400 invalid request: not retried, pick a model',
      prompt: 'hello [[words:3]]',
      inject: { fault: status(400, jsonError("Invalid value for 'temperature'.", 'invalid_request_error', 'invalid_value')), times: 3 },
      status: 'error',
      actions: ['pickModel'],
      requests: 1,
    },
    {
      name: '404 model not found: Pick Model',
      prompt: 'hello [[words:3]]',
      inject: { fault: status(404, jsonError('The model `flagship-text` does not exist.', 'invalid_request_error', 'model_not_found')), times: 3 },
      status: 'error',
      actions: ['pickModel'],
      requests: 1,
    },
    {
      name: '429 Retry-After 0: retried at once, answered',
      prompt: 'hello [[words:3]]',
      inject: { fault: { kind: 'rateLimit', retryAfter: '0' }, times: 1 },
      status: 'done',
      requests: 2,
    },
    // A Retry-After under the policy's cap (30 s) is honoured in full, then the request goes
    // again: one second shows it as well as five did (nothing here measures the wait).
    {
      name: '429 Retry-After 1: waited out, answered',
      prompt: 'hello [[words:3]]',
      inject: { fault: { kind: 'rateLimit', retryAfter: '1' }, times: 1 },
      status: 'done',
      requests: 2,
    },
    {
      name: '429 Retry-After 3600: not waited, says how long, Retry',
      prompt: 'hello [[words:3]]',
      inject: { fault: { kind: 'rateLimit', retryAfter: '3600' }, times: 3 },
      status: 'error',
      actions: ['retry'],
      requests: 1,
    },
    {
      name: '429 Retry-After as an HTTP date in the past: retried at once, answered',
      prompt: 'hello [[words:3]]',
      inject: { fault: { kind: 'rateLimit', retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT' }, times: 1 },
      status: 'done',
      requests: 2,
    },
    {
      name: '429 Retry-After as an HTTP date an hour ahead: not waited, Retry',
      prompt: 'hello [[words:3]]',
      inject: { fault: { kind: 'rateLimit', retryAfter: inAnHour() }, times: 3 },
      status: 'error',
      actions: ['retry'],
      requests: 1,
    },
    {
      name: '502 HTML page from a proxy: retried, then a short message without markup',
      prompt: 'hello [[words:3]] [[fault:html502]]',
      status: 'error',
      actions: ['retry'],
      requests: 3,
    },
    {
      name: '503 HTML page: retried, then a short message without markup',
      prompt: 'hello [[words:3]]',
      inject: { fault: status(503, HTML_PAGE, 'text/html; charset=utf-8'), times: 3 },
      status: 'error',
      actions: ['retry'],
      requests: 3,
    },
    {
      name: '200 with an HTML page (a captive portal): a message without markup',
      prompt: 'hello [[words:3]]',
      inject: { fault: status(200, HTML_PAGE, 'text/html; charset=utf-8'), times: 3 },
      status: 'error',
      actions: ['retry'],
    },
    {
      name: '{error} inside the stream after 2 chunks: partial kept, the server text shown',
      prompt: 'tell me [[words:60]] [[fault:streamError:2:The upstream model stopped unexpectedly.]]',
      status: 'error',
      actions: ['retry'],
      says: /upstream model stopped/i,
      partial: true,
      requests: 1,
    },
    { name: 'drop right after the headers: a network message, Retry', prompt: 'tell me [[words:60]] [[fault:drop:0]]', status: 'error', actions: ['retry'] },
    {
      name: 'drop after 4 chunks: partial kept, not retried',
      prompt: 'tell me [[words:60]] [[fault:drop:4]]',
      status: 'error',
      actions: ['retry'],
      partial: true,
      requests: 1,
    },
    // The idle timeout: requestTimeoutSeconds = 5 (the minimum); this case costs ~5 s.
    {
      name: 'stall after 3 chunks: the idle timeout ends it, partial kept, names the setting',
      prompt: 'tell me [[words:60]] [[fault:stallAfter:3]]',
      status: 'error',
      actions: ['retry'],
      says: /requestTimeoutSeconds/,
      partial: true,
      requests: 1,
    },
    { name: 'slow drip (1-5 bytes every 5 ms): the whole answer, no timeout', prompt: 'tell me [[words:12]] [[fault:drip:5]]', status: 'done', requests: 1 },
  ];

  for (const c of cases) it(c.name, () => runCase(c));

  it('cancel during a Retry-After wait: stopped at once, no retry sent later', async () => {
    const rejectionsBefore = rejections.length;
    mg.gw.injectFault({ kind: 'rateLimit', retryAfter: '5' }, 1);
    const before = chatRequests().length;
    const sent = chat().send('hello [[words:3]]');
    await until(() => chatRequests().length > before, 'the rate-limited request');
    // The answer is waiting out Retry-After 5 now; stop it.
    assert.equal(chat().busy, true);
    chat().stop();
    await sent;
    const a = await lastAssistant(chat());
    assert.equal(a.status, 'stopped');
    assert.equal(a.error, undefined, 'a stop is not an error');
    assert.equal(chat().busy, false);
    assert.equal(chatRequests().length - before, 1, 'no retry after the stop');
    // The next request works (it is the only one: the cancelled retry never fires).
    await chat().send('and now? [[words:3]]');
    assert.equal((await lastAssistant(chat())).status, 'done');
    // Outlive the cancelled wait (Retry-After 5 from the rate-limited request, and a second), then
    // check nothing was sent for it; the case '429 Retry-After 1: waited out, answered' shows that
    // such a wait, not stopped, does send its retry.
    const limited = chatRequests()[before]!;
    await staysFalse(() => chatRequests().length - before > 2, {
      forMs: Math.max(0, limited.at + 6_000 - Date.now()),
      what: 'a retry was sent after the stop',
    });
    assert.equal(chatRequests().length - before, 2, 'exactly the rate-limited request and the next one');
    assert.deepEqual(rejections.slice(rejectionsBefore).map(String), [], 'no unhandled rejection');
  });

  describe('fault matrix: never-ending streams', function () {
    // Needs the decoder's fix: without it these never finish and time out.
    this.timeout(40_000);

    it('keep-alive comments only after 2 chunks: the idle timeout still ends it, partial kept', () =>
      runCase({
        name: 'keepAlive',
        prompt: 'tell me [[words:60]] [[fault:keepAlive:2:250]]',
        status: 'error',
        actions: ['retry'],
        says: /requestTimeoutSeconds/,
        partial: true,
        requests: 1,
      }));

    it('one endless SSE line after 2 chunks: cut at a size cap, partial kept', () =>
      runCase({
        name: 'endlessLine',
        prompt: 'tell me [[words:60]] [[fault:endlessLine:2]]',
        status: 'error',
        actions: ['retry'],
        // The simulator stops sending at 96 MB and keeps the line open: a client without a cap
        // ends by the idle timeout instead, which is not good enough (memory grew all the while).
        saysNot: /requestTimeoutSeconds|Nothing arrived/i,
        partial: true,
        requests: 1,
      }));
  });
});
