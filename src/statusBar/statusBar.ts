// The status-bar item: current model and channel, and what the last request cost.
// Clicking it opens the combined model/channel picker.
import * as vscode from 'vscode';
import { CHANNEL_CHOICES, CHANNEL_INFO } from '../core/catalogue/modelCatalogue';
import { formatHealth } from '../core/channels/channelHealth';
import { formatUsd } from '../core/spend/cost';
import { totalsLine } from '../core/spend/usageTotals';
import type { Services } from '../services/serviceContainer';
import type { UsageEntry } from '../services/usageLedger';
import { describeChatModel, formatPrice } from './modelChannelPicker';

export class ModelStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subs: vscode.Disposable[] = [];
  private hasKey = true;

  constructor(private readonly services: Services) {
    this.item = vscode.window.createStatusBarItem('modelgate.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Modelgate Model and Channel';
    this.item.command = 'modelgate.pickModelOrChannel';
    this.subs.push(
      services.onDidChangeSettings(() => this.update()),
      services.onDidChangeCatalogue(() => this.update()),
      services.usage.onDidRecord(() => this.update()),
      services.health.onDidChange(() => this.update()),
      services.keys.onDidChange(() => void this.refreshKey()),
      services.keys.onDidChangeStanding(() => this.update()),
    );
    this.update();
    this.item.show();
    void this.refreshKey();
  }

  private async refreshKey(): Promise<void> {
    this.hasKey = !!(await this.services.keys.get());
    this.update();
  }

  /** Text shown, exposed for tests. */
  get text(): string {
    return this.item.text;
  }

  /** The tooltip's markdown, exposed for tests. */
  get tooltip(): string {
    const t = this.item.tooltip;
    return typeof t === 'string' ? t : (t?.value ?? '');
  }

  update(): void {
    const s = this.services.settings();
    const cat = this.services.catalogue();
    const channel = CHANNEL_INFO[s.channel];
    const last = this.services.usage.last();
    const lastCost = lastCostText(last, s.chatModel);
    // a stored key the gateway rejected (401) shows as such until a request with it works
    const keyRejected = this.hasKey && this.services.keys.rejected();
    const icon = !s.baseUrl || !this.hasKey || keyRejected ? '$(warning)' : '$(sparkle)';
    this.item.text = `${icon} ${s.chatModel} · ${s.channel === 'default' ? 'default' : s.channel}${lastCost}`;
    this.item.backgroundColor = !s.baseUrl || !this.hasKey || keyRejected ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const model = cat.chatModel(s.chatModel);
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`${vscode.l10n.t('**Modelgate** — click to switch model or channel')}\n\n`);
    md.appendMarkdown(
      `${vscode.l10n.t('**Model:** {0}', s.chatModel)}${model ? ` — ${describeChatModel(model)}` : vscode.l10n.t(' — not in the catalogue')}\n\n`,
    );
    md.appendMarkdown(`${vscode.l10n.t('**Channel:** {0} — {1}', channel.label, channel.detail)}\n\n`);
    md.appendMarkdown(`${vscode.l10n.t('**Price:** {0}', formatPrice(cat.price(s.chatModel, s.channel)))}\n\n`);
    // measured from this user's own requests (last 200 or 7 days), per channel of the model
    md.appendMarkdown(`**Channel health** of ${s.chatModel} (your requests):\n\n`);
    for (const c of CHANNEL_CHOICES) {
      const line = formatHealth(this.services.health.summary(s.chatModel, c));
      md.appendMarkdown(`- ${c === s.channel ? '**' : ''}${CHANNEL_INFO[c].label}${c === s.channel ? '**' : ''}: ${line}\n`);
    }
    md.appendMarkdown(`\n`);
    if (last) {
      md.appendMarkdown(`${lastRequestLine(last)}\n\n`);
      const t = this.services.usage.total();
      md.appendMarkdown(`**${totalsLine(t)}**\n\n`);
    }
    if (!s.baseUrl) md.appendMarkdown(`$(warning) ${s.baseUrlProblem}\n\n`);
    else if (!this.hasKey) md.appendMarkdown(`$(warning) ${vscode.l10n.t('No API key for {0}: run **Modelgate: Set API Key**.', s.baseUrlOrigin ?? '')}\n\n`);
    else if (keyRejected)
      md.appendMarkdown(`$(warning) ${vscode.l10n.t('{0} rejected the stored API key: run **Modelgate: Set API Key**.', s.baseUrlOrigin ?? '')}\n\n`);
    this.item.tooltip = md;
    this.item.accessibilityInformation = {
      label: keyRejected
        ? vscode.l10n.t('Modelgate: the gateway rejected the API key. Model {0}, channel {1}. Click to switch.', s.chatModel, channel.label)
        : vscode.l10n.t('Modelgate: model {0}, channel {1}. Click to switch.', s.chatModel, channel.label),
    };
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
    this.item.dispose();
  }
}

/**
 * What the last request cost, for the item's text: " · $0.0042" when it used the model shown, and
 * with the model it used when that is another one (a request from VS Code's Chat, another
 * extension or an image), so a cost is never shown beside a model that did not cost it.
 */
export function lastCostText(last: Pick<UsageEntry, 'model' | 'cost'> | undefined, shownModel: string): string {
  if (last?.cost === undefined) return '';
  return last.model === shownModel ? ` · ${formatUsd(last.cost)}` : ` · ${last.model} ${formatUsd(last.cost)}`;
}

/** The tooltip's line about the last request: tokens for a chat answer, the image count for images. */
function lastRequestLine(last: UsageEntry): string {
  const cost = (known: boolean) =>
    last.cost !== undefined ? ` · ${formatUsd(last.cost)}` : known ? vscode.l10n.t(' · no price configured') : vscode.l10n.t(' · cost unknown');
  if (last.source === 'image') {
    const n = last.images ?? 1;
    return `${vscode.l10n.t('**Last request:** {0}', last.model)} · ${n === 1 ? vscode.l10n.t('1 image') : vscode.l10n.t('{0} images', n)}${cost(true)}`;
  }
  const u = last.usage;
  return `${vscode.l10n.t('**Last request:** {0} · {1}', last.model, last.channel)}${u ? vscode.l10n.t(' · {0} prompt ({1} cached) · {2} completion', u.promptTokens, u.cachedTokens, u.completionTokens) : vscode.l10n.t(' · stopped before the gateway reported tokens')}${cost(!!u)}`;
}
