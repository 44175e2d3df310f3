// Links from the transcript (model-written markdown) leave the editor only as web pages, and
// only after the user has seen the whole URL in a modal and agreed. Everything else —
// command:, vscode:, file:, javascript:, data: — is refused before anything is asked.
// No vscode import: the host passes the question and the opener, so this is unit-tested.
import { visibleText } from '../../kernel/visible-text.js';

const SCHEMES = new Set(['http:', 'https:']);
/** Longer than any link a person could check by reading it. */
const MAX_LINK_CHARS = 4096;

export type LinkCheck = { ok: true; url: string } | { ok: false; reason: string };

/** The link as it would be opened (the URL parser's normal form), or why it is refused. */
export function checkLink(href: string): LinkCheck {
  if (href.length > MAX_LINK_CHARS) return { ok: false, reason: `a link of ${href.length} characters` };
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  if (!SCHEMES.has(url.protocol)) return { ok: false, reason: `scheme ${url.protocol} is not a web link` };
  return { ok: true, url: url.href };
}

export interface LinkOpener {
  /** A modal showing `shown` (the URL with nothing hidden); true when the user agrees. */
  confirm(shown: string): PromiseLike<boolean>;
  open(url: string): PromiseLike<unknown>;
  log(message: string): void;
}

/** True when the link was opened. */
export async function openLinkAfterConfirm(href: string, opener: LinkOpener): Promise<boolean> {
  const checked = checkLink(href);
  if (!checked.ok) {
    opener.log(`ignored a link from the transcript (${checked.reason})`);
    return false;
  }
  if (!(await opener.confirm(visibleText(checked.url)))) return false;
  await opener.open(checked.url);
  return true;
}
