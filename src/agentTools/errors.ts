// Failures a tool reports to the model (as an isError result) rather than to the user.

/** A problem the model can read and act on (wrong path, excluded file, bad range...). */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

/** The chat engine cancelled the call (user pressed Stop). */
export class ToolCancelled extends Error {
  override readonly name = 'ToolCancelled';
  constructor() {
    super('Cancelled.');
  }
}
