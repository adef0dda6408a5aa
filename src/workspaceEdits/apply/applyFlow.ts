// What Apply on a code block does, up to the diff: find the file the block is for, check the
// languages agree, find where in the file it goes, and propose that change (PendingChanges
// shows it and writes it only on Accept). The pure decisions are in blockPaths.ts, blockLanguages.ts, blockRegions.ts and answerFiles.ts.
//
// The target, first found wins:
//  1. a path in the fence's info string ("```ts src/a.ts"), or a leading path comment
//     ("// src/a.ts"): a path that does not exist yet becomes a new file;
//  2. a file the conversation attached or a tool read, preferring one where the block's start
//     matches a region (or the whole file);
//  3. the active editor (a selection there beats a file from 2 that matched nothing);
//  4. otherwise the user names a new file.
// Every path goes through the workspace guard (src/core/workspace/pathGuard.ts via the tools'
// workspaceAccess) and the write guard (src/shared/writeGuard.ts): nothing that resolves outside
// the workspace folders, nothing inside .git or .vscode, no workspace file. The change targets the
// resolved file (the diff's title names it when a link led there), and Accept checks it again.
import * as vscode from 'vscode';
import { guardWrite, type WriteTarget } from '../../shared/writeGuard';
import type { ToolConfigKind } from '../../core/workspace/writeRules';
import { ToolError } from '../../agentTools/errors';
import { resolvePath } from '../../agentTools/workspaceAccess';
import type { ApplyUi, Placement } from './applyUi';
import { PROPOSAL_SCHEME, type PendingChange, type PendingChanges, type ProposedEdit } from './pendingChanges';
import { answerTexts, conversationFiles, type ConversationLike } from './answerFiles';
import { findFenceInfo, langFromInfoString, pathFromInfo, pathFromLeadingComment, withoutLine } from './blockPaths';
import { isSingleConstruct, placeBlock, reindent, type LineRegion, type SymbolSpan } from './blockRegions';
import { languageIdOfFence, languageIdOfPath, languageName, languagesCompatible } from './blockLanguages';

export interface ApplyRequest {
  code: string;
  /** the fence language the panel saw */
  language?: string;
  /** the fence's info string, when the caller knows it (else looked up in `conversation`) */
  info?: string;
  /** the conversation the block comes from */
  conversation?: ConversationLike;
}

export type ApplyOutcome = { kind: 'proposed'; change: PendingChange } | { kind: 'cancelled' } | { kind: 'refused'; message: string };

/** How long the symbol provider may take (a language server that is still starting) before the text match is used. */
const SYMBOLS_WAIT_MS = 3000;

interface Candidate {
  doc: vscode.TextDocument;
  label: string;
  configures?: ToolConfigKind;
  /** where the write guard said the file really is when the change was proposed (default doc.uri) */
  realUri?: vscode.Uri;
}

/** A guarded write target: where the change goes (links resolved) and how it is named. */
interface Target {
  /** the resolved location: the change is proposed against it */
  uri: vscode.Uri;
  /** `name`, or `name → resolved` when a link leads elsewhere */
  label: string;
  /** the path as named (its extension says the language) */
  relative: string;
  exists: boolean;
  configures?: ToolConfigKind;
}

function labelOf(w: WriteTarget): string {
  return w.display === w.realDisplay ? w.display : `${w.display} → ${w.realDisplay}`;
}

export class ApplyFlow {
  constructor(
    private readonly pending: PendingChanges,
    private readonly ui: () => ApplyUi,
  ) {}

  async propose(req: ApplyRequest): Promise<ApplyOutcome> {
    const info = req.info ?? (req.conversation ? findFenceInfo(answerTexts(req.conversation), req.code) : undefined);
    const fenceLang = (info ? langFromInfoString(info) : undefined) ?? req.language;
    let code = req.code.replace(/\r\n/g, '\n');
    let blockLanguage = languageIdOfFence(fenceLang);

    // 1. a path the model wrote for the block
    const infoPath = info ? pathFromInfo(info) : undefined;
    const comment = pathFromLeadingComment(code);
    const named = infoPath ?? comment?.path;
    if (named) {
      blockLanguage ??= languageIdOfPath(named);
      const t = await this.#guard(named);
      if (typeof t === 'string') return refused(`The answer names “${named}” for this code, but Apply cannot use it: ${t} Nothing was applied.`);
      const sure = !!infoPath || !!comment?.explicit || named.includes('/') || t.exists;
      if (sure) {
        if (comment && (comment.path === named || !infoPath)) code = await this.#dropPathComment(code, comment.line, t);
        if (!t.exists) return this.#proposeNewFile(t, code);
        const doc = await vscode.workspace.openTextDocument(t.uri);
        return this.#place({ doc, label: t.label, configures: t.configures }, code, blockLanguage);
      }
    }

    // 2. a file the conversation is about; 3. the active editor
    const editor = vscode.window.activeTextEditor;
    const activeOrProblem = editor ? await this.#editorCandidate(editor.document) : undefined;
    const active = typeof activeOrProblem === 'string' ? undefined : activeOrProblem;
    const selection = active && editor!.document === active.doc && !editor!.selection.isEmpty;
    let fallback: Candidate | undefined;
    for (const path of req.conversation ? conversationFiles(req.conversation).slice(0, 12) : []) {
      const t = await this.#guard(path);
      if (typeof t === 'string' || !t.exists) continue;
      if (!languagesCompatible(blockLanguage, languageIdOfPath(t.relative))) continue;
      const doc = await vscode.workspace.openTextDocument(t.uri).then(
        (d) => d,
        () => undefined,
      );
      if (!doc) continue;
      const candidate: Candidate = { doc, label: t.label, configures: t.configures };
      if (await this.#region(doc, code)) return this.#place(candidate, code, blockLanguage);
      fallback ??= candidate;
    }
    if (active && selection && languagesCompatible(blockLanguage, active.doc.languageId)) return this.#place(active, code, blockLanguage);
    if (fallback && !(active && (await this.#region(active.doc, code)))) return this.#place(fallback, code, blockLanguage);
    if (active) return this.#place(active, code, blockLanguage);
    if (typeof activeOrProblem === 'string') return refused(activeOrProblem);

    // 4. no file at all
    return this.#askNewFile(code, blockLanguage, named);
  }

  /** The active editor as a target: a workspace file or an untitled buffer; a message when outside the workspace. */
  async #editorCandidate(doc: vscode.TextDocument): Promise<Candidate | string | undefined> {
    if (doc.uri.scheme === 'untitled') return { doc, label: doc.uri.path };
    if (doc.uri.scheme === PROPOSAL_SCHEME) {
      // the diff of a pending change is active: its file is the one in view
      const change = this.pending.resolve(doc.uri);
      return change?.kind === 'edit' ? this.#editorCandidate(await vscode.workspace.openTextDocument(change.target)) : undefined;
    }
    if (doc.uri.scheme === 'output' || doc.uri.scheme === 'vscode-settings') return undefined;
    const w = await guardWrite(doc.uri);
    if (!w.ok) {
      if (w.reason === 'outside' || w.reason === 'noWorkspace') {
        return `${doc.uri.path.split('/').pop()} is not a file of this workspace; Apply only changes files inside the workspace folders. Copy the code instead, or open the file to change from the workspace.`;
      }
      return `Apply cannot change this file: ${w.message} Nothing was applied.`;
    }
    // a link: the change goes to the file it leads to, and says so
    const real = w.realUri.toString() === doc.uri.toString() ? doc : await vscode.workspace.openTextDocument(w.realUri);
    return { doc: real, label: labelOf(w), configures: w.configures, realUri: w.realUri };
  }

  /** A workspace target for a path, or the reason it is not one. */
  async #guard(path: string): Promise<Target | string> {
    try {
      const t = await resolvePath(path);
      const w = await guardWrite(t.lexicalUri);
      if (!w.ok) return w.message;
      return { uri: w.realUri, label: labelOf(w), relative: t.relative, exists: w.exists, configures: w.configures };
    } catch (e) {
      if (e instanceof ToolError) return e.message.replace(/\s*Only files.*$/, '').replace(/can be read/g, 'can be changed');
      throw e;
    }
  }

  /** The path comment goes unless the file itself starts with that line. */
  async #dropPathComment(code: string, line: number, t: Target): Promise<string> {
    const marker = code.split('\n')[line]!.trim();
    if (t.exists) {
      const doc = await vscode.workspace.openTextDocument(t.uri).then(
        (d) => d,
        () => undefined,
      );
      const first = doc
        ?.getText()
        .split(/\r?\n/)
        .find((l) => l.trim() !== '');
      if (first?.trim() === marker) return code;
    }
    return withoutLine(code, line);
  }

  async #region(doc: vscode.TextDocument, code: string): Promise<LineRegion | 'whole' | undefined> {
    const text = doc.getText();
    return placeBlock(text, code, isSingleConstruct(code) ? await documentSymbols(doc.uri) : []);
  }

  async #place(target: Candidate, code: string, blockLanguage: string | undefined): Promise<ApplyOutcome> {
    const { doc, label } = target;
    if (!languagesCompatible(blockLanguage, doc.languageId)) {
      const answer = await this.ui().confirmLanguage(languageName(blockLanguage!), label, languageName(doc.languageId));
      if (answer === undefined) return { kind: 'cancelled' };
      if (answer === 'newFile') return this.#askNewFile(code, blockLanguage, undefined);
    }
    const region = await this.#region(doc, code);
    const text = doc.getText();
    const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(text.length));
    if (region === 'whole') return this.#edit(target, whole, withEol(code, eol, text.endsWith('\n') && !code.endsWith('\n')), 'replaces the whole file');
    if (region) {
      const first = doc.lineAt(region.start);
      const endLine = doc.lineAt(Math.min(region.end, doc.lineCount) - 1);
      const indent = /^\s*/.exec(doc.lineAt(firstCodeLine(doc, region)).text)![0];
      const range = new vscode.Range(first.range.start, endLine.range.end);
      return this.#edit(target, range, withEol(reindent(code.replace(/\n$/, ''), indent), eol, false), `replaces lines ${region.start + 1}-${region.end}`);
    }
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    const offered: Placement[] = [];
    if (editor && !editor.selection.isEmpty) offered.push('selection');
    if (editor) offered.push('cursor');
    offered.push('end', 'whole', 'newFile');
    const where = await this.ui().pickPlacement(label, offered);
    switch (where) {
      case undefined:
        return { kind: 'cancelled' };
      case 'selection':
        return this.#edit(target, new vscode.Range(editor!.selection.start, editor!.selection.end), withEol(code, eol, false), 'replaces the selection');
      case 'cursor':
        return this.#edit(target, new vscode.Range(editor!.selection.active, editor!.selection.active), withEol(code, eol, false), 'inserted at the cursor');
      case 'end': {
        const sep = text === '' || text.endsWith('\n') ? '' : eol;
        return this.#edit(target, new vscode.Range(whole.end, whole.end), withEol(sep + code.replace(/\n?$/, '\n'), eol, false), 'added at the end');
      }
      case 'whole':
        return this.#edit(target, whole, withEol(code, eol, text.endsWith('\n') && !code.endsWith('\n')), 'replaces the whole file');
      case 'newFile':
        return this.#askNewFile(code, languageIdOfFence(blockLanguage), undefined);
    }
  }

  async #edit(target: Candidate, range: vscode.Range, replacement: string, description: string): Promise<ApplyOutcome> {
    const { doc, label, configures } = target;
    const before = doc.getText();
    const after = before.slice(0, doc.offsetAt(range.start)) + replacement + before.slice(doc.offsetAt(range.end));
    const edit: ProposedEdit = {
      target: doc.uri,
      realUri: target.realUri ?? doc.uri,
      label,
      kind: 'edit',
      range,
      text: replacement,
      before,
      after,
      description,
      ...(configures ? { configures } : {}),
    };
    return { kind: 'proposed', change: await this.pending.propose(edit) };
  }

  #proposeNewFile(t: Target, code: string): Promise<ApplyOutcome> {
    const text = code.endsWith('\n') ? code : `${code}\n`;
    const edit: ProposedEdit = {
      ...(t.configures ? { configures: t.configures } : {}),
      target: t.uri,
      realUri: t.uri,
      label: t.label,
      kind: 'create',
      range: new vscode.Range(0, 0, 0, 0),
      text,
      before: '',
      after: text,
      description: 'a new file',
    };
    return this.pending.propose(edit).then((change) => ({ kind: 'proposed', change }));
  }

  async #askNewFile(code: string, blockLanguage: string | undefined, suggested: string | undefined): Promise<ApplyOutcome> {
    if (!vscode.workspace.workspaceFolders?.length) return refused('Open a folder first: Apply creates new files only inside the workspace.');
    const ext = extensionFor(blockLanguage);
    const suggestion = suggested ?? `untitled${ext ? `.${ext}` : '.txt'}`;
    const validate = async (p: string): Promise<string | undefined> => {
      const t = await this.#guard(p.trim());
      if (typeof t === 'string') return t;
      if (t.exists) return `${t.label} exists already; choose another name.`;
      return undefined;
    };
    const path = await this.ui().askNewFilePath(suggestion, validate);
    if (path === undefined) return { kind: 'cancelled' };
    const problem = await validate(path);
    if (problem) return refused(problem);
    const t = await this.#guard(path.trim());
    if (typeof t === 'string') return refused(t);
    return this.#proposeNewFile(t, code);
  }
}

function refused(message: string): ApplyOutcome {
  return { kind: 'refused', message };
}

function withEol(code: string, eol: string, addFinalNewline: boolean): string {
  const text = addFinalNewline ? `${code}\n` : code;
  return eol === '\n' ? text : text.replace(/\n/g, eol);
}

/** The region's first line that is code (its indentation is the one the block takes). */
function firstCodeLine(doc: vscode.TextDocument, region: LineRegion): number {
  for (let i = region.start; i < region.end && i < doc.lineCount; i++) {
    const t = doc.lineAt(i).text.trim();
    if (t && !/^(\/\/|\/\*|\*|#|@)/.test(t)) return i;
  }
  return region.start;
}

const EXTENSION_OF: Record<string, string> = {
  typescript: 'ts',
  typescriptreact: 'tsx',
  javascript: 'js',
  javascriptreact: 'jsx',
  python: 'py',
  go: 'go',
  rust: 'rs',
  java: 'java',
  csharp: 'cs',
  cpp: 'cpp',
  c: 'c',
  shellscript: 'sh',
  json: 'json',
  yaml: 'yaml',
  html: 'html',
  css: 'css',
  ruby: 'rb',
  php: 'php',
  kotlin: 'kt',
  swift: 'swift',
  sql: 'sql',
  markdown: 'md',
};

function extensionFor(languageId: string | undefined): string | undefined {
  return languageId ? EXTENSION_OF[languageId] : undefined;
}

/** The document's symbols flattened, from VS Code's symbol provider; [] when none answers in time. */
async function documentSymbols(uri: vscode.Uri): Promise<SymbolSpan[]> {
  const request = Promise.resolve(
    vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', uri),
  ).then(
    (r) => r ?? [],
    () => [],
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<[]>((r) => (timer = setTimeout(() => r([]), SYMBOLS_WAIT_MS)));
  const found = await Promise.race([request, timeout]);
  clearTimeout(timer);
  const out: SymbolSpan[] = [];
  const walk = (s: vscode.DocumentSymbol | vscode.SymbolInformation) => {
    const range = 'range' in s ? s.range : s.location.range;
    out.push({ name: s.name, startLine: range.start.line, endLine: range.end.line });
    if ('children' in s) s.children.forEach(walk);
  };
  found.forEach(walk);
  return out;
}
