// Owns the live ModelCatalogue: built-in models + the gateway's GET /models + the user's
// `modelgate.models`. Rebuilt when settings or the key change; the gateway list is fetched in
// the background (never on the activation path) and a failure just leaves the built-ins.
import * as vscode from 'vscode';
import { ModelCatalogue } from '../core/catalogue/modelCatalogue';
import { describeFactsProblems, parseModelFacts, type GatewayModelFacts } from '../core/catalogue/modelFacts';
import { servedChatModel, servedImageModel, servedOnly, type UserModel } from '../core/catalogue/servedModels';
import type { Settings } from './settings';
import type { Log } from './log';
import type { Gateway } from './serviceContainer';
import { errorText } from '../core/errorText';

export class CatalogueService implements vscode.Disposable {
  private catalogue: ModelCatalogue;
  /** what the gateway's GET /models says about each model it lists */
  private gatewayModels: GatewayModelFacts[] = [];
  /** the gateway's /models answered with this list (for the current base URL): what it does not list is not served */
  private listed: GatewayModelFacts[] | undefined;
  /** the last settings given to servedSettings and what they became, so callers get one object per change */
  private served: { raw: Settings; catalogue: ModelCatalogue; out: Settings } | undefined;
  private fetchedFor: string | undefined;
  private inflight: Promise<void> | undefined;
  private inflightFor: string | undefined;
  /** when the fetch in flight read the key (keyVersion) and whether it found one */
  private inflightKey = { readAt: 0, found: false };
  /** bumped on every key change */
  private keyVersion = 0;
  private readonly warned = new Set<string>();
  private readonly changed = new vscode.EventEmitter<ModelCatalogue>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly settings: () => Settings,
    private readonly gateway: Gateway,
    private readonly hasKey: () => Promise<boolean>,
    private readonly log: Log,
  ) {
    this.catalogue = this.build();
  }

  current(): ModelCatalogue {
    return this.catalogue;
  }

  /** Settings changed: rebuild now; refetch the gateway list if the base URL changed. */
  settingsChanged(): void {
    // Another gateway: the models the previous one listed are not this one's.
    if (this.fetchedFor !== undefined && this.fetchedFor !== this.settings().baseUrl) {
      this.gatewayModels = [];
      this.listed = undefined;
    }
    this.rebuild();
    if (this.fetchedFor !== this.settings().baseUrl) void this.refresh();
  }

  /** The key was stored or removed: a listing that found no key must not answer for the new one. */
  keyChanged(): void {
    this.keyVersion++;
    void this.refresh();
  }

  /**
   * Fetches GET /models when a key is present; at most one request at a time. The promise ends
   * when the list of the base URL configured at the call has landed (or could not be had), so a
   * caller may await it before refusing a model id the catalogue does not know yet.
   */
  refresh(): Promise<void> {
    const wanted = this.settings().baseUrl;
    const inflight = this.inflight;
    if (inflight) {
      // The fetch in flight answers this call if it is for this base URL and either found a key
      // or read it after the last key change. Otherwise (the setting changed meanwhile, or it saw
      // no key and one was stored since) let it end, then fetch again, so a caller waiting here
      // sees this gateway's list.
      const answers = this.inflightFor === wanted && (this.inflightKey.found || this.inflightKey.readAt === this.keyVersion);
      return answers ? inflight : inflight.then(() => this.refresh());
    }
    this.inflightFor = wanted;
    const key: { readAt: number; found: boolean } = (this.inflightKey = { readAt: this.keyVersion, found: false });
    const switched = () => this.settings().baseUrl !== wanted;
    this.inflight = (async () => {
      if (!wanted) return;
      key.found = await this.hasKey();
      if (!key.found || switched()) return;
      try {
        const models = await this.gateway.client().listModels({ signal: AbortSignal.timeout(15_000) });
        // The gateway changed while this was in flight: its list is not the new gateway's.
        if (switched()) return;
        const facts = parseModelFacts(models);
        this.gatewayModels = facts.models;
        // an empty list says nothing about what is served (some gateways list nothing)
        this.listed = models.length ? facts.models : undefined;
        this.fetchedFor = wanted;
        this.log.info(`Gateway lists ${models.length} models.`);
        // Bad values are skipped, one line for all of them; the list itself is used.
        const bad = describeFactsProblems(facts.problems);
        if (bad) this.log.warn(bad);
        this.rebuild();
      } catch (err) {
        if (switched()) return;
        // Not every gateway offers GET /models; the built-in catalogue still works.
        this.fetchedFor = wanted;
        this.log.warn(`Could not list the gateway's models: ${errorText(err)}`);
      }
    })().finally(() => {
      this.inflight = undefined;
      this.inflightFor = undefined;
    });
    return this.inflight;
  }

  /**
   * `raw` with the chat and image model the gateway serves in place of a default it does not
   * (a model the user set stays as set). Services.settings() is this.
   */
  servedSettings(raw: Settings): Settings {
    const cached = this.served;
    if (cached && cached.raw === raw && cached.catalogue === this.catalogue) return cached.out;
    const chatModel = raw.chatModelSet ? raw.chatModel : servedChatModel(this.catalogue, raw.chatModel);
    const imageModel = raw.imageModelSet ? raw.imageModel : servedImageModel(this.catalogue, raw.imageModel);
    const out = chatModel === raw.chatModel && imageModel === raw.imageModel ? raw : { ...raw, chatModel, imageModel };
    this.served = { raw, catalogue: this.catalogue, out };
    return out;
  }

  private build(): ModelCatalogue {
    const s = this.settings();
    const userModels: UserModel[] = [
      ...(s.chatModelSet ? [{ id: s.chatModel, kind: 'chat' as const }] : []),
      ...(s.imageModelSet ? [{ id: s.imageModel, kind: 'image' as const }] : []),
    ];
    const all = ModelCatalogue.build({ gatewayModels: this.gatewayModels, overrides: s.modelOverrides });
    const cat = servedOnly(all, this.listed, s.modelOverrides, userModels);
    for (const p of cat.problems) {
      const text = vscode.l10n.t('Modelgate: the "modelgate.models" entry for "{0}" is invalid and was ignored: {1}', p.modelId, p.message);
      if (this.warned.has(text)) continue;
      this.warned.add(text);
      this.log.warn(text);
      void vscode.window.showWarningMessage(text, vscode.l10n.t('Open Settings')).then((a) => {
        if (a) void vscode.commands.executeCommand('workbench.action.openSettingsJson');
      });
    }
    return cat;
  }

  private rebuild(): void {
    this.catalogue = this.build();
    this.changed.fire(this.catalogue);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
