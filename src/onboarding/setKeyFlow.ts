// "Modelgate: Set API Key" in the right order: without a valid base URL it asks for the gateway
// address first; then it asks for the key, checks it with GET /models, says whether the gateway
// accepted it, rejected it (401) or could not be asked, and stores a rejected or unchecked key
// only when the user says so. The key itself is never shown, logged or put in a message.
import * as vscode from 'vscode';
import type { Services } from '../services/serviceContainer';
import { keyProblem, normalizeKey } from '../services/keyStore';
import { checkKey, type KeyCheck } from './keyCheck';
import { mergeHeaders } from '../core/client/requestHeaders';
import { promptBaseUrl, storeBaseUrl } from './baseUrlPrompt';
import { checkBaseUrl } from '../core/client/baseUrl';
import { errorText } from '../core/errorText';

/** Programmatic form (tests, other extensions): `{ key, baseUrl?, storeAnyway? }`. */
export interface SetKeyRequest {
  key: string;
  /** stored in user settings first when given */
  baseUrl?: string;
  /** store even when the gateway rejected the key or could not be asked */
  storeAnyway?: boolean;
}

export interface SetKeyResult {
  check: KeyCheck['outcome'];
  stored: boolean;
  message: string;
}

const CHECK_TIMEOUT_MS = 15_000;

function isRequest(arg: unknown): arg is SetKeyRequest {
  return typeof arg === 'object' && arg !== null && typeof (arg as SetKeyRequest).key === 'string';
}

function describe(check: KeyCheck, origin: string): string {
  switch (check.outcome) {
    case 'accepted':
      return vscode.l10n.t('Modelgate: the gateway at {0} accepted the API key.', origin);
    case 'rejected':
      return vscode.l10n.t(
        'Modelgate: the gateway at {0} rejected this API key ({1}). Check that you copied the whole key for this gateway.',
        origin,
        String(check.status ?? 401),
      );
    case 'unchecked':
      return vscode.l10n.t('Modelgate: the API key could not be checked: {0}', check.reason);
  }
}

/** The command handler: a string stores at once (as before), an object runs the checked flow, nothing asks. */
export async function setApiKeyCommand(services: Services, arg?: unknown): Promise<boolean | SetKeyResult> {
  if (typeof arg === 'string') {
    await services.keys.set(arg); // programmatic: throws a readable error on a bad key or base URL
    return true;
  }
  if (isRequest(arg)) return setCheckedKey(services, arg);
  try {
    return await interactive(services);
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Modelgate: {0}', errorText(err)));
    return false;
  }
}

/** Waits until the settings reader has seen a newly stored base URL. */
async function settled(services: Services, url: string): Promise<void> {
  for (let i = 0; i < 50 && services.settings().baseUrl !== url; i++) await new Promise((r) => setTimeout(r, 20));
}

/** The headers every request to this gateway carries: the key check needs them too (an access proxy in front of it). */
const gatewayHeaders = (services: Services, origin: string) => async () =>
  mergeHeaders(services.settings().requestHeaders, await services.keys.secretHeaders(origin));

async function setCheckedKey(services: Services, req: SetKeyRequest): Promise<SetKeyResult> {
  if (req.baseUrl !== undefined) {
    const base = checkBaseUrl(req.baseUrl);
    if (!base.ok) throw new Error(base.message);
    await storeBaseUrl(base.url);
    await settled(services, base.url);
  }
  const s = services.settings();
  if (!s.baseUrl || !s.baseUrlOrigin) throw new Error(s.baseUrlProblem ?? vscode.l10n.t('Set the gateway address first.'));
  const key = normalizeKey(req.key);
  const problem = keyProblem(key);
  if (problem) throw new Error(vscode.l10n.t('That API key was not saved. {0}', problem));
  const check = await checkKey(s.baseUrl, key, Math.min(s.requestTimeoutMs, CHECK_TIMEOUT_MS), undefined, gatewayHeaders(services, s.baseUrlOrigin));
  const stored = check.outcome === 'accepted' || req.storeAnyway === true;
  if (stored) await services.keys.set(key);
  if (stored && check.outcome === 'rejected') services.keys.noteAnswer(s.baseUrlOrigin, true);
  return { check: check.outcome, stored, message: describe(check, s.baseUrlOrigin) };
}

async function interactive(services: Services): Promise<boolean> {
  let s = services.settings();
  if (!s.baseUrl) {
    const url = await promptBaseUrl(s.baseUrlProblem && vscode.l10n.t('Modelgate needs the gateway address before the key.'));
    if (!url) return false;
    await settled(services, url);
    s = services.settings();
    if (!s.baseUrl || !s.baseUrlOrigin) return false;
  }
  const origin = s.baseUrlOrigin!;
  const raw = await vscode.window.showInputBox({
    title: vscode.l10n.t('Modelgate API Key'),
    prompt: vscode.l10n.t("Paste the API key for {0}. It is kept in VS Code's secret storage and sent only to this gateway.", origin),
    password: true,
    ignoreFocusOut: true,
    placeHolder: vscode.l10n.t('API key from the gateway console'),
    validateInput: (v) => (v.trim() === '' ? undefined : keyProblem(normalizeKey(v))),
  });
  if (raw === undefined || raw.trim() === '') return false;
  const key = normalizeKey(raw);
  const check = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Modelgate: checking the key with {0}…', origin) },
    () => checkKey(s.baseUrl!, key, Math.min(s.requestTimeoutMs, CHECK_TIMEOUT_MS), undefined, gatewayHeaders(services, origin)),
  );
  const message = describe(check, origin);
  if (check.outcome === 'accepted') {
    await services.keys.set(key);
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} Saved.', message));
    return true;
  }
  // The button says what storing is for: a gateway that is down now (the key is checked by the
  // first request later), or a key the user knows works although the gateway refused it here.
  const storeAnyway =
    check.outcome === 'rejected'
      ? vscode.l10n.t('Store Rejected Key')
      : check.down
        ? vscode.l10n.t('Store While Gateway Is Down')
        : vscode.l10n.t('Store Without Checking');
  const retry = vscode.l10n.t('Enter Another Key');
  const show = check.outcome === 'rejected' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  // The safe choice is the default (first, primary) button: Enter never stores a key the gateway refused.
  const choice = await show(message, retry, storeAnyway);
  if (choice === storeAnyway) {
    await services.keys.set(key);
    if (check.outcome === 'rejected') services.keys.noteAnswer(origin, true); // the status bar says so until it works
    void vscode.window.showInformationMessage(vscode.l10n.t('Modelgate: API key saved for {0}.', origin));
    return true;
  }
  if (choice === retry) return interactive(services);
  return false;
}
