// What the simulated completion model "knows": the code its completions come from. A completion
// is the continuation of the code around the cursor in one of these files (fim-answers.ts), so the
// demo shows sensible ghost text in the sample workspace (test/demo/sample: its files as their
// author would finish them) and the completions benchmark types a file the model can predict.

/** The sample workspace of `npm start`, finished: what a user of the demo may start typing. */
export const SAMPLE_CORPUS: readonly { path: string; text: string }[] = [
  {
    path: 'src/math.ts',
    text: `export function add(a: number, b: number): number {
  return a + b;
}

export function mean(xs: number[]): number {
  return xs.reduce(add, 0) / xs.length;
}

export function sum(xs: number[]): number {
  return xs.reduce(add, 0);
}

export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[mid];
}

export function max(xs: number[]): number {
  return xs.reduce((a, b) => (b > a ? b : a), -Infinity);
}

export function min(xs: number[]): number {
  return xs.reduce((a, b) => (b < a ? b : a), Infinity);
}

export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

export function variance(xs: number[]): number {
  const m = mean(xs);
  return mean(xs.map((x) => (x - m) ** 2));
}

export function stddev(xs: number[]): number {
  return Math.sqrt(variance(xs));
}
`,
  },
  {
    path: 'src/main.ts',
    text: `import { add, mean, median, sum } from './math';

console.log(mean([1, 2, 3]));
console.log(median([3, 1, 2]));
console.log(sum([1, 2, 3]));
console.log(add(1, 2));
`,
  },
];

/**
 * The file the completions benchmark types (`npm run bench -- completions`): 200 lines of an
 * ordinary TypeScript module, the kind of code people type every day.
 */
export const BENCH_SOURCE = `// A small in-memory task queue with retries, priorities and an LRU cache of results.
import { EventEmitter } from 'node:events';

export type Priority = 'low' | 'normal' | 'high';

export interface Task<T> {
  id: string;
  priority: Priority;
  attempts: number;
  run(): Promise<T>;
}

export interface QueueOptions {
  concurrency: number;
  maxAttempts: number;
  retryDelayMs: number;
}

const DEFAULTS: QueueOptions = {
  concurrency: 2,
  maxAttempts: 3,
  retryDelayMs: 250,
};

const RANK: Record<Priority, number> = { low: 0, normal: 1, high: 2 };

export const MAX_QUEUE = 1000;

export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (capacity < 1) throw new RangeError('capacity must be at least 1');
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    if (this.entries.has(key)) this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}

export class TaskQueue<T> extends EventEmitter {
  private readonly waiting: Task<T>[] = [];
  private readonly results = new LruCache<string, T>(100);
  private running = 0;
  private readonly options: QueueOptions;

  constructor(options: Partial<QueueOptions> = {}) {
    super();
    this.options = { ...DEFAULTS, ...options };
  }

  push(task: Task<T>): void {
    this.waiting.push(task);
    this.waiting.sort((a, b) => RANK[b.priority] - RANK[a.priority]);
    this.emit('queued', task.id);
    this.next();
  }

  result(id: string): T | undefined {
    return this.results.get(id);
  }

  get pending(): number {
    return this.waiting.length + this.running;
  }

  private next(): void {
    while (this.running < this.options.concurrency && this.waiting.length > 0) {
      const task = this.waiting.shift();
      if (!task) return;
      this.running++;
      void this.execute(task).finally(() => {
        this.running--;
        this.next();
      });
    }
  }

  private async execute(task: Task<T>): Promise<void> {
    task.attempts++;
    try {
      const value = await task.run();
      this.results.set(task.id, value);
      this.emit('done', task.id, value);
    } catch (error) {
      if (task.attempts < this.options.maxAttempts) {
        await delay(this.options.retryDelayMs * task.attempts);
        this.waiting.unshift(task);
        this.emit('retry', task.id, task.attempts);
      } else {
        this.emit('failed', task.id, error);
      }
    }
  }

  async drain(): Promise<void> {
    while (this.pending > 0) {
      await new Promise<void>((resolve) => this.once('done', () => resolve()));
    }
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function task<T>(id: string, run: () => Promise<T>, priority: Priority = 'normal'): Task<T> {
  return { id, priority, attempts: 0, run };
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (size < 1) throw new RangeError('size must be at least 1');
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size));
  }
  return out;
}

export function groupBy<T, K extends string>(items: readonly T[], keyOf: (item: T) => K): Record<K, T[]> {
  const groups = {} as Record<K, T[]>;
  for (const item of items) {
    const key = keyOf(item);
    (groups[key] ??= []).push(item);
  }
  return groups;
}

export function uniqueBy<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = keyOf(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function retry<T>(run: () => Promise<T>, attempts: number, waitMs: number): Promise<T> {
  return run().catch(async (error: unknown) => {
    if (attempts <= 1) throw error;
    await delay(waitMs);
    return retry(run, attempts - 1, waitMs * 2);
  });
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return \`\${Math.round(ms)} ms\`;
  const seconds = ms / 1000;
  if (seconds < 60) return \`\${seconds.toFixed(1)} s\`;
  const minutes = Math.floor(seconds / 60);
  return \`\${minutes} min \${Math.round(seconds % 60)} s\`;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length));
  return sorted[index];
}

export function summarize(values: readonly number[]): { count: number; mean: number; p50: number; p95: number } {
  const count = values.length;
  const mean = count ? values.reduce((a, b) => a + b, 0) / count : NaN;
  return { count, mean, p50: percentile(values, 50), p95: percentile(values, 95) };
}

export async function runAll<T>(tasks: Task<T>[], concurrency = 2): Promise<Map<string, T>> {
  const queue = new TaskQueue<T>({ concurrency });
  const done = new Map<string, T>();
  queue.on('done', (id: string, value: T) => done.set(id, value));
  for (const t of tasks) queue.push(t);
  await queue.drain();
  return done;
}

export function byPriority<T>(tasks: readonly Task<T>[]): Record<Priority, Task<T>[]> {
  return groupBy(tasks, (t) => t.priority);
}
`;

/** Every file the simulated model knows. */
export const FIM_CORPUS: readonly { path: string; text: string }[] = [...SAMPLE_CORPUS, { path: 'src/queue.ts', text: BENCH_SOURCE }];
