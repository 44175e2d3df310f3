// What a value under a credential's name must look like to count as the secret itself, and what
// it is instead when it does not: a placeholder (`${DB_PASSWORD}`, `$(cat file)`, `<token>`,
// `****`, `your-key`), a version or a path, a reference in code (`process.env.TOKEN`,
// `getToken()`), a type (`password: string`), or, after "the password is", an ordinary English
// word ("stored in Vault").

const MASK = /^[*xX.#•_-]+$/;
const TEMPLATE = /\$\{|\$\(|\{\{|%s|%\(|^<[^>]*>$|^\$[A-Za-z_]|^%[A-Za-z_]+%$/;
/** A version range (`"registry-auth-token": "^4.0.0"` in a lock file) or an absolute path (`/run/secrets/db`). */
const NOT_A_VALUE = /^[~^>=<]*\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?$|^\/[\w.-]+(?:\/[\w.-]+)+\/?$/;
const PLACEHOLDER_WORDS = new Set([
  'password',
  'passwd',
  'secret',
  'token',
  'example',
  'sample',
  'dummy',
  'placeholder',
  'redacted',
  '[redacted]',
  'null',
  'nil',
  'none',
  'undefined',
  'true',
  'false',
  'empty',
  'todo',
  'tbd',
  'string',
  'required',
  'optional',
]);
/** `your_api_key_here`, `YOUR-TOKEN`, `<insert-key>`: an instruction to fill in, not a value. */
const FILL_IN = /^(?:your|insert|enter)[-_ ]?[a-z_ -]*$/i;

/** True for a value that stands for a secret rather than being one. */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v === '' || MASK.test(v) || TEMPLATE.test(v) || NOT_A_VALUE.test(v)) return true;
  return PLACEHOLDER_WORDS.has(v.toLowerCase()) || FILL_IN.test(v);
}

/** A dotted name (`process.env.DB_PASSWORD`, `this.token`): a reference, not a value. */
const REFERENCE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

export const isReference = (value: string): boolean => REFERENCE.test(value);
/** Characters a bare secret is made of (no brackets, no angle brackets, no pipes: code and types have those). */
const VALUE_CHARS = /^[A-Za-z0-9+/=_\-.~!@#$%^&*:]+$/;

/**
 * Whether an unquoted value after a credential's name is a value. `KEY=value` written tight (an
 * env file, a shell line, a query string) always is; after `key: ` or `key = ` a bare word may be
 * code or a type, so it counts only with a digit or a symbol in it (`hunter2`, `p@ss`).
 */
export function looksLikeValue(value: string, tight: boolean): boolean {
  if (!VALUE_CHARS.test(value) || REFERENCE.test(value)) return false;
  if (tight) return value.length >= 3;
  return value.length >= 4 && /[0-9+/=!@#$%^&*~]/.test(value);
}

/** Words that follow "the password is" in ordinary English: "… is stored in Vault", "… is not set". */
const PROSE_FOLLOWERS: ReadonlySet<string> = new Set(
  (
    'a an the not no now in on at from for to of by with set stored kept saved managed required needed missing empty ' +
    'wrong incorrect invalid expired rotated reset changed generated provided given passed read loaded taken defined ' +
    'configured hashed encrypted masked hidden redacted available used sent correct too very optional mandatory located ' +
    'specified also only still never always being checked validated verified shown printed logged long short weak strong ' +
    'secure unique same different blank unset written held sensitive private secret supplied entered typed updated cached ' +
    'injected exposed leaked compromised important right ok fine ready valid active revoked scoped limited what which ' +
    'where how that this there here its your our their my his her case-sensitive something anything nothing known unknown ' +
    'stale old new fetched created issued good bad fixed random applied accepted rejected one either both each any all ' +
    'part just simply usually often then called treated split returned matched parsed assumed ignored appended added ' +
    'removed replaced included consumed compared emitted expected optional unused invalidated refreshed renewed ' +
    'cleared deleted attached bound tied scoped signed valid'
  ).split(' '),
);

/**
 * Whether a bare word after "the password is" is English rather than the password: a listed word,
 * or a lowercase participle or adverb ("… was resolved", "… is expiring", "… is rarely").
 */
export function isEnglish(word: string): boolean {
  const w = word.toLowerCase();
  return PROSE_FOLLOWERS.has(w) || (word === w && /^[a-z]{3,}(?:ed|ing|ly)$/.test(word));
}
