// A stand-in for the `vscode` module, for unit tests of the few host modules that read settings
// or build picker rows (plain Node has no `vscode`). Only what those modules use: l10n.t,
// workspace.getConfiguration (inspect/get/update over a table per key), ConfigurationTarget and
// window.createOutputChannel (a log channel that records its lines).
// installVscodeStub() must run before such a module is first loaded (import it dynamically).
import Module from 'node:module';

export interface StubSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export const stubState = {
  /** `modelgate.<key>` -> its values per scope */
  settings: new Map<string, StubSetting>(),
  /** every update() call: key, value, target */
  updates: [] as { key: string; value: unknown; target: unknown }[],
  /** every line written to an output channel: level and text */
  logLines: [] as { level: string; text: string }[],
};

const outputChannel = () => {
  const write = (level: string) => (text: string) => void stubState.logLines.push({ level, text });
  return {
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    show: () => undefined,
    dispose: () => undefined,
  };
};

const format = (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (m, i: string) => (i in args ? String(args[Number(i)]) : m));

/** The language-model classes the tool-result code checks with instanceof (src/agentTools/vscodeTools). */
class LanguageModelTextPart {
  constructor(readonly value: string) {}
}
class LanguageModelPromptTsxPart {
  constructor(readonly value: unknown) {}
}
class CancellationError extends Error {
  constructor() {
    super('Canceled');
    this.name = 'Canceled';
  }
}

export const vscodeStub = {
  LanguageModelTextPart,
  LanguageModelPromptTsxPart,
  CancellationError,
  lm: { tools: [] as unknown[] },
  l10n: { t: (message: string, ...args: unknown[]) => format(message, ...args) },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  window: { createOutputChannel: outputChannel },
  workspace: {
    getConfiguration: (section: string) => ({
      inspect: (key: string) => ({ key: `${section}.${key}`, ...(stubState.settings.get(key) ?? {}) }),
      // what VS Code's get() gives: the most specific scope wins (the workspace over the user)
      get: (key: string) => {
        const s = stubState.settings.get(key) ?? {};
        return s.workspaceFolderValue ?? s.workspaceValue ?? s.globalValue ?? s.defaultValue;
      },
      update: async (key: string, value: unknown, target: unknown) => {
        stubState.updates.push({ key, value, target });
        const s = stubState.settings.get(key) ?? {};
        stubState.settings.set(key, { ...s, globalValue: value });
      },
    }),
  },
};

let installed = false;
export function installVscodeStub(): void {
  if (installed) return;
  installed = true;
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscodeStub : original.call(this, request, ...rest);
  };
}
