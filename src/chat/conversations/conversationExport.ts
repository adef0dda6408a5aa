// Export Conversation to Markdown (the chat view's conversation menu, the palette): the whole
// stored history, compacted turns included, written where the user says in a save dialog (VS Code
// asks before replacing a file; Cancel writes nothing). The dialog starts in the first workspace
// folder with a name from the title.
import * as vscode from 'vscode';
import type { ChatScope } from '../chatScope';
import type { Conversation } from './conversationTranscript';
import { conversationMarkdown, exportFileName } from './conversationMarkdown';

/** Writes `c` as Markdown to `target`, or where the save dialog says; the file written, or undefined. */
export async function exportConversation(scope: ChatScope, c: Conversation, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (c.messages.length === 0) {
    scope.out.notice('info', vscode.l10n.t('This conversation has no messages to export yet.'), [], { conversation: c, transient: true });
    return undefined;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri =
    target ??
    (await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export Conversation to Markdown'),
      saveLabel: vscode.l10n.t('Export'),
      filters: { Markdown: ['md'] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, exportFileName(c.title)) } : {}),
    }));
  if (!uri) return undefined;
  try {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(conversationMarkdown(c)));
  } catch (err) {
    scope.out.notice('error', vscode.l10n.t('The conversation could not be exported: {0}', err instanceof Error ? err.message : String(err)), [], {
      conversation: c,
    });
    return undefined;
  }
  scope.services.log.info(`Chat exported: ${c.messages.length} message(s) to ${uri.scheme === 'file' ? uri.fsPath : uri.toString()}.`);
  scope.out.notice('info', vscode.l10n.t('The conversation ({0} messages) was exported to {1}.', c.messages.length, vscode.workspace.asRelativePath(uri)), [], {
    conversation: c,
    transient: true,
  });
  return uri;
}
