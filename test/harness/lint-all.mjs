// `npm run lint`: ESLint, the cycle check and the format check side by side. ESLint is most of it
// (about 35 s of CPU; the cycle check about 9 s, oxfmt under 1 s); each is one process, so side by
// side the two cores share them. Each check's output is printed whole when it ends; the exit code
// is the first failing check's, else 0.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const checks = ['lint:eslint', 'lint:cycles', 'lint:format'];

const results = await Promise.all(
  checks.map(
    (script) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        child.on('error', (err) => (output += `${err.message}\n`));
        child.on('close', (code) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          process.stdout.write(`> ${script}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s\n${output}`);
          resolve({ script, code: code ?? 1 });
        });
      }),
  ),
);
const failed = results.find((r) => r.code !== 0);
process.exitCode = failed ? failed.code : 0;
