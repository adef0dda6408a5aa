// What the user attaches to the next message (the selection, images) or pins to the
// conversation (files), from the webview's buttons, the editor's commands or the API.
import * as vscode from 'vscode';
import { l10n } from '../../core/l10n';
import type { ChatModelInfo } from '../../core/catalogue/modelCatalogue';
import type { Services } from '../../services/serviceContainer';
import { imageAttachment, pickFiles, pickImageFile, pickSelection } from './attachmentPicker';
import { isProblem } from './editorContext';
import { problemsAttachment } from './problemsContext';
import type { ConversationStore } from '../conversations/conversationStore';
import type { Conversation } from '../conversations/conversationTranscript';
import type { ChatOutput } from '../view/chatOutput';
import { addPending, pinFile, removeAttachment } from './turnContext';

/** What the attachments need of the controller (its ChatScope has it). */
export interface AttachmentScope {
  readonly services: Services;
  readonly out: Pick<ChatOutput, 'notice'>;
  store(): ConversationStore;
  modelInfo(id: string): ChatModelInfo;
  postComposer(): void;
}

export class ChatAttachments {
  constructor(private readonly scope: AttachmentScope) {}

  /** Attaches the editor's selection to the next message. */
  attachSelection(editor = vscode.window.activeTextEditor): boolean {
    const a = pickSelection(editor);
    if (isProblem(a)) {
      this.scope.out.notice(editor ? 'warning' : 'info', a.problem);
      return false;
    }
    return this.#attached((c) => addPending(c, a));
  }

  /** Attaches the problems of the editor's file (or, when it has none, the workspace's errors) to the next message. */
  attachProblems(editor = vscode.window.activeTextEditor): boolean {
    const a = problemsAttachment(editor);
    if (isProblem(a)) {
      this.scope.out.notice('info', a.problem);
      return false;
    }
    return this.#attached((c) => addPending(c, a));
  }

  /**
   * Pins files to the conversation: `uri`, else the files the user picks (pickFiles asks, the
   * open files first). Pinning a file again replaces its content in place.
   */
  async attachFile(uri?: vscode.Uri): Promise<boolean> {
    const { files, problems } = await pickFiles(uri);
    for (const p of problems) this.scope.out.notice('warning', p);
    return files.length > 0 && this.#attached((c) => files.forEach((f) => pinFile(c, f)));
  }

  /** Attaches an image file (picked when `uri` is not given) to the next message. */
  async attachImage(uri?: vscode.Uri): Promise<boolean> {
    if (!this.#checkImageInput()) return false;
    const file = await pickImageFile(uri);
    return !!file && this.attachImageBytes(file.bytes, file.name);
  }

  /** Attaches image bytes (pasted, or read from a file) to the next message. */
  attachImageBytes(bytes: Uint8Array, name: string): boolean {
    if (!this.#checkImageInput()) return false;
    const a = imageAttachment(bytes, name);
    if (isProblem(a)) {
      this.scope.out.notice('warning', a.problem);
      return false;
    }
    return this.#attached((c) => addPending(c, a));
  }

  remove(id: string): void {
    this.#attached((c) => removeAttachment(c, id));
  }

  /** Applies a change of the active conversation's attachments; true when it changed them. */
  #attached(change: (c: Conversation) => boolean | void): boolean {
    const store = this.scope.store();
    const c = store.active;
    if (change(c) === false) return false;
    store.changed(c);
    this.scope.postComposer();
    return true;
  }

  #checkImageInput(): boolean {
    const info = this.scope.modelInfo(this.scope.services.settings().chatModel);
    if (info.imageInput) return true;
    this.scope.out.notice('warning', noImagesMessage(this.scope, info.id, vscode.l10n.t('images cannot be attached')), ['pickModel'], { topic: 'model' });
    return false;
  }
}

/** "model accepts text only, so ..." with a model that does take images, when there is one. */
export function noImagesMessage(scope: Pick<AttachmentScope, 'services'>, model: string, what: string): string {
  const alt = scope.services
    .catalogue()
    .chatModels()
    .find((m) => m.imageInput);
  return `${l10n.t('{0} accepts text only, so {1}. Nothing was sent.', model, what)}${alt ? ` ${l10n.t('Pick a model with image input (for example {0}) to use images.', alt.id)}` : ''}`;
}
