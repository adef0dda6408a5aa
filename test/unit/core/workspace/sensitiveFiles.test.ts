// Which files the workspace tools treat as secret-looking (src/core/workspace/sensitiveFiles.ts), and the texts
// of the question the user gets and of the answer the model gets (src/agentTools/sensitivePrompt.ts),
// and the queue that puts those questions one at a time (src/agentTools/approvalQueue.ts).
import * as assert from 'node:assert/strict';
import { hasSecretContent, isSensitivePath, MARKER_SCAN_CHARS } from '../../../../src/core/workspace/sensitiveFiles';
import { approvalQuestion, declinedMessage, pathForDialog } from '../../../../src/agentTools/sensitivePrompt';
import { ApprovalQueue } from '../../../../src/agentTools/approvalQueue';
import { ToolCancelled } from '../../../../src/agentTools/errors';

function expectAll(paths: string[], expected: boolean): void {
  const wrong = paths.filter((p) => isSensitivePath(p) !== expected);
  assert.deepEqual(wrong, [], `${expected ? 'should be' : 'should not be'} sensitive: ${wrong.join(', ')}`);
}

describe('isSensitivePath', () => {
  it('flags .env files and their variants, anywhere in the tree', () => {
    expectAll(
      [
        '.env',
        'app/.env',
        '.env.local',
        '.env.production',
        '.env.development.local',
        '.env-prod',
        '.env_staging',
        'prod.env',
        'docker/secrets.env',
        '.envrc',
        '.env.dist',
        '.env.vault',
        '.env.keys',
      ],
      true,
    );
  });

  it('does not flag .env templates or names that only contain "env"', () => {
    expectAll(
      [
        '.env.example',
        '.env.sample',
        '.env.template',
        'config/.env.local.example',
        '.env.production.sample',
        'example.env',
        '.env-template',
        'env.ts',
        'environment.ts',
        '.envoy.yaml',
        'src/env/index.ts',
        '.environment',
        'dotenv.js',
        'venv/bin/activate',
      ],
      false,
    );
  });

  it('judges the file, not the folders: a virtualenv called .env is not secret, its files are not either', () => {
    expectAll(['.env/bin/activate', '.env/lib/python3.12/site-packages/six.py', '.env.d/readme.md'], false);
  });

  it('flags private keys and key stores, but not certificates or public keys', () => {
    expectAll(
      [
        'server.pem',
        'certs/server.key',
        'tls/client.p12',
        'tls/client.pfx',
        'AuthKey_ABC123.p8',
        'putty.ppk',
        'android/release.keystore',
        'app.jks',
        'config/master.key',
      ],
      true,
    );
    expectAll(['server.crt', 'ca.cer', 'keys.ts', 'key.txt', 'monkey', 'keyboard.json', 'apikey.md', 'pem.go', 'README.key.md'], false);
  });

  it('flags OpenSSH private keys by name, not their .pub halves', () => {
    expectAll(['id_rsa', 'deploy/id_rsa', 'id_rsa_work', 'id_ed25519', 'id_ed25519_sk', 'id_ecdsa', 'id_dsa', 'keys/id_rsa.old'], true);
    expectAll(['id_rsa.pub', 'keys/id_ed25519.pub', 'id_ecdsa_sk.pub', 'id.ts', 'my_id_rsa_notes.md'], false);
  });

  it('flags credential files of package managers, git, databases and clouds', () => {
    expectAll(
      [
        '.npmrc',
        'frontend/.npmrc',
        '.pypirc',
        '.netrc',
        '_netrc',
        '.git-credentials',
        'credentials.json',
        'gcp/credentials.json',
        '.pgpass',
        '.my.cnf',
        '.htpasswd',
        'application_default_credentials.json',
      ],
      true,
    );
    expectAll(['.gitconfig', '.gitignore', 'package.json', '.yarnrc.yml', 'credentials.ts', 'credential.json', 'my.cnf.d/readme'], false);
  });

  it('flags secrets config files (yaml, json, toml, ini) and Terraform state', () => {
    expectAll(
      [
        'secrets.yaml',
        'secrets.yml',
        'config/secrets.json',
        'secrets.toml',
        'secrets.ini',
        'k8s/secret.yaml',
        'helm/app.secrets.yaml',
        'db-secret.yml',
        'terraform.tfstate',
        'infra/terraform.tfstate.backup',
      ],
      true,
    );
    expectAll(
      ['secrets.ts', 'secrets.md', 'secrets.example.yaml', 'secret-manager.yaml', 'docs/secrets/README.md', 'tfstate.md', 'main.tf', 'secrets.yaml.sample'],
      false,
    );
  });

  it('flags known folder/file pairs only in their folder', () => {
    expectAll(
      [
        '.aws/credentials',
        'home/.aws/credentials',
        '.docker/config.json',
        '.kube/config',
        '.cargo/credentials.toml',
        '.cargo/credentials',
        '.gem/credentials',
        '.config/gh/hosts.yml',
      ],
      true,
    );
    // a bare `credentials` asks anywhere (AWS, gcloud and cargo files copied out of their folder)
    expectAll(
      ['config.json', 'src/config.json', 'config', '.kube/cache/discovery.json', '.aws/config', 'hosts.yml', 'ansible/hosts.yml', '.docker/daemon.json'],
      false,
    );
  });

  it('flags every file under .ssh except public keys, and every file under .gnupg', () => {
    expectAll(
      [
        '.ssh/id_rsa',
        '.ssh/config',
        '.ssh/known_hosts',
        '.ssh/authorized_keys',
        'home/.ssh/keys/deploy',
        '.ssh/github',
        '.gnupg/private-keys-v1.d/ABC.key',
        '.gnupg/pubring.kbx',
        '.gnupg/keys.pub',
        '.envs/.production/.django',
      ],
      true,
    );
    expectAll(['.ssh/id_rsa.pub', '.ssh/keys/deploy.pub', 'ssh/config', 'docs/ssh.md'], false);
  });

  it('is case-insensitive', () => {
    expectAll(['.ENV', '.Env.Local', 'Server.KEY', 'ID_RSA', '.SSH/Config', '.AWS/Credentials', 'Secrets.YAML', 'CREDENTIALS.JSON', '.NPMRC'], true);
    expectAll(['.ENV.EXAMPLE', 'ID_RSA.PUB', '.SSH/ID_RSA.PUB'], false);
  });

  it('takes / and \\ separators and ignores . segments and doubled slashes', () => {
    expectAll(['config\\.env', 'C:\\work\\app\\.aws\\credentials', './.env', 'a//b/./.npmrc', '.ssh\\config'], true);
    expectAll(['config\\.env.example', '.\\src\\index.ts'], false);
  });

  it('is not fooled by names Windows treats as the same file', () => {
    expectAll(['.env.', '.env ', 'server.key. ', '.env::$DATA', '.npmrc:stream', '.ssh./config', '.aws /credentials'], true);
  });

  it('returns false for the workspace root and empty paths', () => {
    expectAll(['', '.', '/', './'], false);
  });
});

describe('sensitive read prompt texts', () => {
  it('names the file and what the model wants, and says where the contents go', () => {
    const q = approvalQuestion('app/.env', { tool: 'read_file' });
    assert.equal(q.message, 'The model wants to read "app/.env", which may contain secrets.');
    assert.match(q.detail, /sent to the model gateway/);
    assert.equal(approvalQuestion('.env', { tool: 'get_selection' }).message, 'The model wants to read your selection in ".env", which may contain secrets.');
    assert.match(approvalQuestion('.env', { tool: 'get_diagnostics' }).message, /errors and warnings reported for "\.env"/);
  });

  it('says where a link leads', () => {
    const q = approvalQuestion('notes.txt', { tool: 'read_file', linkTarget: 'config/.env' });
    assert.match(q.detail, /^"notes\.txt" is a link to "config\/\.env"\. /);
  });

  it('shows file names with control and bidi characters neutralised, and long paths shortened', () => {
    // U+202E would display "vne.txt" as "txt.env"; newlines could fake a second line of the dialog.
    assert.equal(pathForDialog('a\u202Etxt.env'), 'a?txt.env');
    assert.equal(pathForDialog('x\ny\u0000z\u2066'), 'x?y?z?');
    const long = `${'d/'.repeat(200)}.env`;
    const shown = pathForDialog(long);
    assert.ok(shown.length <= 160, `shortened to ${shown.length}`);
    assert.ok(shown.startsWith('d/d/') && shown.endsWith('/.env') && shown.includes('…'), shown);
    assert.equal(pathForDialog('src/.env'), 'src/.env');
  });

  it('tells the model the user declined and that nothing was returned', () => {
    const m = declinedMessage('.env');
    assert.match(m, /^The user declined to share "\.env"/);
    assert.match(m, /none of its contents were returned/);
  });
});

/** A stand-in for vscode.CancellationToken: the queue only reads the flag and subscribes. */
function tokenSource() {
  const listeners: (() => void)[] = [];
  const token = {
    isCancellationRequested: false,
    onCancellationRequested: (fn: () => void) => {
      listeners.push(fn);
      return { dispose: () => listeners.splice(listeners.indexOf(fn) >>> 0, 1) };
    },
  };
  return {
    token: token as unknown as import('vscode').CancellationToken,
    cancel: () => {
      token.isCancellationRequested = true;
      for (const fn of [...listeners]) fn();
    },
  };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('ApprovalQueue', () => {
  it('asks one question at a time, in call order, and returns each answer to its caller', async () => {
    const asked: string[] = [];
    const answers = new Map<string, ReturnType<typeof deferred<boolean>>>();
    const q = new ApprovalQueue((relPath) => {
      asked.push(relPath);
      const d = deferred<boolean>();
      answers.set(relPath, d);
      return d.promise;
    });
    const { token } = tokenSource();
    const a = q.ask('a/.env', { tool: 'read_file' }, token);
    const b = q.ask('b/.env', { tool: 'read_file' }, token);
    const c = q.ask('c.key', { tool: 'get_selection' }, token);
    await tick();
    assert.deepEqual(asked, ['a/.env'], 'the second question waits for the first answer');
    answers.get('a/.env')!.resolve(true);
    await tick();
    assert.deepEqual(asked, ['a/.env', 'b/.env']);
    answers.get('b/.env')!.resolve(false);
    await tick();
    answers.get('c.key')!.resolve(true);
    assert.deepEqual(await Promise.all([a, b, c]), [true, false, true]);
  });

  it('takes only a strict yes: a throwing or sloppy approver means no, and the queue goes on', async () => {
    const replies: (() => Promise<boolean>)[] = [
      () => Promise.reject(new Error('dialog failed')),
      () => Promise.resolve('yes' as unknown as boolean),
      () => Promise.resolve(1 as unknown as boolean),
      () => Promise.resolve(true),
    ];
    const q = new ApprovalQueue(() => replies.shift()!());
    const { token } = tokenSource();
    assert.deepEqual(await Promise.all([1, 2, 3, 4].map(() => q.ask('.env', { tool: 'read_file' }, token))), [false, false, false, true]);
  });

  it('a call stopped while its question is open rejects with ToolCancelled; a late yes changes nothing', async () => {
    const answer = deferred<boolean>();
    const q = new ApprovalQueue(() => answer.promise);
    const s = tokenSource();
    const pending = q.ask('.env', { tool: 'read_file' }, s.token);
    await tick();
    s.cancel();
    await assert.rejects(pending, ToolCancelled);
    answer.resolve(true);
  });

  it('a call stopped while waiting for its turn is never asked about', async () => {
    const asked: string[] = [];
    const first = deferred<boolean>();
    const q = new ApprovalQueue((relPath) => {
      asked.push(relPath);
      return relPath === 'first/.env' ? first.promise : Promise.resolve(true);
    });
    const live = tokenSource();
    const stopped = tokenSource();
    const a = q.ask('first/.env', { tool: 'read_file' }, live.token);
    const b = q.ask('stopped/.env', { tool: 'read_file' }, stopped.token);
    const c = q.ask('third/.env', { tool: 'read_file' }, live.token);
    await tick();
    stopped.cancel();
    await assert.rejects(b, ToolCancelled);
    first.resolve(true);
    assert.deepEqual(await Promise.all([a, c]), [true, true]);
    assert.deepEqual(asked, ['first/.env', 'third/.env']);
  });
});

describe('sensitive files: credential files of clouds and apps', () => {
  it('flags service-account keys, Terraform variables, wp-config.php and their like by name', () => {
    expectAll(
      [
        'service-account.json',
        'keys/service_account.json',
        'my-project-1a2b3c-service-account-prod.json',
        'serviceaccount.json',
        'deploy/sa-key.json',
        'gcp-key.json',
        'key.json',
        'keyfile.json',
        'firebase-adminsdk-abc12.json',
        'client_secret_123.apps.googleusercontent.com.json',
        'terraform.tfvars',
        'env/prod.auto.tfvars',
        'secrets.tfvars.json',
        'wp-config.php',
        'public_html/WP-CONFIG.PHP',
        'credentials',
        'config/credentials.yml.enc',
        'local.settings.json',
        '.boto',
        '.s3cfg',
        '.vault-token',
        'app/keystore.properties',
        'vault.kdbx',
        'client.ovpn',
        '.npmrc',
        '.pypirc',
        '.netrc',
        'id_rsa',
        'id_ed25519',
      ],
      true,
    );
  });

  it('does not flag look-alikes', () => {
    expectAll(
      [
        'monkey.json',
        'keyboard.json',
        'keys.json.md',
        'wp-config-sample.php',
        'terraform.tfvars.example',
        'variables.tf',
        'main.tf',
        'service.json',
        'accounts.json',
        'credentials.md',
        'src/credentials.ts',
      ],
      false,
    );
  });
});

describe('hasSecretContent: a key inside, whatever the name', () => {
  it('finds PEM private keys of every kind', () => {
    for (const kind of ['', 'RSA ', 'EC ', 'DSA ', 'OPENSSH ', 'ENCRYPTED ', 'PGP ']) {
      const block = kind === 'PGP ' ? 'PGP PRIVATE KEY BLOCK' : `${kind}PRIVATE KEY`;
      assert.equal(hasSecretContent(`notes\n-----BEGIN ${block}-----\nMIIEvQIBADANBg...\n-----END ${block}-----\n`), true, block);
    }
  });

  it('finds a service-account key ("private_key" with "client_email" or "type": "service_account")', () => {
    const key = JSON.stringify(
      { type: 'service_account', project_id: 'p', private_key_id: 'abc', private_key: 'xyz', client_email: 'a@p.iam.gserviceaccount.com' },
      null,
      2,
    );
    assert.equal(hasSecretContent(key), true);
    assert.equal(hasSecretContent('{"private_key": "x", "client_email": "a@b"}'), true);
  });

  it('finds npm auth tokens, AWS secret keys and WordPress passwords', () => {
    assert.equal(hasSecretContent('registry=https://r.example/\n//r.example/:_authToken=npm_abc\n'), true);
    assert.equal(hasSecretContent('_auth = dXNlcjpwYXNz\n'), true);
    assert.equal(hasSecretContent('[default]\naws_access_key_id = AKIA...\naws_secret_access_key = abc\n'), true);
    assert.equal(hasSecretContent("<?php\ndefine( 'DB_PASSWORD', 'hunter2' );\n"), true);
  });

  it('leaves code that only talks about keys alone', () => {
    for (const text of [
      'const privateKey = load(); // see -----BEGIN PUBLIC KEY-----',
      '-----BEGIN CERTIFICATE-----\nMIID...\n-----END CERTIFICATE-----',
      '{"private_key_id": "abc"}',
      '{"private_key": "x"}',
      'authToken = getToken()',
      'registry=https://registry.npmjs.org/',
      '',
    ]) {
      assert.equal(hasSecretContent(text), false, text);
    }
  });

  it('looks at the head of a huge file only, in linear time', () => {
    const filler = 'x'.repeat(MARKER_SCAN_CHARS);
    assert.equal(hasSecretContent(`${filler}\n-----BEGIN RSA PRIVATE KEY-----`), false);
    assert.equal(hasSecretContent(`-----BEGIN RSA PRIVATE KEY-----${filler}`), true);
  });
});
