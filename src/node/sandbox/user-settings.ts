// npm's and yarn's user settings as a sandboxed command sees them: every setting but the ones
// that hold or point at a credential — auth tokens, passwords, basic-auth pairs, client
// certificates and keys, whether for the default registry or scoped to one (`//host/:_authToken`)
// — and a password written into a registry URL is taken out of it. A test run reads registry
// and script settings (`script-shell`, `node-options`); it has no network to use a token with.

/** The last part of a setting's name that makes it a credential. */
const NPM_SECRET_KEY = /(?:^|[:._-])(?:_auth|_authtoken|authtoken|_password|password|username|email|certfile|keyfile|cert|key|token|otp)$/i;
const YARN_SECRET_KEY = /^(?:npmAuthToken|npmAuthIdent|npmAlwaysAuth|httpsKeyFilePath|httpsCertFilePath|caFilePath|npmPassword)$/;

/** `https://user:secret@host` → `https://host`. */
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi;

export function redactedNpmrc(text: string): string {
  return keepLines(text, (line) => {
    const m = /^\s*([^=;#\s][^=]*?)\s*=/.exec(line);
    return !m || !NPM_SECRET_KEY.test(m[1]!.trim());
  });
}

/** .yarnrc.yml: a credential key drops its line (and, for a block, the lines indented under it). */
export function redactedYarnrc(text: string): string {
  const out: string[] = [];
  let dropIndent: number | undefined;
  for (const line of text.split('\n')) {
    const indent = /^ */.exec(line)![0].length;
    if (dropIndent !== undefined && (line.trim() === '' || indent > dropIndent)) continue;
    dropIndent = undefined;
    const key = /^\s*["']?([\w.-]+)["']?\s*:/.exec(line)?.[1];
    if (key && YARN_SECRET_KEY.test(key)) {
      dropIndent = indent;
      continue;
    }
    out.push(line.replace(URL_CREDENTIALS, '$1'));
  }
  return out.join('\n');
}

function keepLines(text: string, keep: (line: string) => boolean): string {
  return text
    .split('\n')
    .filter(keep)
    .map((l) => l.replace(URL_CREDENTIALS, '$1'))
    .join('\n');
}
