// Where a tool call comes from: the panel shows a tool's questions (approval cards) in that answer.
export interface ToolRunContext {
  conversationId: string;
  messageId: string;
  /** the answer's model takes image input (a tool's images may go to it) */
  imageInput?: boolean;
}
