// What "Modelgate: Use in VS Code Chat" changes in the user's settings, and why. Pure (no vscode):
// the command (useInVsCodeChat.ts) reads the settings, this decides. What VS Code 1.139 needs is
// in docs/vscode-chat.md, with the VS Code source of each setting.
import { l10n } from '../core/l10n';

/** One setting: the user's own value and whether VS Code knows the key. */
export interface SettingState {
  /** what the user's settings.json says (undefined: not set there) */
  globalValue: unknown;
  /** `get(key)`: the value in force (workspace and defaults included) */
  effective: unknown;
  /** false when this VS Code does not register the setting (an older or newer version) */
  known: boolean;
}

/**
 * Settings VS Code 1.139 registers with `included: false` (chat.contribution.ts): they are left out
 * of the configuration the extension host sees, so `inspect()` has no default for them and
 * `update()` refuses them as unknown ("not a registered configuration"). The command reads and
 * writes them in the user's settings.json itself, and takes them as known.
 */
export const HIDDEN_FROM_EXTENSIONS: ReadonlySet<string> = new Set(['chat.allowAnonymousAccess']);

export interface SettingChange {
  key: string;
  value: unknown;
  /** the user's own value before (undefined: not set), put back by Undo */
  previous: unknown;
  /** one sentence: what the value does */
  why: string;
}

export interface VsCodeChatPlan {
  /** what the command would write to the user's settings (empty: nothing to do) */
  changes: SettingChange[];
  /** settings this VS Code does not have, so nothing can be set for them */
  unknown: string[];
}

interface Wanted {
  key: string;
  value: unknown;
  /** false: leave it alone in this state (a setting that is fine as it is) */
  needed?: (s: SettingState) => boolean;
  why: () => string;
}

/**
 * `chat.allowAnonymousAccess` (VS Code's chatEntitlementService: anonymous when the setting is
 * true and no account is signed in; without it the Chat view asks to sign in to GitHub before it
 * sends anything), `chat.byokUtilityModelDefault` (what titles, summaries and progress messages
 * use when the picked model is not GitHub Copilot's: "mainAgent" is the picked model; the default
 * "copilot" needs a GitHub sign-in), and `chat.disableAIFeatures` only when it hides the chat.
 */
const WANTED: readonly Wanted[] = [
  {
    key: 'chat.allowAnonymousAccess',
    value: true,
    why: () => l10n.t("VS Code's Chat view sends requests without a GitHub sign-in."),
  },
  {
    key: 'chat.byokUtilityModelDefault',
    value: 'mainAgent',
    why: () =>
      l10n.t(
        "Chat titles, summaries and progress messages use the model picked in the Chat view (a Modelgate model) instead of GitHub Copilot's; these small requests are billed like any other.",
      ),
  },
  {
    key: 'chat.disableAIFeatures',
    value: false,
    needed: (s) => s.effective === true,
    why: () => l10n.t("Turns VS Code's AI features back on: they were turned off, which hides the Chat view."),
  },
];

/** The keys the command may write, in the order it writes them. */
export const VS_CODE_CHAT_KEYS: readonly string[] = WANTED.map((w) => w.key);

export function planVsCodeChat(read: (key: string) => SettingState): VsCodeChatPlan {
  const changes: SettingChange[] = [];
  const unknown: string[] = [];
  for (const w of WANTED) {
    const s = read(w.key);
    if (!s.known && !HIDDEN_FROM_EXTENSIONS.has(w.key)) {
      unknown.push(w.key);
      continue;
    }
    if (w.needed && !w.needed(s)) continue;
    // Idempotent: a value the user's settings already have is not written again.
    if (s.globalValue === w.value) continue;
    changes.push({ key: w.key, value: w.value, previous: s.globalValue, why: w.why() });
  }
  return { changes, unknown };
}

/** `"key": value` as it reads in settings.json. */
export function settingLine(key: string, value: unknown): string {
  return `"${key}": ${JSON.stringify(value)}`;
}

/** The modal's detail: one line per setting, where they go, and how to undo. */
export function planDetail(plan: VsCodeChatPlan): string {
  const lines = plan.changes.map((c) => `${settingLine(c.key, c.value)}\n    ${c.why}`);
  return [
    ...lines,
    '',
    l10n.t('Written to your user settings only, never to a workspace. Nothing else changes.'),
    l10n.t(
      'To undo: press Undo in the message that follows, or remove these lines with "Preferences: Open User Settings (JSON)". VS Code\'s Chat view then asks for a GitHub sign-in again.',
    ),
  ].join('\n');
}
