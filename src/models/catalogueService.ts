// Owns the live ModelCatalogue: built-in models + the gateway's GET /models + the user's
// `modelgate.models`. Rebuilt when settings or the key change; the gateway list is fetched in
// the background (never on the activation path) and a failure just leaves the built-ins.
import * as vscode from 'vscode';
import { ModelCatalogue } from '../core/catalogue';
import type { Settings } from '../config/settings';
import type { Log } from '../log';
import type { Gateway } from '../services';

export class CatalogueService implements vscode.Disposable {
  private catalogue: ModelCatalogue;
  private gatewayIds: string[] = [];
  private fetchedFor: string | undefined;
  private inflight: Promise<void> | undefined;
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
    this.rebuild();
    if (this.fetchedFor !== this.settings().baseUrl) void this.refresh();
  }

  /** Fetches GET /models when a key is present; at most one request at a time. */
  refresh(): Promise<void> {
    if (this.inflight) return this.inflight;
    this.inflight = (async () => {
      const base = this.settings().baseUrl;
      if (!base || !(await this.hasKey())) return;
      try {
        const models = await this.gateway.client().listModels({ signal: AbortSignal.timeout(15_000) });
        this.gatewayIds = models.map((m) => m.id);
        this.fetchedFor = base;
        this.log.info(`Gateway lists ${models.length} models.`);
        this.rebuild();
      } catch (err) {
        // Not every gateway offers GET /models; the built-in catalogue still works.
        this.fetchedFor = base;
        this.log.warn(`Could not list the gateway's models: ${err instanceof Error ? err.message : String(err)}`);
      }
    })().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private build(): ModelCatalogue {
    const cat = ModelCatalogue.build({ gatewayIds: this.gatewayIds, overrides: this.settings().modelOverrides });
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
