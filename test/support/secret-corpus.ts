// A corpus of fake credentials in the real formats of each vendor, and of text that is not a
// credential. Every fake value is assembled here at run time from a prefix and characters drawn
// from a seeded generator, so no literal live-looking key is committed (push protection and
// secret scanners see only prefixes) and every run draws the same values.
//
// `secret` is the part that must never survive: a token whole, the password of a connection
// string, the body of a key. `text` is how it turns up: a line of a config file, an error, prose.

export interface SecretSample {
  name: string;
  text: string;
  secret: string;
}

/** mulberry32: a tiny seeded generator, so the corpus is the same on every run and machine. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = {
  digits: '0123456789',
  hex: '0123456789abcdef',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  alnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  letters: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  b64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  b64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
} as const;

type Alphabet = keyof typeof ALPHABETS;

function drawer(seed: number) {
  const next = generator(seed);
  return (alphabet: Alphabet, length: number): string => {
    const chars = ALPHABETS[alphabet];
    let out = '';
    for (let i = 0; i < length; i++) out += chars[Math.floor(next() * chars.length)];
    return out;
  };
}

const b64url = (text: string) => Buffer.from(text).toString('base64url');

function pemBody(draw: ReturnType<typeof drawer>, magic: string, lines: number): string {
  const body = magic + draw('b64', 64 * lines - magic.length);
  return body.match(/.{1,64}/g)!.join('\n');
}

/** The positive corpus: 60 credentials, each in a form it is met in. */
export function secretCorpus(): SecretSample[] {
  const d = drawer(0x5eed);
  const s = (name: string, secret: string, text: (v: string) => string = (v) => v): SecretSample => ({ name, secret, text: text(secret) });
  const rsa = pemBody(d, 'MIIEowIBAAKCAQEA', 12);
  const openssh = pemBody(d, 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ', 6);
  const ec = pemBody(d, 'MHcCAQEEI', 3);
  const pkcs8 = pemBody(d, 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 12);
  const gcpKey = `-----BEGIN PRIVATE KEY-----\n${pkcs8}\n-----END PRIVATE KEY-----\n`;
  const jwtSignature = d('b64url', 43);
  const rsaB64 = Buffer.from(`-----BEGIN RSA PRIVATE KEY-----\n${rsa}\n-----END RSA PRIVATE KEY-----\n`).toString('base64');
  const jwt = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url('{"sub":"1234567890","name":"Ada","iat":1700000000}')}.${jwtSignature}`;
  return [
    // Cloud
    s('AWS access key id', `AKIA${d('upper', 16)}`, (v) => `aws_access_key_id = ${v}`),
    s('AWS secret access key (env)', d('b64', 40), (v) => `AWS_SECRET_ACCESS_KEY=${v}`),
    s('AWS secret access key (credentials file)', d('b64', 40), (v) => `[default]\naws_secret_access_key = ${v}\n`),
    s('AWS session token', `IQoJb3JpZ2luX2VjE${d('b64', 180)}`, (v) => `export AWS_SESSION_TOKEN="${v}"`),
    s('AWS temporary access key id', `ASIA${d('upper', 16)}`, (v) => `The request signed with ${v} expired.`),
    s('GCP service account JSON', pkcs8.split('\n')[3]!, () =>
      JSON.stringify({
        type: 'service_account',
        project_id: 'demo-project',
        private_key_id: d('hex', 40),
        private_key: gcpKey,
        client_email: 'ci@demo-project.iam.gserviceaccount.com',
      }),
    ),
    s('Google API key', `AIza${d('b64url', 35)}`, (v) => `const maps = new Loader({ apiKey: "${v}" });`),
    s(
      'Azure storage connection string',
      `${d('b64', 86)}==`,
      (v) => `DefaultEndpointsProtocol=https;AccountName=demostore;AccountKey=${v};EndpointSuffix=core.windows.net`,
    ),
    s(
      'Azure SAS URL',
      `${d('b64', 43)}%3D`,
      (v) => `https://demostore.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig=${v}`,
    ),
    s(
      'Azure service bus connection string',
      `${d('b64', 43)}=`,
      (v) => `Endpoint=sb://demo.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${v}`,
    ),
    s('Azure client secret', `${d('alnum', 3)}8Q~${d('alnum', 34)}`, (v) => `AZURE_CLIENT_SECRET=${v}`),
    s('Azure client secret in prose', `${d('alnum', 3)}8Q~${d('alnum', 34)}`, (v) => `use ${v} as the app's credential`),
    // Chat
    s('Slack bot token', `xoxb-${d('digits', 12)}-${d('digits', 13)}-${d('alnum', 24)}`),
    s('Slack user token', `xoxp-${d('digits', 12)}-${d('digits', 12)}-${d('digits', 13)}-${d('hex', 32)}`, (v) => `SLACK_USER=${v}`),
    s('Slack app token', `xapp-1-A${d('upper', 10)}-${d('digits', 13)}-${d('hex', 64)}`),
    s('Slack webhook', `https://hooks.slack.com/services/T${d('upper', 10)}/B${d('upper', 10)}/${d('alnum', 24)}`),
    s('Discord bot token', `M${d('b64url', 25)}.${d('b64url', 6)}.${d('b64url', 38)}`, (v) => `client.login('${v}')`),
    s('Discord webhook', `https://discord.com/api/webhooks/${d('digits', 18)}/${d('b64url', 68)}`),
    s('Telegram bot token', `${d('digits', 10)}:AA${d('b64url', 33)}`, (v) => `bot = telebot.TeleBot("${v}")`),
    // Code hosts and registries
    s('GitHub classic token', `ghp_${d('alnum', 36)}`, (v) => `remote: https://x-access-token:${v}@github.com/o/r`),
    s('GitHub OAuth token', `gho_${d('alnum', 36)}`),
    s('GitHub app token', `ghs_${d('alnum', 36)}`),
    s('GitHub fine-grained token', `github_pat_${d('alnum', 22)}_${d('alnum', 59)}`),
    s('GitLab token', `glpat-${d('b64url', 20)}`, (v) => `GITLAB_TOKEN: ${v}`),
    s('npm token', `npm_${d('alnum', 36)}`),
    s(
      'npmrc auth token',
      `${d('hex', 8)}-${d('hex', 4)}-${d('hex', 4)}-${d('hex', 4)}-${d('hex', 12)}`,
      (v) => `//registry.npmjs.org/:_authToken=${v}`,
    ),
    s('PyPI token', `pypi-AgEIcHlwaS5vcmc${d('b64url', 70)}`, (v) => `password = ${v}`),
    // Payments and SaaS
    s('Stripe secret key', `sk_live_${d('alnum', 24)}`),
    s('Stripe restricted key', `rk_live_${d('alnum', 24)}`),
    s('Stripe test key', `sk_test_${d('alnum', 24)}`, (v) => `Stripe(${JSON.stringify(v)})`),
    s('Stripe webhook secret', `whsec_${d('alnum', 32)}`),
    s('SendGrid key', `SG.${d('b64url', 22)}.${d('b64url', 43)}`),
    s('Shopify token', `shpat_${d('hex', 32)}`),
    s('HashiCorp Vault token', `hvs.${d('b64url', 95)}`),
    s('Docker token', `dckr_pat_${d('b64url', 27)}`),
    s('Hugging Face token', `hf_${d('letters', 34)}`),
    // Model vendors
    s('Anthropic key', `sk-ant-api03-${d('b64url', 93)}AA`),
    s('OpenAI project key', `sk-proj-${d('b64url', 74)}T3BlbkFJ${d('b64url', 74)}`),
    s('Groq key', `gsk_${d('alnum', 52)}`),
    s('xAI key', `xai-${d('alnum', 80)}`),
    // Private keys
    s('RSA private key', rsa, (v) => `-----BEGIN RSA PRIVATE KEY-----\n${v}\n-----END RSA PRIVATE KEY-----\n`),
    s('OpenSSH private key', openssh, (v) => `-----BEGIN OPENSSH PRIVATE KEY-----\n${v}\n-----END OPENSSH PRIVATE KEY-----`),
    s('EC private key', ec, (v) => `-----BEGIN EC PRIVATE KEY-----\n${v}\n-----END EC PRIVATE KEY-----`),
    s('PKCS#8 private key', pkcs8.slice(0, 640), () => gcpKey),
    s('private key cut short', rsa.slice(0, 64), (v) => `cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n${v}`),
    s(
      'PGP private key block',
      d('b64', 64),
      (v) => `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF${v}\n=AbCd\n-----END PGP PRIVATE KEY BLOCK-----`,
    ),
    // Tokens in headers
    s('JWT', jwtSignature, () => `curl -H "Authorization: Bearer ${jwt}" https://api.example.com/me`),
    s('JWT alone', jwtSignature, () => `session=${jwt}`),
    s('opaque bearer token', d('alnum', 32), (v) => `Authorization: Bearer ${v}`),
    s('x-api-key header', d('alnum', 32), (v) => `x-api-key: ${v}`),
    // Connection strings
    s('PostgreSQL URL', `pg_${d('alnum', 14)}`, (v) => `DATABASE_URL=postgres://app:${v}@db.internal:5432/app`),
    s('PostgreSQL URL (postgresql://)', `${d('alnum', 16)}!`, (v) => `psql "postgresql://admin:${v}@10.0.0.5/prod?sslmode=require"`),
    s('MySQL URL', d('alnum', 18), (v) => `mysql://root:${v}@localhost:3306/shop`),
    s('MongoDB SRV URL', d('alnum', 20), (v) => `mongodb+srv://svc:${v}@cluster0.ab1cd.mongodb.net/?retryWrites=true`),
    s('Redis URL without user', d('alnum', 24), (v) => `REDIS_URL=redis://:${v}@cache:6379/0`),
    s('Redis TLS URL', d('alnum', 24), (v) => `rediss://default:${v}@eu1-redis.example.io:6380`),
    s('AMQP URL', d('alnum', 16), (v) => `amqp://guest2:${v}@rabbit:5672/vhost`),
    s('JDBC password parameter', `${d('alnum', 12)}#1`, (v) => `jdbc:postgresql://db/app?user=app&password=${v}`),
    s('HTTP basic auth URL', d('alnum', 14), (v) => `git clone https://deploy:${v}@git.example.com/team/repo.git`),
    // Credentials in files and URLs a task reads: a git remote, .npmrc, .pypirc, Docker's config, a base64 key (issue 33)
    s(
      'git remote with a token as its user name',
      d('hex', 40),
      (v) => `origin\thttps://${v}@github.com/acme/app.git (fetch)\norigin\thttps://${v}@github.com/acme/app.git (push)`,
    ),
    s(
      '.git/config remote URL with a token',
      `glpat-${d('b64url', 20)}`,
      (v) => `[remote "origin"]\n\turl = https://ci-bot:${v}@gitlab.com/acme/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`,
    ),
    s(
      '.npmrc legacy _auth',
      Buffer.from(`ci:${d('alnum', 14)}`).toString('base64'),
      (v) => `registry=https://npm.example.com/\n_auth=${v}\nalways-auth=true\n`,
    ),
    s(
      '.npmrc registry password',
      Buffer.from(d('alnum', 16)).toString('base64'),
      (v) => `//npm.example.com/:username=ci\n//npm.example.com/:_password=${v}\n`,
    ),
    s(
      '.pypirc password of letters',
      d('letters', 18),
      (v) => `[internal]\nrepository = https://pypi.example.com/simple\nusername = ci\npassword = ${v}\n`,
    ),
    s('Docker config.json auth', Buffer.from(`ci:${d('alnum', 16)}`).toString('base64'), (v) =>
      JSON.stringify({ auths: { 'registry.example.com': { auth: v } }, credsStore: 'desktop' }, null, 2),
    ),
    s(
      'DOCKER_AUTH_CONFIG',
      Buffer.from(`bot:${d('alnum', 20)}`).toString('base64'),
      (v) => `DOCKER_AUTH_CONFIG=${JSON.stringify({ auths: { 'ghcr.io': { auth: v } } })}`,
    ),
    s(
      'base64 deploy key',
      Buffer.from(`-----BEGIN OPENSSH PRIVATE KEY-----\n${openssh}\n-----END OPENSSH PRIVATE KEY-----\n`).toString('base64'),
      (v) => `DEPLOY_KEY_B64=${v}`,
    ),
    s(
      'base64 deploy key, wrapped',
      rsaB64.slice(0, 76),
      () => `apiVersion: v1\nkind: Secret\ndata:\n  id_rsa: ${rsaB64.match(/.{1,76}/g)!.join('\n    ')}\n`,
    ),
    // Said in prose or set by name
    s('password in prose', 'hunter2', (v) => `the DB password is ${v}`),
    s('password after a colon', 'hunter2', (v) => `password: ${v}`),
    s('password in a sentence', 'Tr0ub4dor&3', (v) => `My GitHub password was ${v}, please use it for the deploy.`),
    s('quoted passphrase in prose', 'correct horse battery staple', (v) => `The admin passphrase is "${v}".`),
    s('.env password', 'swordfish', (v) => `DB_PASSWORD=${v}`),
    s('JSON client secret', d('alnum', 40), (v) => `{"client_id": "web", "client_secret": "${v}"}`),
    s('YAML password', `s3cr3t-${d('alnum', 8)}!`, (v) => `database:\n  user: app\n  password: ${v}\n`),
    s('token in prose', d('alnum', 20), (v) => `The API token is ${v}.`),
  ];
}

/** Text a detector must leave alone: code that names credentials without holding one, hashes, ids, base64 of prose. */
export function innocentCorpus(): string[] {
  const d = drawer(0xc0de);
  const sha = (n: number) => d('hex', n);
  return [
    'if (password !== confirmPassword) throw new Error("The passwords do not match.");',
    'const token = await getToken(session);',
    'const password = process.env.DB_PASSWORD;',
    'token = request.headers.get("Authorization")',
    'password: z.string().min(8).max(128),',
    'interface Login { user: string; password: string; remember?: boolean }',
    'def login(username: str, password: str) -> Session:',
    'max_tokens: 4096,',
    'const tokenLimit = 8000; // tokens per request',
    'export PATH="$PATH:/usr/local/bin"',
    'api_key: ${{ secrets.API_KEY }}',
    'password: "${DB_PASSWORD}"',
    'DATABASE_URL=postgres://localhost:5432/app',
    'redis://localhost:6379/0',
    'the password is stored in Vault and rotated every 30 days',
    'Set the ANTHROPIC_API_KEY environment variable, or run “Keel: Set API Key”.',
    'git commit -m "fix: refresh the OAuth token before it expires"',
    'func (c *Client) Token() (string, error) { return c.cache.Get("token") }',
    'PASSWORD_MIN_LENGTH=12',
    'AWS_REGION=eu-west-1',
    'secret_name: prod/db-credentials',
    'apiKey: options.apiKey ?? process.env.OPENAI_API_KEY,',
    'SSH_AUTH_SOCK=/tmp/ssh-XXXXabcd/agent.1234',
    `commit ${sha(40)}`,
    `sha256: ${sha(64)}`,
    `md5 ${sha(32)}  dist/app.js`,
    `"integrity": "sha512-${Buffer.from(d('alnum', 64)).toString('base64').slice(0, 86)}=="`,
    `docker pull node@sha256:${sha(64)}`,
    `request id ${sha(8)}-${sha(4)}-4${sha(3)}-a${sha(3)}-${sha(12)}`,
    `uuid: ${sha(8)}-${sha(4)}-${sha(4)}-${sha(4)}-${sha(12)}`,
    Buffer.from('Hello world, this is an ordinary sentence about build scripts.').toString('base64'),
    Buffer.from('{"name":"keel","version":"0.1.0","private":true}').toString('base64'),
    'background-image: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==);',
    'https://github.com/secretlint/secretlint/blob/master/README.md',
    'user@example.com wrote on 2024-05-01: the deploy token expires tomorrow',
    '"version": "5.9.3", "resolved": "https://registry.npmjs.org/typescript/-/typescript-5.9.3.tgz"',
    'const re = /^sk-/;  // model keys start with sk-',
    'risk-execute task-1234567890 desk-abcdefghij',
    'Error: connect ECONNREFUSED 127.0.0.1:5432',
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHc3Hk6Lr1Y0Tw9PbK7Nf9mX2Qe0Z1aS3dF4gH5jK6lM user@laptop',
    '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----',
    'webpack 5.91.0 compiled successfully in 1234 ms (chunk main.3f9a1c2e.js)',
    'pin: 3.2.1',
    'The secret is to keep functions short.',
    'password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt())',
    'TOKENIZERS_PARALLELISM=false',
    'keyboard: { layout: "us" }, primary_key: "id", sort_key: "created_at"',
    'npm test -- --grep "token refresh"',
    '192.168.1.10 - - [10/Oct/2024:13:55:36 +0000] "GET /index.html HTTP/1.1" 200 2326',
    'postgres://user:password@localhost/db',
    // Met in docker/awesome-compose: a dependency named like a token, a password read from a file.
    '"registry-auth-token": "^4.0.0",',
    `test: ['CMD-SHELL', 'mysqladmin ping -h 127.0.0.1 --password="$$(cat /run/secrets/db-password)" --silent']`,
    '- DATABASE_PASSWORD=/run/secrets/db-password',
    // Met in packages' code (diff, openai): a comment about tokens, an option read from the environment.
    '// Each token is one of the following: a word, a run of spaces, a single punctuation mark',
    " * @param {string | undefined} [opts.apiKey=process.env['AZURE_OPENAI_API_KEY'] ?? undefined]",
    'super({ apiKey: azureADTokenProvider ?? apiKey, baseURL, ...opts });',
    '/** Indicates the token was resolved by the fallback provider. */',
    ' * for clients that use private key authentication (e.g., JWT bearer tokens) *',
    // Files and URLs that name a registry or a remote without holding a credential.
    'origin\thttps://github.com/acme/app.git (fetch)\norigin\tgit@github.com:acme/app.git (push)',
    'url = https://alice@github.com/acme/app.git',
    'registry=https://registry.npmjs.org/\nalways-auth=true\n@acme:registry=https://npm.pkg.github.com/',
    '{"auths": {"ghcr.io": {}}, "credsStore": "desktop", "currentContext": "default"}',
    '[distutils]\nindex-servers =\n    pypi\n[pypi]\nusername = __token__\npassword = <your token>',
    'password = getpass.getpass("Password: ")',
    `-----BEGIN PUBLIC KEY-----\n${Buffer.from('-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----\n').toString('base64')}`,
    `"sourceMappingURL=data:application/json;base64,${Buffer.from('{"version":3,"sources":["../src/token.ts"],"names":["password","token"],"mappings":"AAAA,SAASA"}').toString('base64')}"`,
  ];
}
