// What the panel shows of the edits under review, as the webview gets it (src/chat/protocol.ts
// carries these in its `edits` message). Plain types: the webview's program reads them too.

/** A file an answer's edit tools changed, as the panel lists it. */
export interface EditFileView {
  /** workspace-relative */
  path: string;
  kind: 'edit' | 'create' | 'delete';
  added: number;
  removed: number;
  /** pending: staged, nothing saved yet; kept: saved; undone: dropped (nothing was saved) */
  state: 'pending' | 'kept' | 'undone';
  /** the file configures tools, tasks, CI or packages: the warning shown on its row (never auto-accepted) */
  warning?: string;
}

export interface AnswerEditsView {
  /** the assistant message whose edit tools made the changes */
  messageId: string;
  files: EditFileView[];
  /** "Restore files to before this answer" is offered (something was kept and its checkpoint exists) */
  restorable: boolean;
  restored: boolean;
  note?: string;
}
