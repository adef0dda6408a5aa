// Texts of the "may contain secrets" question and of the answer the model gets when the user says no.
// Unit-tested in plain Node.
import { l10n } from '../core/l10n';
import type { ToolRunContext } from './toolContext';

/** Which tool wants the file: the question says what the model will see. */
export type SensitiveReadTool = 'read_file' | 'get_selection' | 'get_diagnostics';

export interface SensitiveReadRequest {
  tool: SensitiveReadTool;
  /** where a symlink leads, when the path the model used is a link to a secret-looking file */
  linkTarget?: string;
  /** the chat answer the call comes from (the panel asks in a card there) */
  context?: ToolRunContext;
}

const MAX_SHOWN_CHARS = 160;

/**
 * A path as it may be shown in a dialog. File names come from the workspace (a cloned repository
 * can name files anything): control characters and bidirectional overrides, which could make
 * `.env` look like another name, become `?`; a very long path keeps its start and its end.
 */
export function pathForDialog(p: string): string {
  const clean = p.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '?');
  if (clean.length <= MAX_SHOWN_CHARS) return clean;
  const half = Math.floor((MAX_SHOWN_CHARS - 1) / 2);
  return `${clean.slice(0, half)}…${clean.slice(clean.length - half)}`;
}

export function approvalQuestion(relPath: string, request: SensitiveReadRequest): { message: string; detail: string } {
  const shown = `"${pathForDialog(relPath)}"`;
  const what =
    request.tool === 'get_selection'
      ? l10n.t('The model wants to read your selection in {0}, which may contain secrets.', shown)
      : request.tool === 'get_diagnostics'
        ? l10n.t('The model wants to read the errors and warnings reported for {0}, which may contain secrets.', shown)
        : l10n.t('The model wants to read {0}, which may contain secrets.', shown);
  const link = request.linkTarget !== undefined ? `${l10n.t('{0} is a link to "{1}".', shown, pathForDialog(request.linkTarget))} ` : '';
  return {
    message: what,
    detail:
      link +
      l10n.t(
        'If you allow it, what it reads is sent to the model gateway as part of this conversation. Allow it only if you expected the model to need this file: text in a web page, an issue or a file can instruct a model to read secrets.',
      ),
  };
}

export function declinedMessage(relPath: string): string {
  return (
    `The user declined to share "${relPath}" with you: it may contain secrets, and none of its contents were returned. ` +
    'Do not ask for it again; continue without it, or ask the user to paste the parts you need.'
  );
}
