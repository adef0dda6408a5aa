// Reservations for the budgets. A budget was checked against what the ledger
// held, and a request only entered the ledger when it ended: eight requests sent at once all
// saw the same figure and all went out (33 % over the budget). Now each request reserves its
// estimated cost before it is sent (its prompt tokens at the input price plus the output it asks
// for, or a typical answer), and the reservation is settled when its real cost is recorded.
// A request is sent only while what was spent plus what is reserved is under the budget, so a
// burst passes a budget by at most the last request's estimate. Pure, unit-tested in plain Node.
import type { Price } from '../catalogue/modelCatalogue';

/** What an answer is expected to take when the caller does not say (capped by the model's maximum). */
export const TYPICAL_OUTPUT_TOKENS = 1_000;

/** Output tokens to reserve: what the caller asked for, else a typical answer; never more than the model's maximum. */
export function expectedOutputTokens(requested: number | undefined, maxOutput: number | undefined): number {
  const want = typeof requested === 'number' && Number.isFinite(requested) && requested > 0 ? Math.ceil(requested) : TYPICAL_OUTPUT_TOKENS;
  return maxOutput && maxOutput > 0 ? Math.min(want, maxOutput) : want;
}

/** USD: prompt tokens at the input price plus output tokens at the output price (prices per 1M tokens). */
export function estimateCost(promptTokens: number, outputTokens: number, price: Price): number {
  return (Math.max(0, promptTokens) * price.input + Math.max(0, outputTokens) * price.output) / 1_000_000;
}

/** A reservation: settle() releases it (once; later calls do nothing). */
export interface Hold {
  /** the order of reservations: a lower id was reserved first */
  readonly id: number;
  readonly usd: number;
  settle(): void;
}

/** The estimates of the requests in flight. */
export class Reservations {
  private readonly held = new Map<number, number>();
  private next = 0;

  /** USD reserved by requests not settled yet */
  total(): number {
    let sum = 0;
    for (const v of this.held.values()) sum += v;
    return sum;
  }

  /** USD reserved by the requests that reserved before `hold` and are not settled yet */
  totalBefore(hold: Hold): number {
    let sum = 0;
    for (const [id, v] of this.held) if (id < hold.id) sum += v;
    return sum;
  }

  /** how many requests hold a reservation */
  get size(): number {
    return this.held.size;
  }

  hold(usd: number): Hold {
    const id = ++this.next;
    const amount = Number.isFinite(usd) && usd > 0 ? usd : 0;
    this.held.set(id, amount);
    return { id, usd: amount, settle: () => void this.held.delete(id) };
  }
}
