// Keel's additions to secretlint's preset, kept few and named: credential formats the preset
// has no rule for (Stripe, Discord, Telegram, Azure, JSON Web Tokens, PyPI, passwords in any
// URL scheme and tokens as a URL's user name, npm's `_auth`, registries' `auth` in Docker's
// config, a password alone on a config line, a private key block cut short, the loose key
// shapes of the model vendors Keel talks to, which errors quote cut or altered), values under a
// credential's name (`DB_PASSWORD=`,
// `"client_secret": "…"`, `Authorization: Bearer …`), and passwords said in prose ("the DB
// password is hunter2"), which no format rule sees.
import { namesCredential } from './credential-names.js';
import { isEnglish, isPlaceholder, isReference, looksLikeValue } from './secret-values.js';

export interface KeelRule {
  id: string;
  kind: string;
  /** The spans of the secrets in the text. */
  spans(text: string): [number, number][];
}

/** A rule that is one pattern: the span is the `group`th group (0: the whole match). */
function patternRule(id: string, kind: string, pattern: RegExp, group = 0, accept?: (value: string) => boolean): KeelRule {
  const withIndices = new RegExp(pattern.source, `${pattern.flags}d`);
  return {
    id,
    kind,
    spans(text) {
      const out: [number, number][] = [];
      for (const m of text.matchAll(withIndices)) {
        const span = m.indices?.[group];
        if (span === undefined || (accept && !accept(m[group]!))) continue;
        out.push([span[0], span[1]]);
      }
      return out;
    },
  };
}

/** The span of the first group of `groups` that took part in the match. */
function spanOf(m: RegExpMatchArray, groups: readonly number[]): [number, number] | undefined {
  for (const g of groups) {
    const span = m.indices?.[g];
    if (span) return [span[0], span[1]];
  }
  return undefined;
}

/** A user name that is a token: long, letters and digits mixed (a person's name rarely is). */
const tokenShaped = (value: string) => /[0-9]/.test(value) && /[A-Za-z]/.test(value) && !isPlaceholder(value);
/** Base64 of `user:password`, as registries' `auth` values are. */
const decodesToLogin = (value: string) => /^[\x21-\x7e]+:[\x20-\x7e]+$/.test(Buffer.from(value, 'base64').toString('latin1'));
/** A header's value, not code: no reference (`process.env.X`), no bracket or call, not a bare identifier (`apiKey: tokenProvider`). */
/** A bearer token, not the word after "bearer" in prose ("JWT bearer tokens"): a digit or symbol in it, or long. */
const aToken = (value: string) => !isPlaceholder(value) && (/[0-9\-._~+/=]/.test(value) || value.length >= 16);
const aValue = (value: string) => !isPlaceholder(value) && !isReference(value) && !/[([{<]/.test(value) && !/^[A-Za-z_$]+$/.test(value);

/**
 * Where a name that ends like a credential's meets its separator: `…_PASSWORD=`, `"apiKey": `,
 * `client_secret:`, `token =>`. Searching for the ending first keeps the `name: value` pairs of
 * ordinary code cheap to pass over; the whole name is then read backwards and judged by
 * namesCredential.
 */
const CREDENTIAL_SEPARATOR = /(?:passw(?:or)?d|passphrase|secret|token|credentials?|key)(["']?)([ \t]*)(:=|=>|=|:)/gi;
const NAME_CHAR = /[\w.-]/;
/** The value after the separator: quoted (any text), or bare (up to a delimiter; never ending in a full stop). */
const VALUE =
  /([ \t]*)(?:"((?:[^"\\\r\n]|\\.){1,400})"|'((?:[^'\\\r\n]|\\.){1,400})'|`([^`\r\n]{1,400})`|([^\s"'`,;&)\]}]{0,399}[^\s"'`,;&)\]}.]))/dy;

/** The value under a credential's name. A quoted value counts; a bare one must look like a value, not code. */
const namedSecret: KeelRule = {
  id: 'keel/named-credential',
  kind: 'a value under a credential name',
  spans(text) {
    const out: [number, number][] = [];
    for (const m of text.matchAll(CREDENTIAL_SEPARATOR)) {
      const [whole, , before = '', sep = ''] = m;
      const nameEnd = m.index! + whole.length - sep.length - before.length - (m[1]?.length ?? 0);
      let nameStart = m.index!;
      while (nameStart > 0 && NAME_CHAR.test(text[nameStart - 1]!)) nameStart--;
      if (!namesCredential(text.slice(nameStart, nameEnd))) continue;
      VALUE.lastIndex = m.index! + whole.length;
      const v = VALUE.exec(text);
      if (!v) continue;
      const quoted = v[2] ?? v[3] ?? v[4];
      const value = quoted ?? v[5] ?? '';
      // `KEY=value` (an env file, a shell line, a query string) is a value; `key = word` may be code.
      const tight = sep === '=' && before === '' && (v[1] ?? '') === '';
      if (isPlaceholder(value) || (quoted === undefined && !looksLikeValue(value, tight))) continue;
      const span = spanOf(v, [2, 3, 4, 5]);
      if (span) out.push(span);
    }
    return out;
  },
};

/**
 * A password in a URL of any scheme (redis, amqp, smtp, …; an empty user name included:
 * `redis://:pw@host`), or a token as its user name (`https://TOKEN@github.com/…`, how CI checks
 * out with a token: long, letters and digits mixed). Found from the `://`, the scheme read
 * backwards: searching for the scheme first cost several times as much on ordinary code.
 */
const URL_AUTHORITY = /:\/\/([^\s:/@'"`<>]{0,200})(?::([^\s@/'"`<>]{3,200}))?@[^\s/'"`<>]/dg;
const SCHEME_CHAR = /[a-z0-9+.-]/i;
const urlCredential: KeelRule = {
  id: 'keel/url-credential',
  kind: 'a credential in a URL',
  spans(text) {
    const out: [number, number][] = [];
    for (const m of text.matchAll(URL_AUTHORITY)) {
      if (!afterScheme(text, m.index!)) continue;
      const [, user = '', password] = m;
      if (password !== undefined) {
        if (!isPlaceholder(password)) out.push(m.indices![2]!);
      } else if (user.length >= 20 && tokenShaped(user)) out.push(m.indices![1]!);
    }
    return out;
  },
};

/** Whether a URL scheme (a letter, then 1–20 scheme characters, not inside a word) ends at `at`. */
function afterScheme(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && at - i < 21 && SCHEME_CHAR.test(text[i - 1]!)) i--;
  return at - i >= 2 && /[a-z]/i.test(text[i]!) && (i === 0 || !/\w/.test(text[i - 1]!));
}

/**
 * `password = letters` on a line of its own (.pypirc, an INI or YAML file): a value, though the
 * named rule wants a digit or a symbol in a bare one (elsewhere it may be code). Found from the
 * word, what stands before it on its line checked after.
 */
const CONFIG_PASSWORD = /(?:password|passwd|passphrase)[ \t]*[=:][ \t]*([A-Za-z]{8,64})[ \t]*\r?$/dgim;
/** What may stand before the key on its line: indentation, and the line number read_file, `cat -n` or `grep -n` put there. */
const GUTTER = /^(?:[ \t]*\d+(?: \| |\t)|[^\s:]*:\d+[:-])?[ \t]*$/;
const configPassword: KeelRule = {
  id: 'keel/config-password',
  kind: 'a password in a config file',
  spans(text) {
    const out: [number, number][] = [];
    for (const m of text.matchAll(CONFIG_PASSWORD)) {
      const lineStart = text.lastIndexOf('\n', m.index! - 1) + 1;
      if (GUTTER.test(text.slice(lineStart, m.index!)) && !isPlaceholder(m[1]!)) out.push(m.indices![1]!);
    }
    return out;
  },
};

/** "the password is hunter2", "our API token was 'x1y2'": a credential word, a verb, a value. */
const PROSE =
  /\b(?:password|passphrase|passwd|passcode|secret|token|api[ -]?key|access[ -]?key|pin)\s+(?:is|was|equals)\s+(?:"([^"\r\n]{1,200})"|'([^'\r\n]{1,200})'|`([^`\r\n]{1,200})`|([^\s"'`]{1,200}))/dgi;

const proseSecret: KeelRule = {
  id: 'keel/prose-password',
  kind: 'a password in prose',
  spans(text) {
    const out: [number, number][] = [];
    for (const m of text.matchAll(PROSE)) {
      const quoted = m[1] ?? m[2] ?? m[3];
      const value = quoted ?? (m[4] ?? '').replace(/[.,;:!?)]+$/, '');
      if (value === '' || isPlaceholder(value)) continue;
      if (quoted === undefined && (isEnglish(value) || !looksLikeValue(value, true))) continue;
      const span = spanOf(m, [1, 2, 3, 4]);
      if (span) out.push([span[0], span[0] + value.length]);
    }
    return out;
  },
};

export const KEEL_RULES: readonly KeelRule[] = [
  // The model vendors Keel talks to, loosely: an error may quote a key cut short or altered.
  patternRule(
    'keel/model-vendor-key',
    'a model API key',
    /\b(?:sk-[A-Za-z0-9_-]{8,}|AIza[A-Za-z0-9_-]{20,}|xai-[A-Za-z0-9_-]{16,}|gsk_[A-Za-z0-9_-]{16,})/g,
  ),
  patternRule('keel/stripe', 'a Stripe key', /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,247}\b|\bwhsec_[A-Za-z0-9+/]{24,}/g),
  patternRule(
    'keel/discord',
    'a Discord bot token',
    /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g,
  ),
  patternRule(
    'keel/discord-webhook',
    'a Discord webhook',
    /https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{20,}/g,
  ),
  patternRule('keel/telegram', 'a Telegram bot token', /\b\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g),
  patternRule(
    'keel/azure-connection-key',
    'an Azure storage or service bus key',
    /\b(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{40,100}={0,2})/g,
    1,
  ),
  patternRule('keel/azure-sas', 'an Azure SAS signature', /[?&]sig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})/gi, 1),
  patternRule(
    'keel/azure-client-secret',
    'an Azure client secret',
    /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
  ),
  patternRule('keel/jwt', 'a JSON Web Token', /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{16,}/g),
  patternRule('keel/pypi', 'a PyPI token', /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g),
  urlCredential,
  // npm's legacy `_auth` (base64 of user:password) in an .npmrc, bare or under a registry's path.
  patternRule('keel/npmrc-auth', 'an npm registry password', /(?:^|[\s:])_auth[ \t]*=[ \t]*([A-Za-z0-9+/]{8,}={0,2})/gm, 1),
  // A registry's `auth` in Docker's config.json or DOCKER_AUTH_CONFIG (base64 of user:password), JSON-escaped or not.
  patternRule('keel/registry-auth', 'a registry password', /\\?"auth\\?"\s*:\s*\\?"([A-Za-z0-9+/]{8,}={0,2})\\?"/g, 1, decodesToLogin),
  configPassword,
  // From the header to its end line, or to the end of the text when it was cut.
  patternRule(
    'keel/private-key-block',
    'a private key',
    /-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----|$)/g,
  ),
  patternRule('keel/bearer', 'an authorization value', /\bBearer\s+([^\s"'`,;&)\]}]{3,}[^\s"'`,;&)\]}.])/gi, 1, aToken),
  patternRule(
    'keel/auth-header',
    'an authorization value',
    /\b(?:proxy-)?(?:authorization|x-api-key|api[-_]?key)["']?\s*[:=]\s*["']?((?:Bearer|Basic|Token|Digest)\s+[^\s"'`,;&)\]}]+|[^\s"'`,;&)\]}]{3,}[^\s"'`,;&)\]}.])/gi,
    1,
    aValue,
  ),
  namedSecret,
  proseSecret,
];
