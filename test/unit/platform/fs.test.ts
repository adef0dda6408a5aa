// Crash safety of image saving (docs/reliability.md, category 8): a process killed (SIGKILL) in the middle of
// writing an image must not leave a half-written file under the image's final name. The write
// is the one the saver uses for file: URIs (nodeFs.createExclusive); a child process (this very
// bundle, started in writer mode) writes a large image and is killed by this test the moment a
// file shows up in the folder (inotify through fs.watch), so the kill lands while bytes are
// still being written. Afterwards the final name holds nothing or every byte, never a part.
import * as assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { isStaleTemp, nodeFs, STALE_TEMP_MS, TEMP_NAME } from '../../../src/platform/fs';

const WRITER_ENV = 'MODELGATE_KILL_WRITER_TARGET';
const SIZE = 96 * 1024 * 1024; // large enough that writing it takes a while on any disk

function imageBytes(): Uint8Array {
  const bytes = new Uint8Array(SIZE);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]); // the PNG signature
  for (let i = 8; i < SIZE; i += 4096) bytes[i] = (i / 4096) & 0xff;
  bytes[SIZE - 1] = 0x42; // the last byte tells a whole file from a cut one
  return bytes;
}

// Writer mode: the forked copy of this bundle writes one image and exits.
const target = process.env[WRITER_ENV];
if (target) {
  void nodeFs!.createExclusive(target, imageBytes()).then(
    (r) => process.send?.(r, () => process.exit(0)),
    (err: Error) => {
      console.error(err);
      process.exit(2);
    },
  );
}

/** Starts the writer and kills it when `trigger(name)` says so for a file name event in the folder. */
function writeAndKill(file: string, trigger: (name: string) => boolean): Promise<{ killed: boolean; result?: string }> {
  return new Promise((resolve, reject) => {
    const dir = dirname(file);
    let killed = false;
    let result: string | undefined;
    const child = fork(__filename, [], { env: { ...process.env, [WRITER_ENV]: file }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const watcher = watch(dir, (_event, name) => {
      if (!killed && name && trigger(String(name))) {
        killed = child.kill('SIGKILL');
      }
    });
    child.on('message', (m) => (result = String(m)));
    child.once('error', reject);
    child.once('exit', () => {
      watcher.close();
      resolve({ killed, result });
    });
  });
}

function checkFinalName(file: string): string {
  if (!existsSync(file)) return 'absent';
  const size = statSync(file).size;
  assert.equal(size, SIZE, `a half-written image is left under its final name (${size} of ${SIZE} bytes)`);
  const bytes = readFileSync(file);
  assert.equal(bytes[SIZE - 1], 0x42, 'the image under its final name is whole');
  return 'whole';
}

if (!target) {
  describe('image saving: the writing process killed mid-write (real SIGKILL)', function () {
    this.timeout(120_000);
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'mg-kill-write-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('killed as soon as the final name appears: nothing there or the whole image, never a part', async () => {
      const file = join(dir, 'sunset-1.png');
      const run = await writeAndKill(file, (name) => name === basename(file));
      const state = checkFinalName(file);
      console.log(
        `[kill mid-write] killed at the final name: ${run.killed ? 'killed' : `not killed (${run.result})`}; final name ${state}; other files: ${
          readdirSync(dir)
            .filter((n) => n !== basename(file))
            .join(', ') || 'none'
        }`,
      );
      assert.ok(run.killed || run.result === 'created');
    });

    it('killed as soon as any file appears in the folder: nothing or the whole image under the final name', async () => {
      const file = join(dir, 'sunset-2.png');
      const run = await writeAndKill(file, () => true);
      assert.ok(run.killed, 'the writer was killed');
      const state = checkFinalName(file);
      console.log(`[kill mid-write] killed at the first file event: final name ${state}; left: ${readdirSync(dir).join(', ') || 'nothing'}`);
    });

    it('the name is then still taken exclusively: a later run gets "taken" for an existing image and writes a new name whole', async () => {
      const file = join(dir, 'sunset-3.png');
      assert.equal(await nodeFs!.createExclusive(file, new Uint8Array([1, 2, 3])), 'created');
      assert.equal(await nodeFs!.createExclusive(file, new Uint8Array([4])), 'taken');
      assert.deepEqual([...readFileSync(file)], [1, 2, 3]);
      assert.deepEqual(readdirSync(dir), ['sunset-3.png'], 'no temporary file left behind');
    });

    it("a crash's leftover temporary file is removed by the next save into that folder; a fresh one (a write in progress) is kept", async () => {
      const stale = join(dir, '.sunset-4.png.0b6f3f6e-1d2a-4c3b-9e8f-7a6b5c4d3e2f.tmp');
      const fresh = join(dir, '.sunset-5.png.1c7a4a7f-2e3b-4d4c-8f9a-8b7c6d5e4f30.tmp');
      const other = join(dir, '.notes.tmp'); // not ours
      for (const f of [stale, fresh, other]) writeFileSync(f, 'half');
      const old = (Date.now() - STALE_TEMP_MS - 60_000) / 1000;
      utimesSync(stale, old, old);
      utimesSync(other, old, old);
      assert.equal(await nodeFs!.createExclusive(join(dir, 'sunset-6.png'), new Uint8Array([1])), 'created');
      assert.deepEqual(readdirSync(dir).sort(), ['.notes.tmp', basename(fresh), 'sunset-6.png'].sort());
    });

    it("the leftover of a killed writer is removed by the very next save (its process is gone); a running process's and another machine's stay", async () => {
      const run = await writeAndKill(join(dir, 'sunset-7.png'), () => true);
      assert.ok(run.killed, 'the writer was killed');
      const leftovers = readdirSync(dir).filter((n) => TEMP_NAME.test(n));
      assert.equal(leftovers.length, 1, `the killed write left its temporary file: ${readdirSync(dir).join(', ')}`);
      const [, host, pid] = TEMP_NAME.exec(leftovers[0]!)!;
      assert.ok(host && pid, `the temporary file names its writer: ${leftovers[0]}`);
      // young files of writers that may still be writing: a running process here, any process elsewhere
      const running = `.sunset-8.png.2d8b5b80-3f4c-4e5d-9a0b-9c8d7e6f5a41.${host}-${process.ppid}.tmp`;
      const elsewhere = `.sunset-9.png.3e9c6c91-405d-4f6e-8b1c-ad9e8f7a6b52.${host.replace(/^./, (c) => (c === '0' ? '1' : '0'))}-${pid}.tmp`;
      for (const f of [running, elsewhere]) writeFileSync(join(dir, f), 'half');
      assert.equal(await nodeFs!.createExclusive(join(dir, 'sunset-10.png'), new Uint8Array([1])), 'created');
      assert.deepEqual(readdirSync(dir).sort(), [elsewhere, running, 'sunset-10.png'].sort());
      console.log(`[kill mid-write] leftover ${leftovers[0]} (writer ${pid}, gone) removed by the next save`);
    });

    it('isStaleTemp: only names of its own pattern; old ones of any writer', () => {
      const now = Date.now();
      assert.equal(isStaleTemp('.a.png.0b6f3f6e-1d2a-4c3b-9e8f-7a6b5c4d3e2f.tmp', now - STALE_TEMP_MS - 1, now), true);
      assert.equal(isStaleTemp('.a.png.0b6f3f6e-1d2a-4c3b-9e8f-7a6b5c4d3e2f.tmp', now, now), false);
      assert.equal(isStaleTemp('.a.png.0b6f3f6e-1d2a-4c3b-9e8f-7a6b5c4d3e2f.00000000-1.tmp', now, now), false); // pid 1: never taken for gone
      assert.equal(isStaleTemp('.notes.tmp', 0, now), false);
      assert.equal(isStaleTemp('a.png', 0, now), false);
    });
  });
}
