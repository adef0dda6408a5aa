// The user's answers to "may the model read this secret-looking file?", one question at a time.
// Unit-tested in plain Node with a stand-in token.
import type * as vscode from 'vscode';
import { raceCancellation } from './cancellation';
import type { SensitiveReadRequest } from './sensitivePrompt';

/**
 * Asks the user whether the model may read `relPath` (as the tools name it: workspace-relative,
 * `folderName/...` in a multi-root workspace). Resolves true only for an explicit yes.
 */
export type ApproveSensitiveRead = (relPath: string, request: SensitiveReadRequest, token?: vscode.CancellationToken) => Promise<boolean>;

/**
 * Serialises questions: parallel tool calls must not stack dialogs that the user answers without
 * knowing which is which. A call stopped while waiting for its turn is never asked about.
 */
export class ApprovalQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly approve: ApproveSensitiveRead) {}

  /** true only for an explicit yes; rejects with ToolCancelled as soon as the token fires. */
  ask(relPath: string, request: SensitiveReadRequest, token: vscode.CancellationToken): Promise<boolean> {
    const turn = this.tail.then(async () => {
      if (token.isCancellationRequested) return false;
      try {
        // Strictly true: an approver that returns a truthy non-boolean does not open the file.
        return (await this.approve(relPath, request, token)) === true;
      } catch {
        return false; // no answer is a no
      }
    });
    this.tail = turn;
    return raceCancellation(turn, token);
  }
}
