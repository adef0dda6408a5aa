// Generated images, kept for the image host until their URL expires (the gateway's URLs are
// temporary: callers should download promptly), plus a small cache of encoded files so that tests asking
// for the same picture again do not pay for encoding it again.
import { randomBytes } from 'node:crypto';
import { encodePng, renderPromptPixels } from './png';

const ENCODED_CACHE_SIZE = 16;

export class ImageStore {
  private readonly byId = new Map<string, { png: Buffer; expiresAt: number }>();
  private readonly encoded = new Map<string, Buffer>();

  constructor(private readonly ttlMs: number) {}

  async render(prompt: string, width: number, height: number, variant: number): Promise<Buffer> {
    const key = `${width}x${height}:${variant}:${prompt}`;
    const hit = this.encoded.get(key);
    if (hit) return hit;
    const png = await encodePng(width, height, renderPromptPixels(prompt, width, height, variant));
    this.encoded.set(key, png);
    if (this.encoded.size > ENCODED_CACHE_SIZE) this.encoded.delete(this.encoded.keys().next().value as string);
    return png;
  }

  /** Keeps `png` for the image host; returns the id of its URL. */
  publish(png: Buffer, now = Date.now()): string {
    this.sweep(now);
    const id = randomBytes(12).toString('hex');
    this.byId.set(id, { png, expiresAt: now + this.ttlMs });
    return id;
  }

  get(id: string, now = Date.now()): Buffer | undefined {
    const entry = this.byId.get(id);
    if (!entry) return undefined;
    if (now >= entry.expiresAt) {
      this.byId.delete(id);
      return undefined;
    }
    return entry.png;
  }

  private sweep(now: number): void {
    for (const [id, entry] of this.byId) if (now >= entry.expiresAt) this.byId.delete(id);
  }

  clear(): void {
    this.byId.clear();
  }
}
