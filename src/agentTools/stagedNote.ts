// What run_command and get_diagnostics tell the model when changes staged by the edit tools are
// not on disk yet (src/workspaceEdits/toolEdits: nothing is written before the user's Keep): a command runs on
// the disk, and VS Code's problems are of the files as VS Code has them, so neither sees those
// changes. Pure: unit-tested in plain Node.

/** Paths named at most; the rest are counted. */
const SHOWN = 5;

export function listPaths(paths: readonly string[]): string {
  const shown = paths.slice(0, SHOWN).join(', ');
  return paths.length > SHOWN ? `${shown}, … (${paths.length - SHOWN} more)` : shown;
}

/** The note for the model (empty when nothing is staged); ends with a newline. */
export function stagedNote(paths: readonly string[], tool: 'run_command' | 'get_diagnostics'): string {
  if (paths.length === 0) return '';
  const files = `${paths.length} file${paths.length === 1 ? '' : 's'} with changes staged in this conversation ${paths.length === 1 ? 'is' : 'are'} not on disk yet (${listPaths(paths)})`;
  return tool === 'run_command'
    ? `Note: ${files}; the command ran against the files on disk, without those changes. If it needs them, ask the user to keep them first.\n`
    : `Note: ${files}; these problems are of the files as VS Code has them, without those changes.\n`;
}
