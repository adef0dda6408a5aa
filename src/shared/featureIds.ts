// The ids of what the lazily built features (chat, images, vscode.lm, completions as you type) register, in one place.
// src/featureLoading/lazyFeatures.ts registers a proxy for each of these at activation; each feature registers its
// real command under the same entry (a Record keyed by these names, so the type checker refuses
// a handler without an id here, or an id here without a handler). A feature command that is not
// listed here would have no proxy and would not work before that feature was built:
// test/integration/activation.test.ts checks package.json's commands, these lists and the real
// registrations against each other. Plain constants: this module is in the main bundle.

/** package.json `contributes.views`: the chat view */
export const CHAT_VIEW_ID = 'modelgate.chat';

/** the chat view's commands (src/chat/index.ts) */
export const CHAT_COMMANDS = {
  openChat: 'modelgate.openChat',
  newChat: 'modelgate.newChat',
  openConversation: 'modelgate.openConversation',
  askAboutSelection: 'modelgate.askAboutSelection',
  attachProblems: 'modelgate.attachProblems',
  compactConversation: 'modelgate.compactConversation',
  undoCompaction: 'modelgate.undoCompaction',
  exportConversation: 'modelgate.exportConversation',
} as const;

/** the commands of applying a code block (src/workspaceEdits/apply), part of the chat feature */
export const APPLY_COMMANDS = {
  accept: 'modelgate.apply.accept',
  discard: 'modelgate.apply.discard',
  showPending: 'modelgate.apply.showPending',
} as const;

/** the commands of completions as you type (src/completions/completionsCommands.ts); the status-bar item runs `menu` */
export const COMPLETIONS_COMMANDS = {
  menu: 'modelgate.completions.menu',
  turnOn: 'modelgate.completions.turnOn',
  turnOff: 'modelgate.completions.turnOff',
  snooze: 'modelgate.completions.snooze',
  resume: 'modelgate.completions.resume',
  pickModel: 'modelgate.completions.pickModel',
} as const;

/** the image feature's commands (src/images) */
export const IMAGE_COMMANDS = {
  generateImage: 'modelgate.generateImage',
} as const;

/** package.json `contributes.languageModelTools`: image generation as a tool for every agent (src/images/imageTool.ts) */
export const IMAGE_TOOL = 'modelgate_generate_image';

/** package.json `contributes.languageModelChatProviders`: the vscode.lm vendor (src/lm) */
export const LM_VENDOR = 'modelgate';

/** the commands of Modelgate's models in VS Code's own chat (src/lm) */
export const LM_COMMANDS = {
  useInVsCodeChat: 'modelgate.useInVsCodeChat',
} as const;

/** every command a feature registers, by feature: what src/featureLoading/lazyFeatures.ts proxies */
export const FEATURE_COMMANDS = {
  chat: [...Object.values(CHAT_COMMANDS), ...Object.values(APPLY_COMMANDS)],
  images: Object.values(IMAGE_COMMANDS),
  lm: Object.values(LM_COMMANDS),
  completions: Object.values(COMPLETIONS_COMMANDS),
} as const;

/**
 * The (id, handler) pairs of one of the lists above: `handlers` must have exactly the list's
 * names, so a command cannot be registered by a feature without being listed (and proxied).
 */
export function commandTable<K extends string>(
  ids: Readonly<Record<K, string>>,
  handlers: Record<K, (...args: never[]) => unknown>,
): [id: string, run: (...args: never[]) => unknown][] {
  return (Object.keys(ids) as K[]).map((name) => [ids[name], handlers[name]]);
}
