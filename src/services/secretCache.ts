// What the key store last read from SecretStorage, per slot. A read from SecretStorage is a round
// trip to the window's main thread (in a web workbench, to the browser tab and back), and before
// a chat request the key and the secret headers were read four times in a row, each waiting
// behind what the panel had just posted: most of the time from Enter to the request on the wire.
// A value read once is served from memory until SecretStorage says the slot changed (its
// onDidChange fires for this window's writes and for other windows'), and each use also reads the
// slot again in the background: should a change ever arrive without its event, the next use has
// the new value and the store is told (`onStale`). A read that was under way when the slot changed
// is not kept. Pure (no vscode), unit-tested in plain Node.

export class SecretCache {
  readonly #values = new Map<string, string | undefined>();
  /** per slot: bumped by forget(), so a read that started before it is not kept */
  readonly #generations = new Map<string, number>();
  /** per slot: the background read under way (one at a time) */
  readonly #checking = new Set<string>();

  constructor(
    private readonly read: (slot: string) => PromiseLike<string | undefined>,
    /** a background read found a value other than the one served (a change that came without its event) */
    private readonly onStale: (slot: string) => void = () => undefined,
  ) {}

  /** The slot's value: from memory once read (checked again in the background), else read now. */
  async get(slot: string): Promise<string | undefined> {
    if (this.#values.has(slot)) {
      this.#check(slot);
      return this.#values.get(slot);
    }
    const generation = this.#generation(slot);
    const value = await this.read(slot);
    if (this.#generation(slot) === generation) this.#values.set(slot, value);
    return value;
  }

  /** The slot changed (or may have): its next get() reads SecretStorage. */
  forget(slot: string): void {
    this.#generations.set(slot, this.#generation(slot) + 1);
    this.#values.delete(slot);
  }

  #generation(slot: string): number {
    return this.#generations.get(slot) ?? 0;
  }

  #check(slot: string): void {
    if (this.#checking.has(slot)) return;
    this.#checking.add(slot);
    const generation = this.#generation(slot);
    const served = this.#values.get(slot);
    void Promise.resolve(this.read(slot))
      .then(
        (value) => {
          if (this.#generation(slot) !== generation || value === served) return;
          this.#values.set(slot, value);
          this.onStale(slot);
        },
        () => undefined, // unreadable now: the next read that waits for SecretStorage says so
      )
      .finally(() => this.#checking.delete(slot));
  }
}
