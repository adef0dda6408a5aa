// Enter to the request on the wire, in a real VS Code extension host: from the chat view's `send`
// message arriving in the host (the view provider's receive, the path every webview message takes)
// to the request's headers written to the socket (undici's `undici:client:sendHeaders`
// diagnostics channel, which Node's fetch publishes). The figure goes to
// test-results/sendToWire.json and `npm run bench -- sendToWire` prints it; nothing is asserted
// about time. MODELGATE_BENCH_CPU_PROFILE=1 also writes a CPU profile of the sends
// (test-results/sendToWire.cpuprofile, for Chrome's DevTools or any .cpuprofile viewer).
import * as assert from 'node:assert/strict';
import * as diagnostics from 'node:diagnostics_channel';
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { until, useModelgate } from './helpers';

const KEY = 'sk-send-to-wire-7c2e19';
/** `npm run bench -- sendToWire` sends 40; a plain `npm test` run sends 5 (the path works, the figure is rough) */
const SENDS = process.env.MODELGATE_BENCH_SENDS ? Number(process.env.MODELGATE_BENCH_SENDS) : 5;
const PER_CONVERSATION = 4;

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? NaN;
const threadCpuMs = () => {
  const u = (process as unknown as { threadCpuUsage(): { user: number; system: number } }).threadCpuUsage();
  return (u.user + u.system) / 1000;
};

describe('chat: Enter to the request on the wire (real VS Code)', function () {
  this.timeout(180_000);
  const mg = useModelgate({ gateway: { keys: { [KEY]: { balance: 100 } } }, settings: { 'chat.model': 'flagship-text' }, key: KEY, chat: true });

  before(async () => {
    await vscode.commands.executeCommand('modelgate.openChat');
    await until(() => mg.api.chat.view.served?.html, 'the chat view to be resolved');
  });

  it('bench: the send message to the request headers on the socket, 40 sends in the bench (figures to test-results/sendToWire.json, never asserted)', async () => {
    let wrote: number | undefined;
    let wroteCpu = 0;
    const onHeaders = (message: unknown) => {
      const request = (message as { request?: { path?: string } }).request;
      if (wrote !== undefined || !request?.path?.endsWith('/chat/completions')) return;
      wrote = performance.now();
      wroteCpu = threadCpuMs();
    };
    diagnostics.subscribe('undici:client:sendHeaders', onHeaders);
    const profile = process.env.MODELGATE_BENCH_CPU_PROFILE === '1' ? new inspector.Session() : undefined;
    const post = (method: string, params?: object) =>
      new Promise<unknown>((resolve, reject) => profile!.post(method, params, (err, result) => (err ? reject(err) : resolve(result))));
    const samples: number[] = [];
    const cpu: number[] = [];
    try {
      const chat = mg.api.chat.controller;
      // one send that warms up (the first request opens the connection and loads fetch)
      await chat.newChat();
      await chat.send('Warm up [[words:3]]');
      await chat.whenIdle();
      if (profile) {
        profile.connect();
        await post('Profiler.enable');
        await post('Profiler.setSamplingInterval', { interval: 100 });
        await post('Profiler.start');
      }
      for (let i = 0; i < SENDS; i++) {
        if (i % PER_CONVERSATION === 0) await chat.newChat();
        await new Promise((r) => setTimeout(r, 150)); // a person reads, then types
        wrote = undefined;
        const cpu0 = threadCpuMs();
        const t0 = performance.now();
        mg.api.chat.view.receive({ type: 'send', text: `Question ${i}: what does this do? [[words:5]]` });
        await until(() => wrote !== undefined, 'the request on the wire', 20_000);
        samples.push(wrote! - t0);
        cpu.push(wroteCpu - cpu0);
        await chat.whenIdle();
        const last = (await chat.conversation()).messages.at(-1);
        assert.equal(last?.role === 'assistant' && last.status, 'done');
      }
      if (profile) {
        const { profile: cpuProfile } = (await post('Profiler.stop')) as { profile: unknown };
        const dir = path.resolve(__dirname, '..', '..', '..', 'test-results');
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'sendToWire.cpuprofile'), JSON.stringify(cpuProfile));
      }
    } finally {
      diagnostics.unsubscribe('undici:client:sendHeaders', onHeaders);
      profile?.disconnect();
    }
    const dir = path.resolve(__dirname, '..', '..', '..', 'test-results');
    fs.mkdirSync(dir, { recursive: true });
    const figures = {
      date: new Date().toISOString(),
      host: `VS Code ${vscode.version}`,
      sends: SENDS,
      p50Ms: quantile(samples, 0.5),
      p95Ms: quantile(samples, 0.95),
      maxMs: Math.max(...samples),
      cpuP50Ms: quantile(cpu, 0.5),
      samplesMs: samples.map((s) => Math.round(s * 10) / 10),
    };
    fs.writeFileSync(path.join(dir, 'sendToWire.json'), JSON.stringify(figures, null, 2) + '\n');
    console.log(
      `[bench] send to wire: p50 ${figures.p50Ms.toFixed(1)} ms, p95 ${figures.p95Ms.toFixed(1)} ms, thread CPU p50 ${figures.cpuP50Ms.toFixed(1)} ms`,
    );
  });
});
