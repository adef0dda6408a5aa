// Which workspace files may hold secrets (keys, passwords, tokens). The chat model's workspace tools
// hand file contents to the model, and so to the gateway; a prompt-injected answer can ask for
// `.env` and leak it. Files this classifier flags are read only after the user says yes, and
// search_text never reads them. Pure: unit-tested in plain Node.
//
// Judged by name, case-insensitively, on the basename and a few known folder/file pairs, and by
// content (hasSecretContent): a private key block or a service-account key's `"private_key"` in a
// file of any name. The lists aim at files that hold secrets by convention; a secret in
// `config.ts` with no such marker is not caught, and a false positive only costs the user one
// question, so the lists lean towards asking.
//
// Decisions:
// - `.env`, `.env.*`, `.env-*`, `.env_*`, `*.env` and `.envrc` are secret; a name with an
//   `example`, `sample` or `template` part (`.env.example`, `.env.local.sample`, `example.env`) is a
//   template meant to be committed and is not. `.env.dist` asks (not every project treats it as a
//   template). The template exception applies everywhere except inside `.ssh`/`.gnupg`.
// - `.ssh/`: every file except `*.pub` asks, `config` and `known_hosts` included: they hold no keys
//   but map the user's private hosts and accounts, and a workspace that contains `.ssh` is a home
//   or dotfiles folder, where one question is cheap. Public keys (`*.pub`) are meant to be shared.
// - `.gnupg/`: every file asks (private keyrings, trust database).
// - Certificates (`*.crt`, `*.cer`) and public keys are not secret.
// - Paths may use `\` or `/`. A trailing dot or space in a name (ignored by Windows) and an NTFS
//   stream suffix (`.env::$DATA`) do not hide a name.
// - Credential files of clouds and apps: service-account keys (`service-account*.json`,
//   `*-sa-key.json`, `gcp-key.json`...), Terraform variables (`*.tfvars`, `*.tfvars.json`:
//   provider keys and passwords; `*.auto.tfvars` too), `wp-config.php`, Rails
//   `master.key`/`credentials.yml.enc`, `.boto`, `.s3cfg`, `.dockercfg`, `.vault-token`, `htpasswd`,
//   `keystore.properties`, `.p12`... and `credentials` in any folder (AWS, gcloud, cargo).

/** Exact basenames of files that hold credentials by convention. */
const SECRET_BASENAMES = new Set([
  '.envrc', // direnv: exports, usually of tokens
  '.npmrc',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.git-credentials',
  '.pgpass',
  '.my.cnf',
  '.htpasswd',
  'credentials.json',
  'credentials', // ~/.aws/credentials copied anywhere, gcloud, cargo
  'credentials.yml.enc', // Rails (its master.key is a .key)
  'credentials.toml',
  'application_default_credentials.json', // gcloud
  'wp-config.php', // WordPress: database password, auth keys and salts
  'local.settings.json', // Azure Functions: connection strings
  'appsettings.secrets.json',
  '.boto',
  '.s3cfg',
  '.dockercfg',
  '.vault-token',
  '.terraformrc',
  'terraform.rc',
  '.pgpass',
  'htpasswd',
  'keystore.properties', // Android signing passwords
  '.htaccess.passwd',
  'client_secret.json', // OAuth client secrets (Google)
  'token.json',
  'firebase-adminsdk.json',
]);

/** Service-account and API key files by their usual names (`my-proj-1a2b3c-sa-key.json`, `service-account.json`, `gcp-key.json`). */
const KEY_FILE_NAMES =
  /^(?:.*[._-])?(?:service[._-]?account(?:[._-].*)?|(?:sa|gcp|gcloud|google|gcs|api|private|access|secret)[._-]?key(?:file)?|key(?:file)?|firebase[._-]adminsdk(?:[._-].*)?|client[._-]secret(?:[._-].*)?)\.json$/;

/** Extensions (the part after the last dot) of key stores, private keys and state with secrets. */
const SECRET_EXTENSIONS = new Set([
  'pem',
  'key',
  'p12',
  'pfx',
  'p8', // Apple/App Store Connect private keys
  'ppk', // PuTTY private keys
  'keystore',
  'jks',
  'tfstate', // Terraform state holds every secret the configuration touched
  'tfvars', // Terraform variables: provider keys, passwords
  'p7b',
  'asc', // armored PGP keys (a public one only costs one question)
  'gpg',
  'kdbx', // KeePass
  'ovpn', // OpenVPN profiles embed keys
]);

/** `id_rsa`, `id_ed25519_work`, ... (OpenSSH private keys; the `.pub` halves are excluded). */
const SSH_KEY_PREFIXES = ['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519'];

/** `secrets.yaml`, `app.secrets.json`, `db-secret.yml` (Kubernetes, Rails, Helm, SOPS...). */
const SECRETS_CONFIG = /^(?:.*[._-])?secrets?\.(?:ya?ml|json|toml|ini)$/;

/** A file that only makes sense inside a known folder: `<folder>/<name>` at the end of the path. */
const SECRET_PATH_SUFFIXES = [
  '.aws/credentials',
  '.docker/config.json',
  '.kube/config',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  'gh/hosts.yml', // GitHub CLI (~/.config/gh/hosts.yml)
].map((s) => s.split('/'));

/** Folders where every file is secret (`.ssh` keeps its public keys shareable, see above). */
const SECRET_FOLDERS = new Set(['.ssh', '.gnupg', '.envs' /* cookiecutter-django: .envs/.production/.django */]);

const TEMPLATE_PARTS = new Set(['example', 'sample', 'template']);

function isTemplateName(base: string): boolean {
  return base.split(/[._-]/).some((part) => TEMPLATE_PARTS.has(part));
}

function isEnvFile(base: string): boolean {
  return base === '.env' || /^\.env[._-]/.test(base) || (base.endsWith('.env') && base.length > 4);
}

function extensionOf(base: string): string | undefined {
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1) : undefined;
}

function basenameIsSecret(base: string): boolean {
  if (SECRET_BASENAMES.has(base)) return true;
  if (isEnvFile(base)) return true;
  if (SSH_KEY_PREFIXES.some((p) => base.startsWith(p)) && !base.endsWith('.pub')) return true;
  if (SECRETS_CONFIG.test(base)) return true;
  if (base.endsWith('.tfstate.backup') || base.endsWith('.tfvars.json')) return true;
  if (KEY_FILE_NAMES.test(base)) return true;
  const ext = extensionOf(base);
  return ext !== undefined && SECRET_EXTENSIONS.has(ext);
}

/** The names Windows would open for this segment: trailing dots/spaces dropped, `name:stream` -> `name`. */
function variantsOf(segment: string): string[] {
  const trimmed = segment.replace(/[. ]+$/, '');
  const out = new Set([segment, trimmed === '' ? segment : trimmed]);
  const colon = segment.indexOf(':');
  if (colon > 0) out.add(segment.slice(0, colon).replace(/[. ]+$/, ''));
  return [...out].filter((s) => s !== '');
}

function segmentsOf(relPath: string): string[] {
  return relPath
    .toLowerCase()
    .split(/[\\/]+/)
    .filter((s) => s !== '' && s !== '.');
}

/**
 * true when the file at this workspace-relative path (`/` or `\` separated) may hold secrets, judged
 * by its name. Callers pass every name a file is reached by (as addressed, and after symlinks).
 */
export function isSensitivePath(relPath: string): boolean {
  const segments = segmentsOf(relPath);
  if (segments.length === 0) return false;
  const bases = variantsOf(segments[segments.length - 1]!);
  const folders = segments.slice(0, -1).flatMap(variantsOf);

  if (folders.some((f) => SECRET_FOLDERS.has(f))) {
    // Inside .ssh only public keys are harmless; inside .gnupg/.envs nothing is.
    const inSshOnly = folders.some((f) => f === '.ssh') && !folders.some((f) => f === '.gnupg' || f === '.envs');
    return !(inSshOnly && bases.every((b) => b.endsWith('.pub')));
  }

  for (const base of bases) {
    for (const suffix of SECRET_PATH_SUFFIXES) {
      const parents = suffix.slice(0, -1);
      if (base !== suffix[suffix.length - 1]) continue;
      const tail = segments.slice(-suffix.length, -1).map((s) => variantsOf(s));
      if (tail.length === parents.length && parents.every((p, i) => tail[i]!.includes(p))) return true;
    }
  }

  return bases.some((base) => !isTemplateName(base) && basenameIsSecret(base));
}

/**
 * Content markers of secrets, in a file of any name: a PEM private key block (RSA, EC, DSA,
 * OpenSSH, PKCS#8, encrypted, PGP), a service-account key (`"private_key"` beside
 * `"client_email"` or `"type": "service_account"`), and `.npmrc`/`.yarnrc` auth tokens. Only the
 * first MARKER_SCAN_CHARS characters are looked at (a key file is small; a huge file that quotes a
 * key somewhere deep inside is not a key file).
 */
export const MARKER_SCAN_CHARS = 256 * 1024;
const PRIVATE_KEY_BLOCK = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
const JSON_PRIVATE_KEY = /"private_key"\s*:\s*"/;
const SERVICE_ACCOUNT = /"client_email"\s*:|"type"\s*:\s*"service_account"/;
const AUTH_TOKEN = /(?:^|\n)[ \t]*(?:\/\/[^\n]*:)?_(?:authToken|auth|password)[ \t]*=/;
const OTHER_MARKERS = /aws_secret_access_key[ \t]*=|define\(\s*['"](?:DB_PASSWORD|AUTH_KEY|SECURE_AUTH_KEY|LOGGED_IN_KEY|NONCE_KEY)['"]/i;

export function hasSecretContent(text: string): boolean {
  const head = text.length > MARKER_SCAN_CHARS ? text.slice(0, MARKER_SCAN_CHARS) : text;
  if (PRIVATE_KEY_BLOCK.test(head)) return true;
  if (JSON_PRIVATE_KEY.test(head) && SERVICE_ACCOUNT.test(head)) return true;
  return AUTH_TOKEN.test(head) || OTHER_MARKERS.test(head);
}
