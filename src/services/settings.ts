// Reads Modelgate's settings. Security-relevant ones (the base URL and the model catalogue,
// which decides prices) come from USER settings only: a workspace's .vscode/settings.json can
// never redirect the key (an extension that read it there sent keys to whatever a
// repository named: CVE-2026-47282). They are also declared
// `application` scope in package.json, which VS Code enforces; reading `globalValue` here
// keeps that true even if the declaration changes.
//
// The same holds for every setting that decides what a request costs: the
// chat and image model, the channel (prices differ per channel), the number of tool rounds
// (each is a paid request) and the request timeout. A repository's settings for them are
// ignored, in trusted and Restricted Mode alike. VS Code 1.139 already leaves these `application`
// keys out of workspace settings before the extension sees them; where a VS Code passes one on,
// it is reported once as a problem so the user sees why. Only `image.folder` (where images are written, inside the workspace) is read
// from the workspace, and it is a restricted setting.
import * as vscode from 'vscode';
import { CHANNEL_CHOICES, type ChannelChoice } from '../core/catalogue/modelCatalogue';
import { checkBaseUrl } from '../core/client/baseUrl';
import { checkEndUserId } from '../core/client/endUserId';
import { parseRequestHeaders } from '../core/client/requestHeaders';
import { parseBudgetSetting, type Budgets } from '../core/spend/budget';
import { parseFallbackChannels } from '../core/channels/channelFailover';
import { allowedEntries, unusableEntries, type AllowedEntry } from '../core/workspace/allowedCommands';
import type { Channel } from '../core/client/types';
import { excludeGlobs, languageSwitches } from '../core/completions/completionSettings';

export const SECTION = 'modelgate';

export interface Settings {
  /** normalized base URL, or undefined when the setting is invalid (see baseUrlProblem) */
  baseUrl: string | undefined;
  baseUrlOrigin: string | undefined;
  baseUrlProblem: string | undefined;
  chatModel: string;
  /** the user set `modelgate.chat.model` (else `chatModel` is the default, or one the gateway serves) */
  chatModelSet: boolean;
  channel: ChannelChoice;
  /** `modelgate.fallbackChannels`: channels to fail over to, in order (empty: no failover) */
  fallbackChannels: Channel[];
  imageModel: string;
  /** the user set `modelgate.image.model` */
  imageModelSet: boolean;
  /** workspace-relative folder for images made from the palette; '' = root */
  imageFolder: string;
  /** `modelgate.requestHeaders` (user settings only), reserved and invalid names left out */
  requestHeaders: Record<string, string>;
  /** raw `modelgate.models` (validated by the catalogue) */
  modelOverrides: unknown;
  requestTimeoutMs: number;
  maxToolRounds: number;
  /** `modelgate.chat.allowedCommands` (user settings only): the command lines run_command runs without asking */
  allowedCommands: AllowedEntry[];
  /** `modelgate.chat.commandTimeoutSeconds` (user settings only), in ms */
  commandTimeoutMs: number;
  /** `modelgate.chat.vscodeTools` (user settings only): tools from VS Code on in every conversation of the panel */
  vscodeTools: string[];
  /** `modelgate.endUserId`, sent as the image request's `user`; undefined = unset (or invalid, see endUserIdProblem) */
  endUserId: string | undefined;
  endUserIdProblem: string | undefined;
  /** modelgate.budget.dailyUsd / monthlyUsd (user settings only); unset = no budget */
  budgets: Budgets;
  /** `modelgate.completions.*`: completions as you type */
  completions: CompletionSettings;
  /** modelgate.budget.conversationUsd (user settings only): the spending limit a conversation has until the user sets its own; unset = none */
  conversationUsd: number | undefined;
  /** modelgate.chat.compaction (user settings only): what the panel does when a request would leave no room for the answer */
  compaction: 'automatic' | 'ask' | 'off';
  /** settings that were invalid and replaced by defaults, for a warning */
  problems: string[];
}

export interface CompletionSettings {
  /** `modelgate.completions.enabled` (user settings only; default off) */
  enabled: boolean;
  /** the model; `modelgate.completions.model`, else the chat model */
  model: string;
  /** `modelgate.completions.channel` (default economical) */
  channel: ChannelChoice;
  /** `modelgate.completions.dailyUsd`: a cap of its own on what completions spend per day; undefined = none */
  dailyUsd: number | undefined;
  /**
   * `modelgate.completions.languages`: `false` turns a language off. The user's settings, with a
   * workspace's `false` entries added (a repository may turn completions off, never on).
   */
  languages: Record<string, boolean>;
  /** `modelgate.completions.exclude`: the user's globs and a workspace's (a repository may only add) */
  exclude: string[];
}

/**
 * `config.inspect(key)`, once per key for one reading of the settings: inspect is the costly part
 * of reading them in the extension host (readSettings runs in activate()).
 */
type Inspect = (key: string) => ReturnType<vscode.WorkspaceConfiguration['inspect']>;
function inspector(config: vscode.WorkspaceConfiguration): Inspect {
  const seen = new Map<string, ReturnType<Inspect>>();
  return (key) => {
    if (!seen.has(key)) seen.set(key, config.inspect(key));
    return seen.get(key);
  };
}

function userValue<T>(inspect: Inspect, key: string): T | undefined {
  const i = inspect(key);
  return (i?.globalValue ?? i?.defaultValue) as T | undefined;
}

/** cost-deciding settings: read from user settings only */
export const USER_ONLY_KEYS = [
  'chat.model',
  'channel',
  'fallbackChannels',
  'image.model',
  'chat.maxToolRounds',
  'chat.commandTimeoutSeconds',
  'requestTimeoutSeconds',
  'budget.dailyUsd',
  'budget.monthlyUsd',
  'completions.enabled',
  'completions.model',
  'completions.channel',
  'completions.dailyUsd',
  'budget.conversationUsd',
  'chat.compaction',
] as const;

/** A workspace (or folder, or a language section) that tries to set a user-only setting. */
function workspaceOverrides(inspect: Inspect, key: string): boolean {
  const i = inspect(key);
  return (
    i?.workspaceValue !== undefined ||
    i?.workspaceFolderValue !== undefined ||
    i?.workspaceLanguageValue !== undefined ||
    i?.workspaceFolderLanguageValue !== undefined
  );
}

function clampNumber(v: unknown, min: number, max: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
}

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length > 0).slice(0, 200) : []);

const imageFolder = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const c = inspector(config);
  const problems: string[] = [];
  const base = checkBaseUrl(userValue<string>(c, 'baseUrl'));
  for (const key of USER_ONLY_KEYS) {
    if (workspaceOverrides(c, key))
      problems.push(
        vscode.l10n.t('"modelgate.{0}" in this workspace\'s settings is ignored: settings that decide cost are read from your user settings only.', key),
      );
  }
  const rawChannel = userValue<string>(c, 'channel') ?? 'default';
  let channel: ChannelChoice = 'default';
  if ((CHANNEL_CHOICES as readonly string[]).includes(rawChannel)) channel = rawChannel as ChannelChoice;
  else problems.push(vscode.l10n.t('"modelgate.channel" is "{0}"; allowed: {1}. Using "default".', rawChannel, CHANNEL_CHOICES.join(', ')));
  // Who the requests are made for is the user's statement, never a repository's.
  if (workspaceOverrides(c, 'endUserId'))
    problems.push(vscode.l10n.t('"modelgate.endUserId" in this workspace\'s settings is ignored: the end-user id is read from your user settings only.'));
  const endUser = checkEndUserId(userValue<unknown>(c, 'endUserId'), '"modelgate.endUserId"');
  if (!endUser.ok) problems.push(vscode.l10n.t('{0}. Image requests are refused until it is fixed or cleared.', endUser.problem));
  const fallback = parseFallbackChannels(userValue<unknown>(c, 'fallbackChannels'));
  if (fallback.problem) problems.push(fallback.problem);
  const str = (key: string, fallback: string) => {
    const v = userValue<unknown>(c, key);
    if (typeof v === 'string' && v.trim()) return v.trim();
    if (v !== undefined && v !== '' && typeof v !== 'string') problems.push(vscode.l10n.t('"modelgate.{0}" must be a string.', key));
    return fallback;
  };
  const budget = (key: string) => {
    const r = parseBudgetSetting(userValue<unknown>(c, key), `modelgate.${key}`);
    if (r.problem) problems.push(r.problem);
    return r.value;
  };
  // Headers go to the gateway with the key: a repository must not add or change them.
  if (workspaceOverrides(c, 'requestHeaders'))
    problems.push(vscode.l10n.t('"modelgate.requestHeaders" in this workspace\'s settings is ignored: request headers are read from your user settings only.'));
  // Commands that run without asking are the user's choice: a repository must not add any.
  if (workspaceOverrides(c, 'chat.allowedCommands'))
    problems.push(
      vscode.l10n.t(
        '"modelgate.chat.allowedCommands" in this workspace\'s settings is ignored: commands that run without asking are read from your user settings only.',
      ),
    );
  // Tools from VS Code that the model may use are the user's choice: a repository must not add any.
  if (workspaceOverrides(c, 'chat.vscodeTools'))
    problems.push(
      vscode.l10n.t(
        '"modelgate.chat.vscodeTools" in this workspace\'s settings is ignored: the tools from VS Code the chat may use are read from your user settings only.',
      ),
    );
  const allowedSetting = userValue<unknown>(c, 'chat.allowedCommands');
  for (const bad of unusableEntries(allowedSetting).slice(0, 3))
    problems.push(
      vscode.l10n.t(
        '"modelgate.chat.allowedCommands" has {0}, which never runs without asking: {1}. An entry is a plain command line, run as it is written and only so.',
        JSON.stringify(bad.text.length > 80 ? `${bad.text.slice(0, 80)}…` : bad.text),
        bad.reason,
      ),
    );
  const headers = parseRequestHeaders(userValue<unknown>(c, 'requestHeaders'));
  problems.push(...headers.problems);
  const dailyUsd = budget('budget.dailyUsd');
  const monthlyUsd = budget('budget.monthlyUsd');
  const chatModel = str('chat.model', 'flagship-text');
  const completions = readCompletionSettings(c, chatModel, str, budget, problems);
  const conversationUsd = budget('budget.conversationUsd');
  return {
    baseUrl: base.ok ? base.url : undefined,
    baseUrlOrigin: base.ok ? base.origin : undefined,
    baseUrlProblem: base.ok ? undefined : base.message,
    chatModel,
    chatModelSet: isSet(c('chat.model')?.globalValue),
    channel,
    fallbackChannels: fallback.channels,
    imageModel: str('image.model', 'image-restricted'),
    imageModelSet: isSet(c('image.model')?.globalValue),
    imageFolder: imageFolder(config.get('image.folder')),
    requestHeaders: headers.headers,
    modelOverrides: userValue<unknown>(c, 'models') ?? {},
    requestTimeoutMs: clampNumber(userValue(c, 'requestTimeoutSeconds'), 5, 600, 60) * 1000,
    maxToolRounds: Math.round(clampNumber(userValue(c, 'chat.maxToolRounds'), 0, 50, 8)),
    allowedCommands: allowedEntries(allowedSetting),
    commandTimeoutMs: clampNumber(userValue(c, 'chat.commandTimeoutSeconds'), 5, 3600, 300) * 1000,
    vscodeTools: stringList(userValue<unknown>(c, 'chat.vscodeTools')),
    endUserId: endUser.ok ? endUser.value : undefined,
    endUserIdProblem: endUser.ok ? undefined : endUser.problem,
    budgets: { ...(dailyUsd !== undefined ? { dailyUsd } : {}), ...(monthlyUsd !== undefined ? { monthlyUsd } : {}) },
    completions,
    conversationUsd,
    compaction: ((v) => (v === 'ask' || v === 'off' ? v : 'automatic'))(userValue<unknown>(c, 'chat.compaction')),
    problems,
  };
}

const isSet = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';

/** `modelgate.completions.*`: what decides cost from user settings only; a workspace may only send less. */
function readCompletionSettings(
  c: Inspect,
  chatModel: string,
  str: (key: string, fallback: string) => string,
  budget: (key: string) => number | undefined,
  problems: string[],
): CompletionSettings {
  const rawChannel = userValue<unknown>(c, 'completions.channel') ?? 'economical';
  let channel: ChannelChoice = 'economical';
  if (typeof rawChannel === 'string' && (CHANNEL_CHOICES as readonly string[]).includes(rawChannel)) channel = rawChannel as ChannelChoice;
  else
    problems.push(vscode.l10n.t('"modelgate.completions.channel" is "{0}"; allowed: {1}. Using "economical".', String(rawChannel), CHANNEL_CHOICES.join(', ')));
  const inspected = c('completions.exclude');
  const exclude = excludeGlobs(inspected?.globalValue);
  if (exclude.problem) problems.push(exclude.problem);
  const fromWorkspace = [inspected?.workspaceValue, inspected?.workspaceFolderValue].flatMap((v) => excludeGlobs(v).globs);
  const languages = languageSwitches(c('completions.languages')?.globalValue ?? c('completions.languages')?.defaultValue);
  for (const v of [c('completions.languages')?.workspaceValue, c('completions.languages')?.workspaceFolderValue])
    for (const [id, on] of Object.entries(languageSwitches(v))) if (!on) languages[id] = false;
  return {
    enabled: userValue<unknown>(c, 'completions.enabled') === true,
    model: str('completions.model', chatModel),
    channel,
    dailyUsd: budget('completions.dailyUsd'),
    languages,
    exclude: [...new Set([...exclude.globs, ...fromWorkspace])],
  };
}

/**
 * Sets (or clears, with undefined) `modelgate.models.<id>.reasoningEffort` in user settings: the
 * model picker's switch. The rest of the user's entry is kept as it is.
 */
export async function updateReasoningEffort(modelId: string, effort: string | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const current = config.inspect<unknown>('models')?.globalValue;
  const models: Record<string, unknown> = current && typeof current === 'object' && !Array.isArray(current) ? { ...(current as Record<string, unknown>) } : {};
  const raw = models[modelId];
  const entry: Record<string, unknown> = raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
  if (effort === undefined) delete entry.reasoningEffort;
  else entry.reasoningEffort = effort;
  models[modelId] = entry;
  await config.update('models', models, vscode.ConfigurationTarget.Global);
}

/** Writes a choice (model, channel) to user settings: the only place they are read from. */
export async function updateChoice(key: 'chat.model' | 'channel' | 'image.model', value: string): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update(key, value, vscode.ConfigurationTarget.Global);
}

/** Writes a `modelgate.completions.*` setting to user settings (where they are read from; undefined removes it). */
export async function updateCompletionSetting(key: 'enabled' | 'model' | 'channel', value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update(`completions.${key}`, value, vscode.ConfigurationTarget.Global);
}
