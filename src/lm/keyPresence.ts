// Whether an API key is stored, known without waiting: SecretStorage is asynchronous, but a
// request refused before the provider returns makes VS Code reject the caller's sendRequest
// itself (measured in 1.139), which is where vscode.lm callers look for "cannot use this model".
// Only a key known to be MISSING is acted on; while a re-read is pending nothing is assumed,
// and the request goes on to the client, which reports a missing key itself.
// Pure (the key store and events are passed in as plain functions).

interface Subscription {
  dispose(): void;
}

export class KeyPresence {
  private known: boolean | undefined;
  private generation = 0;
  private readonly subscriptions: Subscription[];

  constructor(
    private readonly readKey: () => Promise<string | undefined>,
    /** events after which the stored key may differ (key set or cleared, base URL changed) */
    changes: ((listener: () => void) => Subscription)[],
  ) {
    this.subscriptions = changes.map((on) => on(() => this.refresh()));
    this.refresh();
  }

  private refresh(): void {
    const generation = ++this.generation;
    this.known = undefined;
    this.readKey().then(
      (key) => {
        if (generation === this.generation) this.known = !!key;
      },
      () => {
        // unreadable: stay undefined (unknown), never "missing"
      },
    );
  }

  /** True only when the last completed read found no key and no re-read is pending. */
  knownMissing(): boolean {
    return this.known === false;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
