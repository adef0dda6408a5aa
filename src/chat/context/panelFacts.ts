// What the panel reads from the settings for the model and the composer: the chat model's facts
// (with the window the gateway named in an overflow error on this channel, when smaller), the tools
// it is offered, and the composer's state (rules chips, the picker of tools from VS Code).
import * as vscode from 'vscode';
import type { ChatModelInfo } from '../../core/catalogue/modelCatalogue';
import type { Services } from '../../services/serviceContainer';
import type { ChatTools } from '../../agentTools/chatTools';
import type { ComposerState } from '../protocol';
import type { ProjectRules } from './rulesFiles';
import type { Conversation } from '../conversations/conversationTranscript';
import { chatModelInfo, composerState, toolOffer, type ToolOffer } from './turnContext';

export class PanelFacts {
  /** whether a key is stored for the gateway (read again by refreshKey) */
  #hasKey = false;

  constructor(
    private readonly services: Services,
    private readonly tools: ChatTools,
    private readonly rules: ProjectRules,
  ) {}

  /** The model's facts, with the window the gateway named in an overflow error on this channel when that is smaller. */
  modelInfo(id: string): ChatModelInfo {
    const info = chatModelInfo(this.services.catalogue(), id);
    const window = this.services.windows.window(id, this.services.settings().channel, info.contextWindow);
    return window === info.contextWindow ? info : { ...info, contextWindow: window };
  }

  toolsFor(info: ChatModelInfo, conversationId?: string): ToolOffer {
    return toolOffer(info, vscode.workspace.isTrusted, this.services.settings().maxToolRounds, () => this.tools.definitions(conversationId));
  }

  async refreshKey(): Promise<void> {
    try {
      this.#hasKey = !!(await this.services.keys.get());
    } catch {
      this.#hasKey = false;
    }
  }

  composerState(c: Conversation): ComposerState {
    const s = this.services.settings();
    const info = this.modelInfo(s.chatModel);
    const offer = this.toolsFor(info, c.id);
    const state = composerState(c, info, s.channel, offer, this.#hasKey, this.rules.inUse(c.id));
    const rules = this.rules.chips(c.id);
    if (rules.length) state.rules = rules;
    // the picker of tools from VS Code, where the model gets tools at all
    const vscodeTools = offer.tools ? this.tools.vscodeTools?.picker(c.id) : undefined;
    if (vscodeTools?.length) state.vscodeTools = vscodeTools;
    return state;
  }
}
