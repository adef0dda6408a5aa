// Model and channel pickers. One combined quick pick opens from the status bar (two clicks to
// switch either); `modelgate.pickModel` / `modelgate.pickChannel` open one list each, or set the
// value directly when given an argument (for keybindings, other extensions and tests).
import * as vscode from 'vscode';
import { CHANNEL_CHOICES, CHANNEL_INFO, type ChannelChoice, type ChatModelInfo, type ModelCatalogue, type Price } from '../core/catalogue/modelCatalogue';
import { formatHealth } from '../core/channels/channelHealth';
import { REASONING_EFFORTS } from '../core/client/modelParams';
import { updateChoice, updateReasoningEffort } from '../services/settings';
import type { Services } from '../services/serviceContainer';
import { COMPLETIONS_COMMANDS } from '../shared/featureIds';

export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${+(n / 1000).toFixed(0)}K`;
  return String(n);
}

export function formatPrice(p: Price | undefined): string {
  if (!p) return vscode.l10n.t('no price configured (set modelgate.models)');
  const cache = p.cacheRead !== undefined ? vscode.l10n.t(' · cached ${0}', p.cacheRead) : '';
  return vscode.l10n.t('${0} in · ${1} out{2} per 1M tokens', p.input, p.output, cache);
}

/** The short price the pickers show whole: "$2 / $8 per 1M" (input / output), "· $0.25 cached". */
export function formatPriceShort(p: Price | undefined): string {
  if (!p) return 'no price configured';
  return `$${p.input} / $${p.output} per 1M${p.cacheRead !== undefined ? ` · $${p.cacheRead} cached` : ''}`;
}

/** What a picker row shows, for tests and other extensions (ModelgateApi.channelPickerItems). */
export interface PickerItemView {
  label: string;
  description?: string;
  detail?: string;
}

const CHANNEL_BLURB: Record<ChannelChoice, string> = {
  default: 'the gateway picks',
  direct: 'full context window',
  stable: 'routed for reliability',
  economical: 'routed for price',
};

export function describeChatModel(m: ChatModelInfo): string {
  return [
    vscode.l10n.t('{0} context', formatTokens(m.contextWindow)),
    vscode.l10n.t('{0} output', formatTokens(m.maxOutput)),
    m.imageInput ? vscode.l10n.t('text + images') : vscode.l10n.t('text only'),
    m.tools ? vscode.l10n.t('tools') : vscode.l10n.t('no tools'),
    m.caching ? vscode.l10n.t('prompt caching') : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * A row and what choosing it does. `picks`: it picks a model, a channel or an effort, so the
 * command reports a pick (the walkthrough's "Pick a model and a channel" ticks on it); the
 * Gateway rows (the key, VS Code's Chat) run something else and pick nothing.
 */
type Item = vscode.QuickPickItem & { run?: () => Promise<unknown>; picks?: true };

/**
 * The label of the active row of the open picker (ModelgateApi.pickerActiveRow, for tests): the
 * one it opened on (Enter picks it), then wherever VS Code moves it; undefined once it closed.
 */
let lastPickerActive: string | undefined;
export const pickerActiveRow = (): string | undefined => lastPickerActive;
/** The rows of the open picker, separators included, in order (ModelgateApi.pickerRows, for tests); undefined once it closed. */
let lastPickerRows: PickerItemView[] | undefined;
export const pickerRows = (): PickerItemView[] | undefined => lastPickerRows;

/** The price with where it came from: "$2 / $8 per 1M (gateway)" or "… (settings)". */
export function priceWithSource(cat: ModelCatalogue, model: string, channel: ChannelChoice): string {
  const source = cat.priceSource(model, channel);
  const price = formatPriceShort(cat.price(model, channel));
  if (source === 'gateway') return vscode.l10n.t('{0} (from the gateway)', price);
  if (source === 'settings') return vscode.l10n.t('{0} (from your settings)', price);
  return price;
}

/**
 * The model rows; under the current model, when it thinks, one row with its reasoning effort
 * (it opens the effort's own list): beside the model it applies to, on the picker's first screen
 * (the picker opens on the current model), not in a section under the channels and the key.
 */
function modelItems(cat: ModelCatalogue, current: string, channel: ChannelChoice): Item[] {
  const rows = modelRows(cat, current, channel);
  const effort = effortRow(cat, current);
  if (!effort) return rows;
  const at = rows.findIndex((r) => r.label.startsWith('$(check)'));
  rows.splice(at < 0 ? rows.length : at + 1, 0, effort);
  return rows;
}

/** The effort in words: "high", or "model default" when none is sent. */
export function effortText(effort: string | undefined): string {
  return effort ?? vscode.l10n.t('model default');
}

/** The row that shows the current model's reasoning effort and opens the list of efforts; undefined for a model that does not think. */
function effortRow(cat: ModelCatalogue, model: string): Item | undefined {
  const m = cat.chatModel(model);
  if (!m?.reasoning) return undefined;
  return {
    label: `$(blank) $(lightbulb) ${vscode.l10n.t('Reasoning effort: {0}', effortText(m.params?.reasoningEffort))}`,
    description: vscode.l10n.t('how long {0} thinks before it answers; pick to change', model),
    run: () => pickReasoningEffort(cat, model),
    picks: true,
  };
}

/** The list of efforts for `model`, the current one checked (Enter keeps it). */
export function pickReasoningEffort(cat: ModelCatalogue, model: string): Promise<boolean> {
  return show(
    reasoningItems(cat, model),
    vscode.l10n.t('Modelgate: Reasoning Effort of {0}', model),
    vscode.l10n.t('How long the model thinks before it answers'),
  );
}

function modelRows(cat: ModelCatalogue, current: string, channel: ChannelChoice): Item[] {
  return cat.chatModels().map((m) => ({
    label: `${m.id === current ? '$(check) ' : '$(blank) '}${m.id}`,
    // a model the gateway does not list is here only because the user set it: say so
    description: m.unlisted
      ? m.label !== m.id
        ? vscode.l10n.t('{0} · not listed by the gateway', m.label)
        : vscode.l10n.t('not listed by the gateway')
      : m.label !== m.id
        ? m.label
        : undefined,
    // the price first, so a narrow picker cuts the capabilities, never the price
    detail: `${priceWithSource(cat, m.id, channel)} · ${describeChatModel(m)}`,
    run: () => updateChoice('chat.model', m.id),
    picks: true,
  }));
}

/** Rows to switch the reasoning effort of `model` (only for a model that takes one). */
export function reasoningItems(cat: ModelCatalogue, model: string): Item[] {
  const m = cat.chatModel(model);
  if (!m?.reasoning) return [];
  const current = m.params?.reasoningEffort;
  const row = (effort: string | undefined, label: string): Item => ({
    label: `${effort === current ? '$(check) ' : '$(blank) '}${label}`,
    description: effort === undefined ? vscode.l10n.t('no reasoning_effort sent; the model decides') : `reasoning_effort: ${effort}`,
    run: () => updateReasoningEffort(model, effort),
    picks: true,
  });
  return [row(undefined, vscode.l10n.t('Model default')), ...REASONING_EFFORTS.map((e) => row(e, e))];
}

/**
 * One row per channel: the price (whole) and the health measured from the user's own requests
 * for this model, e.g. "$2 / $8 per 1M · p50 first token 0.8 s · 62 tok/s · 1 error in 40".
 */
function channelItems(services: Services, model: string, current: ChannelChoice): Item[] {
  const cat = services.catalogue();
  return CHANNEL_CHOICES.map((c) => ({
    label: `${c === current ? '$(check) ' : '$(blank) '}${CHANNEL_INFO[c].label}`,
    description: CHANNEL_BLURB[c],
    detail: `${cat.chatModel(model) ? `${priceWithSource(cat, model, c)} · ` : ''}${formatHealth(services.health.summary(model, c), { short: true })}`,
    run: () => updateChoice('channel', c),
    picks: true,
  }));
}

export function modelPickerItems(services: Services): PickerItemView[] {
  const s = services.settings();
  return modelItems(services.catalogue(), s.chatModel, s.channel).map(({ label, description, detail }) => ({ label, description, detail }));
}

export function channelPickerItems(services: Services): PickerItemView[] {
  const s = services.settings();
  return channelItems(services, s.chatModel, s.channel).map(({ label, description, detail }) => ({ label, description, detail }));
}

/** The row Enter picks when the picker opens: the current choice (the first checked row), so Enter changes nothing. */
export function initialRow<T extends vscode.QuickPickItem>(items: readonly T[]): T | undefined {
  return items.find((i) => i.kind !== vscode.QuickPickItemKind.Separator && i.label.startsWith('$(check)'));
}

async function show(items: Item[], title: string, placeHolder: string): Promise<boolean> {
  const qp = vscode.window.createQuickPick<Item>();
  Object.assign(qp, { items, title, placeholder: placeHolder, matchOnDescription: true, matchOnDetail: true });
  const current = initialRow(items);
  if (current) qp.activeItems = [current];
  lastPickerActive = current?.label;
  lastPickerRows = items.map(({ label, description, detail }) => ({ label, description, detail }));
  qp.onDidChangeActive((active) => (lastPickerActive = active[0]?.label));
  const pick = await new Promise<Item | undefined>((resolve) => {
    qp.onDidAccept(() => resolve(qp.selectedItems[0] ?? qp.activeItems[0]));
    qp.onDidHide(() => resolve(undefined));
    qp.show();
  });
  qp.dispose();
  lastPickerActive = undefined;
  lastPickerRows = undefined;
  if (!pick?.run) return false;
  await pick.run();
  return pick.picks === true;
}

export async function pickModel(services: Services, arg?: unknown): Promise<boolean> {
  const cat = services.catalogue();
  if (typeof arg === 'string') {
    if (!cat.chatModel(arg)) {
      const known = cat
        .chatModels()
        .map((m) => m.id)
        .join(', ');
      throw new Error(vscode.l10n.t('Unknown chat model "{0}". Known models: {1}. Add others in "modelgate.models".', arg, known));
    }
    await updateChoice('chat.model', arg);
    return true;
  }
  void services.refreshCatalogue();
  const s = services.settings();
  return show(modelItems(cat, s.chatModel, s.channel), vscode.l10n.t('Modelgate: Chat Model'), vscode.l10n.t('Model for the next chat request'));
}

export async function pickChannel(services: Services, arg?: unknown): Promise<boolean> {
  if (typeof arg === 'string') {
    if (!(CHANNEL_CHOICES as readonly string[]).includes(arg)) {
      throw new Error(vscode.l10n.t('Unknown channel "{0}". Allowed: {1}.', arg, CHANNEL_CHOICES.join(', ')));
    }
    await updateChoice('channel', arg);
    return true;
  }
  const s = services.settings();
  return show(
    channelItems(services, s.chatModel, s.channel),
    vscode.l10n.t('Modelgate: Channel'),
    vscode.l10n.t('Channel for the next request (switching mid-conversation loses the prompt cache)'),
  );
}

/**
 * What an hour of typing with completions costs on a model and channel ("about $2.59 per hour of
 * typing", or why there is no figure): the completions bundle says it, loaded when the picker opens.
 */
export type CompletionsHourly = (model: string, channel: ChannelChoice) => string;

export async function pickModelOrChannel(services: Services, completionsHourly: CompletionsHourly): Promise<boolean> {
  const s = services.settings();
  const cat = services.catalogue();
  void services.refreshCatalogue();
  const hasKey = !!(await services.keys.get());
  const sep = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });
  // The models first: the first row is the one Enter picks, so it is never "Change API Key…".
  const items: Item[] = [
    sep(vscode.l10n.t('Chat model')),
    ...modelItems(cat, s.chatModel, s.channel),
    sep(vscode.l10n.t('Channel')),
    ...channelItems(services, s.chatModel, s.channel),
  ];
  items.push(sep(vscode.l10n.t('Completions as you type')), completionsRow(services, completionsHourly));
  items.push(
    sep(vscode.l10n.t('Gateway')),
    // Also VS Code's "Manage Models" entry for the Modelgate provider (managementCommand): the key is always reachable here.
    hasKey
      ? ({
          label: vscode.l10n.t('$(key) Change API Key…'),
          detail: vscode.l10n.t('A key is stored (in SecretStorage).'),
          run: async () => vscode.commands.executeCommand('modelgate.setApiKey'),
        } as Item)
      : ({
          label: vscode.l10n.t('$(key) Set API Key…'),
          detail: vscode.l10n.t('No key is stored for this gateway yet.'),
          run: async () => vscode.commands.executeCommand('modelgate.setApiKey'),
        } as Item),
    // The one way into VS Code's own Chat that works without a GitHub account: "Use in VS Code Chat".
    {
      label: vscode.l10n.t("$(comment-discussion) Use in VS Code's Chat…"),
      detail: vscode.l10n.t("Sets up VS Code's Chat view to answer with Modelgate's models (it shows what changes first) and opens it."),
      run: async () => vscode.commands.executeCommand('modelgate.useInVsCodeChat'),
    } as Item,
  );
  const model = cat.chatModel(s.chatModel);
  return show(
    items,
    model?.reasoning
      ? vscode.l10n.t('Modelgate: {0} · {1} · reasoning effort {2}', s.chatModel, CHANNEL_INFO[s.channel].label, effortText(model.params?.reasoningEffort))
      : vscode.l10n.t('Modelgate: {0} · {1}', s.chatModel, CHANNEL_INFO[s.channel].label),
    vscode.l10n.t('Pick a model or a channel for the next request'),
  );
}

/** Completions as you type: on or off, their model and channel, and what an hour of typing costs; turning them on asks first. */
function completionsRow(services: Services, hourly: CompletionsHourly): Item {
  const c = services.settings().completions;
  return {
    label: `${c.enabled ? '$(check) ' : '$(blank) '}${vscode.l10n.t('Completions as you type')}`,
    description: c.enabled ? vscode.l10n.t('on') : vscode.l10n.t('off'),
    detail: `${c.model} · ${CHANNEL_INFO[c.channel].label} — ${hourly(c.model, c.channel)}`,
    run: async () => vscode.commands.executeCommand(c.enabled ? COMPLETIONS_COMMANDS.menu : COMPLETIONS_COMMANDS.turnOn),
  };
}
