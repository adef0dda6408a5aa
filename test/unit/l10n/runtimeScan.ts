// Reads the extension's source with the TypeScript compiler API (a dev dependency already) for
// two l10n checks: (1) every `l10n.t(...)` call, whose first argument is the key of
// media/l10n/bundle.l10n.json, and (2) user-visible sinks (notifications and their buttons,
// quick pick / input box / progress titles, placeholders and prompts, status-bar text and
// tooltips, webview panel titles, attachment chips and why one could not be attached) that are
// handed a plain string or template literal instead of `vscode.l10n.t(...)`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';

export interface Finding {
  file: string;
  line: number;
  text: string;
}

export interface L10nCall extends Finding {
  /** The message (bundle key), or undefined when the first argument is not a literal. */
  key?: string;
}

/** The chat webview's .ts files: their `l10n.t` (src/webview/panelL10n.ts) keys are in the bundle too. */
export function webviewSourceFiles(root: string): string[] {
  return readdirSync(join(root, 'src', 'webview'))
    .filter((n) => n.endsWith('.ts'))
    .map((n) => join(root, 'src', 'webview', n))
    .sort();
}

/** src/core's .ts files (all its domain folders): vscode-free, their `l10n.t` (src/core/l10n.ts) keys are in the bundle too. */
export function coreSourceFiles(root: string): string[] {
  return tsFilesUnder(join(root, 'src', 'core')).sort();
}

function tsFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFilesUnder(p));
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The host-side .ts files of src/: src/core (no vscode there) and src/webview (its own bundle) excepted. */
export function hostSourceFiles(root: string): string[] {
  const out = tsFilesUnder(join(root, 'src'));
  const skip = [join(root, 'src', 'core') + sep, join(root, 'src', 'webview') + sep];
  return out.filter((p) => !skip.some((s) => p.startsWith(s))).sort();
}

function parse(file: string, text = readFileSync(file, 'utf8')): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

function where(root: string, sf: ts.SourceFile, node: ts.Node): Finding {
  const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  return { file: relative(root, sf.fileName).split(sep).join('/'), line, text: node.getText(sf).replace(/\s+/g, ' ').slice(0, 120) };
}

function calleeName(call: ts.CallExpression): string | undefined {
  const e = call.expression;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  if (ts.isIdentifier(e)) return e.text;
  return undefined;
}

/** `l10n.t(...)` (as `vscode.l10n.t`, or `l10n.t` after `import { l10n } from 'vscode'`). */
function isL10nT(call: ts.CallExpression): boolean {
  const e = call.expression;
  if (!ts.isPropertyAccessExpression(e) || e.name.text !== 't') return false;
  const target = e.expression;
  return (ts.isPropertyAccessExpression(target) && target.name.text === 'l10n') || (ts.isIdentifier(target) && target.text === 'l10n');
}

function literalText(node: ts.Expression): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return undefined;
}

export function l10nCalls(root: string, files: string[], read: (f: string) => string = (f) => readFileSync(f, 'utf8')): L10nCall[] {
  const out: L10nCall[] = [];
  for (const file of files) {
    const sf = parse(file, read(file));
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'setTranslator') return; // the wiring forwards, it has no message
      if (ts.isCallExpression(node) && isL10nT(node)) {
        const first = node.arguments[0];
        let key = first && literalText(first);
        if (first && ts.isObjectLiteralExpression(first)) {
          const message = first.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText(sf) === 'message');
          key = message && literalText(message.initializer);
        }
        out.push({ ...where(root, sf, node), key });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/** Words a person reads, once codicons like `$(key)` and example URLs are taken out. */
const hasWords = (s: string) => /\p{L}{2,}/u.test(s.replace(/\$\([\w~-]+\)/g, '').replace(/\bhttps?:\/\/\S*/g, ''));

/**
 * Whether `node` puts literal words on screen: a string or template literal with words in its
 * literal parts, or a `+` / `?:` / `??` / `||` / parenthesised expression with such a part. A call
 * (`vscode.l10n.t(...)` or any helper) and a variable are taken as given.
 */
export function isPlainText(node: ts.Expression): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return hasWords(node.text);
  if (ts.isTemplateExpression(node)) return hasWords(node.head.text) || node.templateSpans.some((s) => hasWords(s.literal.text));
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return isPlainText(node.expression);
  if (ts.isConditionalExpression(node)) return isPlainText(node.whenTrue) || isPlainText(node.whenFalse);
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken)
      return isPlainText(node.left) || isPlainText(node.right);
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return isPlainText(node.right);
  }
  return false;
}

const MESSAGE_CALLS = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage']);
/** Calls whose options object holds visible text in the fields of OPTION_FIELDS. */
const OPTION_CALLS = new Set([
  'showInputBox',
  'showQuickPick',
  'createQuickPick',
  'createInputBox',
  'showWorkspaceFolderPick',
  'showOpenDialog',
  'showSaveDialog',
  'withProgress',
  'report',
]);
const OPTION_FIELDS = new Set(['title', 'placeHolder', 'prompt', 'detail', 'openLabel', 'saveLabel', 'message', 'validationMessage']);
/** Properties of QuickPick/InputBox/StatusBarItem objects that are visible text. */
const ASSIGNED_FIELDS = new Set(['text', 'tooltip', 'title', 'placeholder', 'prompt', 'validationMessage']);

/** `problems.push`, `warnings.push`, `messages.push`, `errors.push`: lists of texts for the user. */
function isMessageList(callee: ts.Expression): boolean {
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && /(problem|warning|message|error)s$/i.test(callee.expression.text);
}

/** Whether the object literal `obj` has a property named `name`. */
function hasField(obj: ts.Node, name: string, sf: ts.SourceFile): boolean {
  return ts.isObjectLiteralExpression(obj) && obj.properties.some((p) => p.name?.getText(sf) === name);
}

/** A literal (or template) with the words of a sentence: an id such as 'setKey' is not one. */
function isSentence(node: ts.Expression): boolean {
  return isPlainText(node) && literalParts(node).some((part) => hasSentence(part));
}

/** User-visible sinks of `files` that are given a plain literal instead of `vscode.l10n.t(...)`. */
export function plainSinks(root: string, files: string[], read: (f: string) => string = (f) => readFileSync(f, 'utf8')): Finding[] {
  const out: Finding[] = [];
  for (const file of files) {
    const sf = parse(file, read(file));
    const checkOptions = (arg: ts.Expression, fields: Set<string>) => {
      if (!ts.isObjectLiteralExpression(arg)) return;
      for (const p of arg.properties) {
        if (ts.isPropertyAssignment(p) && fields.has(p.name.getText(sf)) && isPlainText(p.initializer)) out.push(where(root, sf, p));
      }
    };
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && !isL10nT(node)) {
        const name = calleeName(node);
        if (name && MESSAGE_CALLS.has(name)) {
          for (const arg of node.arguments) {
            if (isPlainText(arg)) out.push(where(root, sf, arg));
            // MessageOptions { detail } and MessageItem { title }.
            checkOptions(arg, new Set(['detail', 'title']));
          }
        } else if (name && OPTION_CALLS.has(name)) {
          for (const arg of node.arguments) checkOptions(arg, OPTION_FIELDS);
        } else if (name === 'push' && isMessageList(node.expression) && node.arguments.some((a) => isSentence(a))) {
          out.push(where(root, sf, node)); // problems.push('…'): a list of messages for the user
        } else if (name === 'createWebviewPanel' && node.arguments[1] && isPlainText(node.arguments[1])) {
          out.push(where(root, sf, node.arguments[1])); // the editor tab's title
        }
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left)) {
        if (ASSIGNED_FIELDS.has(node.left.name.text) && isPlainText(node.right)) out.push(where(root, sf, node));
      }
      if (ts.isPropertyAssignment(node) && isPlainText(node.initializer)) {
        const field = node.name.getText(sf);
        // `{ problem }`: why a chip could not be attached, shown as the panel's notice
        if (field === 'problem') out.push(where(root, sf, node));
        // an attachment's `label` (an object with the `contexts` the model reads): the chip's text
        else if (field === 'label' && hasField(node.parent, 'contexts', sf)) out.push(where(root, sf, node));
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/** Words of a sentence: two or more space-separated words (so `${n} KB`, 'png', 'rate_limit' or `in ${n} s` are not). */
const hasSentence = (s: string) =>
  (
    s
      .replace(/\$\([\w~-]+\)/g, '')
      .replace(/\bhttps?:\/\/\S*/g, '')
      .match(/(?:^|\s)\p{L}{2,}/gu) ?? []
  ).length >= 2;

/** The literal parts of `node` (string/template literal, through `+`, `?:`, `??`, `||`, parentheses). */
function literalParts(node: ts.Expression): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return literalParts(node.expression);
  if (ts.isConditionalExpression(node)) return [...literalParts(node.whenTrue), ...literalParts(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken)
      return [...literalParts(node.left), ...literalParts(node.right)];
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return literalParts(node.right);
  }
  return [];
}

/**
 * src/core modules whose returned strings are messages for a person (checked by the "return"
 * rule of `plainCoreSinks`); the rest of src/core returns ids, numbers and text the model reads.
 */
export const USER_FACING_CORE = [
  'client/gatewayError.ts',
  'client/errorMessages.ts',
  'client/baseUrl.ts',
  'spend/consoleUrl.ts',
  'client/gatewayUrl.ts',
  'client/imageBytes.ts',
  'channels/channelFailover.ts',
  'spend/budget.ts',
  'catalogue/modelCatalogue.ts',
];
/** Properties of result objects that carry a message for a person. */
const CORE_TEXT_FIELDS = new Set(['message', 'problem', 'label', 'detail', 'hint']);
/** zod's check options (`.refine(f, { message })`): protocol diagnostics, quoted inside a translated sentence. */
const ZOD_CALLS = new Set(['refine', 'superRefine', 'min', 'max', 'length', 'nonempty', 'regex', 'check']);

/** A catalogue entry (`{ kind: 'chat' | 'image', id, label, … }`): its label is the model's name, like the ids. */
function isModelEntry(obj: ts.Node, sf: ts.SourceFile): boolean {
  return (
    ts.isObjectLiteralExpression(obj) &&
    obj.properties.some((p) => ts.isPropertyAssignment(p) && p.name.getText(sf) === 'kind' && /^['"](chat|image)['"]$/.test(p.initializer.getText(sf)))
  );
}

/**
 * src/core's untranslated messages: (1) `new GatewayError(kind, <words>)`, (2) a `message` /
 * `problem` / `label` / `detail` / `hint` property, or a getter of that name, given words
 * (zod check options and model names in catalogue entries excepted), (3) in USER_FACING_CORE modules, a `return` of a sentence (two
 * or more words). A `l10n.t(...)` call, a variable or a helper call is taken as given.
 */
export function plainCoreSinks(root: string, files: string[], read: (f: string) => string = (f) => readFileSync(f, 'utf8')): Finding[] {
  const out: Finding[] = [];
  for (const file of files) {
    const sf = parse(file, read(file));
    const userFacing = USER_FACING_CORE.some((n) => file.endsWith(`${sep}${n}`) || file.endsWith(`/${n}`));
    const visit = (node: ts.Node, getter?: string) => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'GatewayError') {
        const message = node.arguments?.[1];
        if (message && isPlainText(message)) out.push(where(root, sf, message));
      }
      if (ts.isPropertyAssignment(node) && CORE_TEXT_FIELDS.has(node.name.getText(sf)) && isPlainText(node.initializer)) {
        const call = node.parent.parent;
        const zod = ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && ZOD_CALLS.has(call.expression.name.text);
        if (!zod && !isModelEntry(node.parent, sf)) out.push(where(root, sf, node));
      }
      if (ts.isReturnStatement(node) && node.expression) {
        const parts = literalParts(node.expression);
        if ((getter && parts.some(hasWords)) || (userFacing && parts.some(hasSentence))) out.push(where(root, sf, node));
      }
      if (ts.isGetAccessorDeclaration(node) && CORE_TEXT_FIELDS.has(node.name.getText(sf))) {
        ts.forEachChild(node, (c) => visit(c, node.name.getText(sf)));
        return;
      }
      // A nested function's returns are its own: a getter's flag does not reach into it.
      if (ts.isFunctionLike(node)) {
        ts.forEachChild(node, (c) => visit(c));
        return;
      }
      ts.forEachChild(node, (c) => visit(c, getter));
    };
    visit(sf);
  }
  return out;
}

/** Properties of DOM elements that a person reads (or a screen reader says). */
const DOM_TEXT_FIELDS = new Set(['textContent', 'innerText', 'title', 'placeholder', 'ariaLabel', 'alt', 'ariaValueText', 'ariaDescription']);
/** Attributes that a person reads (or a screen reader says). */
const DOM_TEXT_ATTRS = new Set(['aria-label', 'title', 'placeholder', 'alt', 'aria-valuetext', 'aria-description', 'aria-roledescription']);

/**
 * The webview's untranslated texts: an assignment of words to textContent / innerText / title /
 * placeholder / ariaLabel / alt (and aria value text/description), `setAttribute` of such an
 * attribute to words, `doc.createTextNode(words)`, and dom.ts's builders: `h(doc, tag, { text,
 * attrs: { 'aria-label', title, … } }, [children])` / `append(el, [children])` with words. Only
 * the webview's `l10n.t(...)`, variables and calls pass.
 */
export function plainWebviewSinks(root: string, files: string[], read: (f: string) => string = (f) => readFileSync(f, 'utf8')): Finding[] {
  const out: Finding[] = [];
  for (const file of files) {
    const sf = parse(file, read(file));
    const flag = (node: ts.Expression, at: ts.Node = node) => {
      if (isPlainText(node)) out.push(where(root, sf, at));
    };
    const attrs = (obj: ts.Expression) => {
      if (!ts.isObjectLiteralExpression(obj)) return;
      for (const p of obj.properties) {
        const key = ts.isPropertyAssignment(p) && (ts.isStringLiteral(p.name) || ts.isIdentifier(p.name)) ? p.name.text : undefined;
        if (key && DOM_TEXT_ATTRS.has(key)) flag((p as ts.PropertyAssignment).initializer, p);
      }
    };
    const children = (arr: ts.Expression | undefined) => {
      if (arr && ts.isArrayLiteralExpression(arr)) for (const c of arr.elements) if (!ts.isSpreadElement(c)) flag(c);
    };
    const visit = (node: ts.Node) => {
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left)) {
        if (DOM_TEXT_FIELDS.has(node.left.name.text)) flag(node.right, node);
      }
      if (ts.isCallExpression(node) && !isL10nT(node)) {
        const name = calleeName(node);
        const args = node.arguments;
        if (name === 'setAttribute' && args.length === 2 && DOM_TEXT_ATTRS.has(literalText(args[0]!) ?? '')) flag(args[1]!, node);
        if (name === 'createTextNode' && args[0]) flag(args[0]);
        if (name === 'h' && ts.isIdentifier(node.expression)) {
          const props = args[2];
          if (props && ts.isObjectLiteralExpression(props)) {
            for (const p of props.properties) {
              if (!ts.isPropertyAssignment(p)) continue;
              const key = p.name.getText(sf);
              if (key === 'text') flag(p.initializer, p);
              if (key === 'attrs') attrs(p.initializer);
            }
          }
          children(args[3]);
        }
        if (name === 'setAttrs' && ts.isIdentifier(node.expression) && args[1]) attrs(args[1]);
        if (name === 'append' && ts.isIdentifier(node.expression)) children(args[1]);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/** The English bundle for `calls`: each key maps to itself, sorted so diffs stay small. */
export function englishBundle(calls: L10nCall[]): Record<string, string> {
  const keys = [...new Set(calls.map((c) => c.key).filter((k): k is string => k !== undefined))].sort();
  return Object.fromEntries(keys.map((k) => [k, k]));
}

/** The `{n}` placeholders of a message, sorted. */
export function placeholders(message: string): string[] {
  return [...new Set(message.match(/\{\d+\}/g) ?? [])].sort();
}
