// The one check of a base URL a user gives (keel.baseUrl, --base-url): an http or https URL with
// its scheme written out. "localhost:11434/v1" parses as a URL of the scheme "localhost:", so a
// missing scheme is caught before parsing and named, with the URL the user most likely meant;
// every message names the setting or flag it came from, so the user knows what to fix.

export type BaseUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** `value` (non-empty) as a URL Keel may send requests to, or why not, naming `setting`. */
export function checkBaseUrl(value: string, setting: string): BaseUrlCheck {
  const given = value.trim();
  if (!SCHEME.test(given)) {
    const meant = /^[\w.-]+(:\d+)?(\/|$)|^\[[0-9a-f:]+\](:\d+)?(\/|$)/i.test(given) ? ` Did you mean "http://${given}"?` : '';
    return { ok: false, message: `${setting} must start with http:// or https:// (it is "${shown(given)}"); nothing was sent.${meant}` };
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return { ok: false, message: `${setting} is not a valid URL ("${shown(given)}"); nothing was sent.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, message: `${setting} must be an http or https URL (it is ${url.protocol}); nothing was sent.` };
  return { ok: true, url };
}

/** The value as the message quotes it: short, one line. */
function shown(value: string): string {
  const line = value.replace(/[\r\n\t]+/g, ' ');
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
