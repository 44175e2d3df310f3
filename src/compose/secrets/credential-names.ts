// Which names say "this holds a credential": a variable (`GITHUB_TOKEN`, `DB_PASSWORD`), a key
// in a config file (`client_secret:`, `"apiKey":`), a word in prose ("the password is …").
// A name counts by its last word, so `max_tokens`, `token_limit` and `PASSWORD_STORE_DIR` —
// counts, settings and paths about credentials — do not; `aws_secret_access_key` does.

/** A last word that names a credential wherever it stands (`token`, `dbPassword`, `csrftoken`). */
const CREDENTIAL_ENDINGS = ['password', 'passwd', 'passphrase', 'secret', 'token', 'credential', 'credentials', 'apikey', 'privatekey'];
/** The last two words that together name one (`api_key`, `clientSecret`, `SECRET_ACCESS_KEY`). */
const CREDENTIAL_PAIRS = new Set([
  'api key',
  'access key',
  'private key',
  'secret key',
  'signing key',
  'encryption key',
  'master key',
  'account key',
  'auth key',
  'client secret',
]);
/**
 * Short last words that name a credential only in an environment variable of two words or
 * more (`STRIPE_KEY`, `DB_PASS`, `GITLAB_PAT`): in code, `sort_key` and `primary_key` are not.
 * A lone `PWD` is the working folder.
 */
const VARIABLE_ENDINGS = new Set(['key', 'pass', 'pwd', 'pw', 'pat', 'auth', 'authorization']);

/** The words of a name: `apiKey` → api key, `AWS_SECRET_ACCESS_KEY` → aws secret access key. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** True when a key or variable of this name holds a credential (see the file's comment). */
export function namesCredential(name: string, as: 'key' | 'variable' = 'key'): boolean {
  const words = wordsOf(name);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (CREDENTIAL_ENDINGS.some((w) => last.endsWith(w))) return true;
  if (words.length >= 2 && CREDENTIAL_PAIRS.has(`${words[words.length - 2]} ${last}`)) return true;
  return as === 'variable' && words.length >= 2 && VARIABLE_ENDINGS.has(last);
}
