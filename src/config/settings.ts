// Reads Modelgate's settings. Security-relevant ones (the base URL and the model catalogue,
// which decides prices) come from USER settings only: a workspace's .vscode/settings.json can
// never redirect the key (field notes: CVE-2026-47282). They are also declared
// `application` scope in package.json, which VS Code enforces; reading `globalValue` here
// keeps that true even if the declaration changes.
import * as vscode from 'vscode';
import { CHANNEL_CHOICES, type ChannelChoice } from '../core/catalogue';
import { checkBaseUrl } from '../core/baseUrl';

export const SECTION = 'modelgate';

export interface Settings {
  /** normalized base URL, or undefined when the setting is invalid (see baseUrlProblem) */
  baseUrl: string | undefined;
  baseUrlOrigin: string | undefined;
  baseUrlProblem: string | undefined;
  chatModel: string;
  channel: ChannelChoice;
  imageModel: string;
  /** workspace-relative folder for images made from the palette; '' = root */
  imageFolder: string;
  /** raw `modelgate.models` (validated by the catalogue) */
  modelOverrides: unknown;
  requestTimeoutMs: number;
  maxToolRounds: number;
  /** settings that were invalid and replaced by defaults, for a warning */
  problems: string[];
}

function userValue<T>(config: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const i = config.inspect<T>(key);
  return i?.globalValue ?? i?.defaultValue;
}

function clampNumber(v: unknown, min: number, max: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(SECTION);
  const problems: string[] = [];
  const base = checkBaseUrl(userValue<string>(c, 'baseUrl'));
  const rawChannel = c.get<string>('channel', 'default');
  let channel: ChannelChoice = 'default';
  if ((CHANNEL_CHOICES as readonly string[]).includes(rawChannel)) channel = rawChannel as ChannelChoice;
  else problems.push(`"modelgate.channel" is "${rawChannel}"; allowed: ${CHANNEL_CHOICES.join(', ')}. Using "default".`);
  const str = (key: string, fallback: string) => {
    const v = c.get<unknown>(key);
    if (typeof v === 'string' && v.trim()) return v.trim();
    if (v !== undefined && v !== '' && typeof v !== 'string') problems.push(`"modelgate.${key}" must be a string.`);
    return fallback;
  };
  return {
    baseUrl: base.ok ? base.url : undefined,
    baseUrlOrigin: base.ok ? base.origin : undefined,
    baseUrlProblem: base.ok ? undefined : base.message,
    chatModel: str('chat.model', 'flagship-text'),
    channel,
    imageModel: str('image.model', 'image-restricted'),
    imageFolder: typeof c.get('image.folder') === 'string' ? (c.get<string>('image.folder') ?? '').trim() : '',
    modelOverrides: userValue<unknown>(c, 'models') ?? {},
    requestTimeoutMs: clampNumber(c.get('requestTimeoutSeconds'), 5, 600, 60) * 1000,
    maxToolRounds: Math.round(clampNumber(c.get('chat.maxToolRounds'), 0, 50, 8)),
    problems,
  };
}

/**
 * Writes a choice (model, channel) where it takes effect: the most specific scope that
 * currently defines it, else user settings.
 */
export async function updateChoice(key: 'chat.model' | 'channel' | 'image.model', value: string): Promise<void> {
  const c = vscode.workspace.getConfiguration(SECTION);
  const i = c.inspect(key);
  const target =
    i?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : i?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await c.update(key, value, target);
}
