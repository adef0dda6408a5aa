// Writes a response body the way a network would deliver it: respecting back-pressure, in
// tiny pieces for the `drip` fault, and cut off or stalled on demand. Stops quietly once the
// client has gone.
import type { ServerResponse } from 'node:http';
import { sleep, yieldToLoop } from './http-io';

/** Byte sizes of drip pieces, cycled: small and uneven so events and UTF-8 characters split. */
const DRIP_PIECES = [3, 1, 4, 2, 5, 1, 3] as const;

export class ResponseSender {
  private writes = 0;
  private pieceIndex = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly signal: AbortSignal,
    private readonly dripDelayMs?: number,
  ) {}

  get gone(): boolean {
    return this.signal.aborted || this.res.destroyed;
  }

  async write(data: string | Uint8Array): Promise<void> {
    if (this.gone) return;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (this.dripDelayMs === undefined) {
      await this.writeRaw(bytes);
      // In-process, the client shares this event loop: let it read now and then.
      if (++this.writes % 32 === 0) await yieldToLoop();
      return;
    }
    let offset = 0;
    while (offset < bytes.length && !this.gone) {
      const size = DRIP_PIECES[this.pieceIndex++ % DRIP_PIECES.length] as number;
      await this.writeRaw(bytes.subarray(offset, offset + size));
      offset += size;
      await sleep(this.dripDelayMs, this.signal);
    }
  }

  private writeRaw(bytes: Uint8Array): Promise<void> {
    return new Promise((resolve) => {
      if (this.gone) return resolve();
      const flushed = this.res.write(bytes);
      if (flushed) return resolve();
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }

  end(): void {
    if (!this.gone) this.res.end();
  }

  /** Cuts the connection once what was written has reached the socket: the client sees a truncated body. */
  async drop(): Promise<void> {
    if (this.gone) return;
    const socket = this.res.socket;
    await new Promise<void>((resolve) => {
      if (!socket || socket.writableLength === 0) return resolve();
      socket.write('', () => resolve());
    });
    socket?.destroy();
  }

  /** Goes silent until `released` settles, or the client goes (holdStreams). */
  until(released: Promise<void>): Promise<void> {
    if (this.gone) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.signal.removeEventListener('abort', done);
        this.res.off('close', done);
        resolve();
      };
      this.signal.addEventListener('abort', done);
      this.res.once('close', done);
      void released.then(done);
    });
  }

  /** Goes silent for `ms` (forever when undefined, until the client gives up or the server closes). */
  stall(ms: number | undefined): Promise<void> {
    return sleep(ms ?? Infinity, this.signal);
  }
}
