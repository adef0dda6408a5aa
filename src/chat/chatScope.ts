// What the parts of the chat (turn checks, answer runs, attachments) share with the controller
// that owns them: the services, the output to the webview, the history, and the model facts of
// the current settings. One small interface, so each part can live in its own file.
import type { ChatModelInfo } from '../core/catalogue/modelCatalogue';
import type { Services } from '../services/serviceContainer';
import type { ChatOutput } from './view/chatOutput';
import type { ConversationStore } from './conversations/conversationStore';
import type { ToolOffer } from './context/turnContext';
import type { ProjectRules } from './context/rulesFiles';

export interface ChatScope {
  readonly services: Services;
  readonly out: ChatOutput;
  /** the project's rules files (AGENTS.md, .github/copilot-instructions.md) */
  readonly rules: ProjectRules;
  /** The loaded history (throws before it is loaded). */
  store(): ConversationStore;
  modelInfo(id: string): ChatModelInfo;
  /** with a conversation: also the tools from VS Code switched on in it */
  toolsFor(info: ChatModelInfo, conversationId?: string): ToolOffer;
  /** Re-posts the composer state of the active conversation. */
  postComposer(): void;
  /** Re-reads whether a key is stored for the gateway. */
  refreshKey(): Promise<void>;
  /** True once the chat is closing: nothing new starts. */
  readonly closing: boolean;
}
