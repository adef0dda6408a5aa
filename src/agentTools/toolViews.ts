// What the panel shows of the tools, as the webview gets it (src/chat/protocol.ts carries these):
// the approval cards a tool asks on and the rows of the picker of VS Code's tools. Plain types: the
// webview's program reads them too.

/** One choice of an approval card (a button). */
export interface ApprovalChoiceView {
  id: string;
  label: string;
}

/**
 * A question the panel asks inline in an answer (./approvals.ts): run this command, write this
 * file, use this MCP tool. Every text is shown as text, never as HTML.
 */
export interface ApprovalView {
  id: string;
  /** the answer it belongs to (the card is shown inside it) */
  messageId: string;
  title: string;
  /** lines under the title (e.g. "Folder: src") */
  detail: string[];
  /** shown as a code block (e.g. the exact command) */
  code?: string;
  choices: ApprovalChoiceView[];
  /** the choice that changes nothing: the default, focused button (and the answer on Stop) */
  safeChoiceId: string;
}

/** One row of the panel's picker of VS Code's tools. */
export interface VscodeToolView {
  /** VS Code's name of the tool (what the picker sends back) */
  name: string;
  /** the name the model sees */
  label: string;
  /** "From MCP server …" / "From extension …" */
  source: string;
  /** rough tokens it adds to every request */
  tokens: number;
  /** rough USD those tokens cost per request at the model's input price; absent when no price is known */
  cost?: number;
  on: boolean;
  /** set when the tool is too large to offer: why, for the picker (its checkbox is disabled) */
  refused?: string;
}
