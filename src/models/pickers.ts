// Model and channel pickers. One combined quick pick opens from the status bar (two clicks to
// switch either); `modelgate.pickModel` / `modelgate.pickChannel` open one list each, or set the
// value directly when given an argument (for keybindings, other extensions and tests).
import * as vscode from 'vscode';
import { CHANNEL_CHOICES, CHANNEL_INFO, type ChannelChoice, type ChatModelInfo, type ModelCatalogue, type Price } from '../core/catalogue';
import { formatHealth } from '../core/channelHealth';
import { updateChoice } from '../config/settings';
import type { Services } from '../services';

export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${+(n / 1000).toFixed(0)}K`;
  return String(n);
}

export function formatPrice(p: Price | undefined): string {
  if (!p) return 'no price configured (set modelgate.models)';
  const cache = p.cacheRead !== undefined ? ` · cached $${p.cacheRead}` : '';
  return `$${p.input} in · $${p.output} out${cache} per 1M tokens`;
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
    `${formatTokens(m.contextWindow)} context`,
    `${formatTokens(m.maxOutput)} output`,
    m.imageInput ? 'text + images' : 'text only',
    m.tools ? 'tools' : 'no tools',
    m.caching ? 'prompt caching' : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

type Item = vscode.QuickPickItem & { run?: () => Promise<unknown> };

function modelItems(cat: ModelCatalogue, current: string, channel: ChannelChoice): Item[] {
  return cat.chatModels().map((m) => ({
    label: `${m.id === current ? '$(check) ' : '$(blank) '}${m.id}`,
    description: m.label !== m.id ? m.label : undefined,
    // the price first, so a narrow picker cuts the capabilities, never the price
    detail: `${formatPriceShort(cat.price(m.id, channel))} · ${describeChatModel(m)}`,
    run: () => updateChoice('chat.model', m.id),
  }));
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
    detail: `${cat.chatModel(model) ? `${formatPriceShort(cat.price(model, c))} · ` : ''}${formatHealth(services.health.summary(model, c), { short: true })}`,
    run: () => updateChoice('channel', c),
  }));
}

export function channelPickerItems(services: Services): PickerItemView[] {
  const s = services.settings();
  return channelItems(services, s.chatModel, s.channel).map(({ label, description, detail }) => ({ label, description, detail }));
}

async function show(items: Item[], title: string, placeHolder: string): Promise<boolean> {
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder, matchOnDescription: true, matchOnDetail: true });
  if (!pick?.run) return false;
  await pick.run();
  return true;
}

export async function pickModel(services: Services, arg?: unknown): Promise<boolean> {
  const cat = services.catalogue();
  if (typeof arg === 'string') {
    if (!cat.chatModel(arg)) {
      const known = cat.chatModels().map((m) => m.id).join(', ');
      throw new Error(`Unknown chat model "${arg}". Known models: ${known}. Add others in "modelgate.models".`);
    }
    await updateChoice('chat.model', arg);
    return true;
  }
  void services.refreshCatalogue();
  const s = services.settings();
  return show(modelItems(cat, s.chatModel, s.channel), 'Modelgate: Chat Model', 'Model for the next chat request');
}

export async function pickChannel(services: Services, arg?: unknown): Promise<boolean> {
  if (typeof arg === 'string') {
    if (!(CHANNEL_CHOICES as readonly string[]).includes(arg)) {
      throw new Error(`Unknown channel "${arg}". Allowed: ${CHANNEL_CHOICES.join(', ')}.`);
    }
    await updateChoice('channel', arg);
    return true;
  }
  const s = services.settings();
  return show(
    channelItems(services, s.chatModel, s.channel),
    'Modelgate: Channel',
    'Channel for the next request (switching mid-conversation loses the prompt cache)',
  );
}

export async function pickModelOrChannel(services: Services): Promise<boolean> {
  const s = services.settings();
  const cat = services.catalogue();
  void services.refreshCatalogue();
  const hasKey = !!(await services.keys.get());
  const sep = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });
  const items: Item[] = [
    // Also VS Code's "Manage Models" entry for the Modelgate provider (managementCommand): the key is always reachable here.
    hasKey
      ? ({ label: '$(key) Change API Key…', detail: 'A key is stored (in SecretStorage).', run: async () => vscode.commands.executeCommand('modelgate.setApiKey') } as Item)
      : ({ label: '$(key) Set API Key…', detail: 'No key is stored for this gateway yet.', run: async () => vscode.commands.executeCommand('modelgate.setApiKey') } as Item),
    sep('Chat model'),
    ...modelItems(cat, s.chatModel, s.channel),
    sep('Channel'),
    ...channelItems(services, s.chatModel, s.channel),
  ];
  return show(items, `Modelgate: ${s.chatModel} · ${CHANNEL_INFO[s.channel].label}`, 'Pick a model or a channel for the next request');
}
