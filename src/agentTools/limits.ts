// Caps on what one tool call may read and return. Tool results go back into the prompt, so every
// result is bounded: a model that asks for a 50 MB log gets a part of it and a note how to continue.
export const LIMITS = {
  maxPathChars: 1024,
  maxGlobChars: 512,
  maxQueryChars: 1000,

  /** read_file: per call */
  readMaxLines: 2000,
  readMaxBytes: 256 * 1024,
  /** files larger than this are not read at all (the whole file is read to find line N) */
  readMaxFileBytes: 16 * 1024 * 1024,

  /** binary sniffing: NUL bytes in the first 8 KB (what git and VS Code do) */
  binarySniffBytes: 8 * 1024,

  listDefaultResults: 200,
  listMaxResultsCap: 1000,

  searchDefaultResults: 50,
  searchMaxResultsCap: 200,
  /** files considered per search (more: the result says so and asks for a narrower glob) */
  searchMaxFiles: 5000,
  /** files larger than this are skipped by search_text */
  searchMaxFileBytes: 1024 * 1024,
  /** characters of a matching line shown around the match */
  searchLinePreviewChars: 200,
  /** wall-clock budget for a regular expression over one batch of files (catastrophic backtracking guard) */
  searchRegexBatchTimeoutMs: 1500,
  searchReadConcurrency: 8,

  selectionMaxLines: 2000,
  selectionMaxBytes: 128 * 1024,

  diagnosticsMax: 100,
  diagnosticsMessageChars: 500,

  /** edit_file / create_file: characters of one search or replace text, pairs per call */
  editMaxChars: 512 * 1024,
  editMaxPairs: 100,
  /**
   * files larger than this are not changed by the model: their original is kept as the answer's
   * checkpoint (workspace storage), and this is the checkpoint's cap per file
   */
  editMaxFileBytes: 1024 * 1024,

  /** final cap on any result text */
  resultMaxChars: 300 * 1024,
} as const;
