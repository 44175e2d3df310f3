// Which pages browser_check may open: http(s) on loopback — 127.0.0.0/8, ::1, `localhost` — as
// written in the URL (a name that merely resolves to 127.0.0.1 is another host), or a host the
// user allowed. Anything else is refused before a browser starts, with the reason.

/** True for a hostname (as URL.hostname spells it) that is loopback by its spelling alone. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export type PageAddress = { ok: true; url: URL } | { ok: false; reason: string };

/** The URL to open, or why it may not be opened. */
export function pageAddress(raw: string, allowsHost: (host: string) => boolean): PageAddress {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: `${JSON.stringify(raw)} is not an absolute URL; give one such as http://localhost:5173/.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: `Only http and https pages are opened, not ${url.protocol.replace(':', '')}.` };
  if (url.username || url.password) return { ok: false, reason: 'A URL with a user name or password in it is not opened.' };
  if (isLoopbackHost(url.hostname) || allowsHost(url.host)) return { ok: true, url };
  return {
    ok: false,
    reason:
      `${url.hostname} is not on this machine's loopback: browser_check opens only pages of servers running here ` +
      '(localhost, 127.0.0.1, [::1]) unless the user allows the host (keel run --allow-host). Use web_fetch to read a public page.',
  };
}
