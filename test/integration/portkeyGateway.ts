// The Portkey AI Gateway (npm package @portkey-ai/gateway, a devDependency; docs/gateways.md) as a
// child process of the test, on 127.0.0.1 and a port of its own choosing:
//
//   const portkey = await startPortkey();   // portkey.baseUrl = http://127.0.0.1:<port>/v1
//   ...
//   await portkey.close();
//
// It runs on the Node that runs this code (the extension host's; Electron's in Node mode under
// @vscode/test-electron), with test/harness/loopback-only.cjs preloaded: it listens on 127.0.0.1
// only, and every connection it tries to open elsewhere fails. Its environment is cleared (a
// proxy variable or REDIS_CONNECTION_STRING of the machine must not reach it). It is in the
// extension host's process group, which the harness kills as a whole (test/harness/processes.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../harness/paths';

export interface RunningPortkey {
  /** http://127.0.0.1:<port>/v1 */
  readonly baseUrl: string;
  /** what it printed so far (stdout and stderr), for a failure message */
  output(): string;
  close(): Promise<void>;
}

// Portkey listens within a few seconds; a 2-core CI machine at load 50 can take several times that.
const START_TIMEOUT_MS = 45_000;

export async function startPortkey(): Promise<RunningPortkey> {
  const root = repoRoot();
  const entry = join(root, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  if (!existsSync(entry)) throw new Error(`the Portkey AI Gateway is not installed (${entry}): run \`npm ci\``);
  const preload = join(root, 'test/harness/loopback-only.cjs');
  const child = spawn(process.execPath, ['--require', preload, entry, '--port=0', '--headless'], {
    cwd: root,
    env: { ELECTRON_RUN_AS_NODE: '1', PATH: process.env.PATH ?? '', NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (output += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (output += s));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Portkey did not listen within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      const onData = () => {
        const m = /loopback-only: listening (\d+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      };
      child.stderr!.on('data', onData);
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`Portkey exited (code ${child.exitCode})`));
      });
    });
  } catch (e) {
    await stop(child, exited);
    throw new Error(`${(e as Error).message}; its output:\n${output}`);
  }

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    output: () => output,
    close: () => stop(child, exited),
  };
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
