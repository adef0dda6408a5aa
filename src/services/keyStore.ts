// The API key lives in VS Code's SecretStorage and nowhere else (not settings, logs, webview
// state or globalState). It is stored per gateway origin: changing the base URL to another host
// never silently sends an existing key there; the user is asked for that gateway's key.
import * as vscode from 'vscode';
import { SecretCache } from './secretCache';

const PREFIX = 'modelgate.apiKey:';
/** Secret request headers: one JSON object of name -> value per gateway origin. */
const HEADERS_PREFIX = 'modelgate.secretHeaders:';

/** Returns a problem with a pasted key, or undefined if it looks usable. Never echoes the key. */
export function keyProblem(key: string): string | undefined {
  if (!key) return 'The key is empty.';
  if (/\s/.test(key)) return 'The key contains spaces or line breaks; paste only the key.';
  if (/^bearer$/i.test(key)) return 'Paste the key itself, without "Bearer".';
  if (key.length > 4096) return 'The key is longer than 4096 characters.';
  if (/[^\x21-\x7e]/.test(key)) return 'The key contains characters that cannot go into an HTTP header.';
  return undefined;
}

export function normalizeKey(raw: string): string {
  return raw.trim().replace(/^Bearer\s+/i, '');
}

export class KeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  /** origins whose stored key the gateway answered 401 to, until a request with it works (this window only) */
  private readonly rejectedAt = new Set<string>();
  private readonly standing = new vscode.EventEmitter<void>();
  /** The gateway rejected the stored key, or a request with it worked again (see rejected()). */
  readonly onDidChangeStanding = this.standing.event;
  /** what SecretStorage last said per slot, until it says the slot changed (a read is a round trip to the window) */
  private readonly cache: SecretCache;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    /** origin of the configured base URL, or undefined when it is invalid */
    private readonly origin: () => string | undefined,
  ) {
    this.cache = new SecretCache(
      (slot) => this.secrets.get(slot),
      () => this.changed.fire(),
    );
    // Another window (or a web host after reload) may change the secret.
    this.subscription = secrets.onDidChange((e) => {
      if (!e.key.startsWith(PREFIX) && !e.key.startsWith(HEADERS_PREFIX)) return;
      this.cache.forget(e.key);
      this.changed.fire();
    });
  }

  private slot(): string | undefined {
    const o = this.origin();
    return o ? PREFIX + o : undefined;
  }

  /** The key of the configured gateway, or of the gateway at `origin` (a client made for it). */
  async get(origin?: string): Promise<string | undefined> {
    const slot = origin ? PREFIX + origin : this.slot();
    if (!slot) return undefined;
    const v = await this.cache.get(slot);
    return v || undefined;
  }

  async set(raw: string): Promise<void> {
    const slot = this.slot();
    if (!slot) throw new Error('Configure a valid "modelgate.baseUrl" before setting the key: keys are stored per gateway.');
    const key = normalizeKey(raw);
    const problem = keyProblem(key);
    if (problem) throw new Error(vscode.l10n.t('That API key was not saved. {0}', problem));
    await this.secrets.store(slot, key);
    this.cache.forget(slot);
    this.setStanding(slot.slice(PREFIX.length), false); // a new key: not known to be rejected
    this.changed.fire();
  }

  /** Whether the gateway rejected the stored key of the configured gateway (or of `origin`) and no request with it has worked since. */
  rejected(origin = this.origin()): boolean {
    return !!origin && this.rejectedAt.has(origin);
  }

  /** A request with the stored key of `origin` was answered 401 (true) or worked (false). */
  noteAnswer(origin: string, rejected: boolean): void {
    this.setStanding(origin, rejected);
  }

  private setStanding(origin: string, rejected: boolean): void {
    if (this.rejectedAt.has(origin) === rejected) return;
    if (rejected) this.rejectedAt.add(origin);
    else this.rejectedAt.delete(origin);
    this.standing.fire();
  }

  async clear(): Promise<void> {
    const slot = this.slot();
    if (slot) await this.secrets.delete(slot);
    if (slot) this.cache.forget(slot);
    if (slot) this.setStanding(slot.slice(PREFIX.length), false);
    this.changed.fire();
  }

  /** Password input box; stores and returns the key, or undefined if dismissed. */
  async prompt(reason?: string): Promise<string | undefined> {
    const origin = this.origin();
    if (!origin) {
      void vscode.window
        .showErrorMessage(vscode.l10n.t('Configure a valid "modelgate.baseUrl" in your user settings first.'), vscode.l10n.t('Open Settings'))
        .then((a) => {
          if (a) void vscode.commands.executeCommand('workbench.action.openSettings', 'modelgate.baseUrl');
        });
      return undefined;
    }
    const raw = await vscode.window.showInputBox({
      title: vscode.l10n.t('Modelgate API Key'),
      prompt: `${reason ? reason + ' ' : ''}${vscode.l10n.t("Paste the API key for {0}. It is kept in VS Code's secret storage and sent only to this gateway.", origin)}`,
      password: true,
      ignoreFocusOut: true,
      placeHolder: vscode.l10n.t('API key from the gateway console'),
      validateInput: (v) => (v.trim() === '' ? undefined : keyProblem(normalizeKey(v))),
    });
    if (raw === undefined || raw.trim() === '') return undefined;
    await this.set(raw);
    return normalizeKey(raw);
  }

  /**
   * The secret headers of the configured gateway (or of `origin`): name -> value. Stored like
   * the key, per gateway origin, so another host never gets them.
   */
  async secretHeaders(origin?: string): Promise<Record<string, string>> {
    const o = origin ?? this.origin();
    if (!o) return {};
    const raw = await this.cache.get(HEADERS_PREFIX + o);
    if (!raw) return {};
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
      return Object.fromEntries(Object.entries(parsed as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
    } catch {
      return {};
    }
  }

  /** Stores (or, with an empty value, removes) one secret header of the configured gateway. */
  async setSecretHeader(name: string, value: string): Promise<void> {
    const o = this.origin();
    if (!o) throw new Error(vscode.l10n.t('Configure a valid "modelgate.baseUrl" in your user settings first.'));
    const current = await this.secretHeaders(o);
    for (const n of Object.keys(current)) if (n.toLowerCase() === name.toLowerCase()) delete current[n];
    if (value) current[name] = value;
    if (Object.keys(current).length) await this.secrets.store(HEADERS_PREFIX + o, JSON.stringify(current));
    else await this.secrets.delete(HEADERS_PREFIX + o);
    this.cache.forget(HEADERS_PREFIX + o);
    this.changed.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.standing.dispose();
  }
}
