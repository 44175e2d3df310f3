// Redirections, allowed by a fixed list: output discarded (`>/dev/null`, `2>/dev/null`,
// `&>/dev/null`), the standard descriptors duplicated or closed among themselves (`2>&1`,
// `>&2`, `2>&-`), standard input from a workspace file (`< file`, checked as a read) and a short
// here-string. Anything else asks: a write names a file to write; a descriptor alias
// (/dev/stdout, /dev/fd/N, /proc/self/fd/N…) reopens whatever file that descriptor points at —
// for writing, truncating it, even when the descriptor was opened to read (`1<package.json
// >/dev/stdout`); a standard output or error pointed at a file, or any descriptor above 2, is a
// file Keel would have to follow through the line. bash opens /dev/tcp/HOST/PORT and /dev/udp/…
// as connections, on any descriptor and with any operator: those, and targets computed at run
// time (which could be one), are `network`.
import { judgement, type Judgement } from './command-class.js';
import { NotReadOnly, wordPath } from './program-args.js';
import { displayText, pathText, startsWithTilde, type Redirect } from './shell-word.js';

const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '>&', '<>']);
const STANDARD = new Set([0, 1, 2]);
/**
 * bash (5.1 and later) feeds a here-string through a pipe up to the pipe's size (64 KiB on
 * Linux) and through a file in $TMPDIR beyond; this stays well under the smallest pipe.
 */
const MAX_HERE_STRING_BYTES = 4096;

export function judgeRedirect(r: Redirect): Judgement {
  const text = pathText(r.target);
  if (r.op === '<<<') return hereString(r, text);
  if (text === undefined) {
    const shown = displayText(r.target);
    if (WRITE_OPS.has(r.op) && isSensitivePath(shown)) return judgement('dangerous', `writes to ${shown}`);
    return judgement('network', `redirects to or from a file named at run time (${shown}), which could be /dev/tcp`);
  }
  const path = text.replace(/\/+/g, '/');
  if (/^\/dev\/(tcp|udp)\//.test(path)) return judgement('network', `opens a network connection (${text})`);
  const fd = r.fd ?? (r.op === '<' || r.op === '<&' || r.op === '<>' ? 0 : 1);
  if ((r.op === '>&' || r.op === '<&') && /^(\d+-?|-)$/.test(text)) return duplicate(fd, text);
  if (r.op === '<&') return judgement('execute', `an unusual redirection (<&${text})`);
  // Never unasked, even when every command is approved: the file written is out of sight of the protected-path check.
  if (isDescriptorAlias(path)) return judgement('dangerous', `redirects to ${text}, which reopens the file a descriptor points at`);
  const access = r.op === '<' ? 'read' : 'write';
  if (!STANDARD.has(fd))
    return withPath(r, access, 'execute', `opens ${text} on descriptor ${fd}, which Keel does not follow through the line`);
  if (r.op === '<') return read(r, fd, text);
  if (path === '/dev/null' && r.op !== '<>') return judgement('read_only');
  return withPath(r, 'write', isSensitivePath(text) ? 'dangerous' : 'execute');
}

/** `2>&1`, `>&2`, `<&0`, `2>&-`: among the standard descriptors only. */
function duplicate(fd: number, text: string): Judgement {
  const from = text === '-' ? undefined : Number.parseInt(text, 10);
  if (STANDARD.has(fd) && (from === undefined || STANDARD.has(from))) return judgement('read_only');
  return judgement('execute', `duplicates descriptor ${STANDARD.has(fd) ? from : fd}; only 0, 1 and 2 are followed`);
}

/** Standard input from a file (checked as a read); another standard descriptor pointed at a file asks. */
function read(r: Redirect, fd: number, text: string): Judgement {
  if (fd !== 0)
    return withPath(r, 'read', 'execute', `points descriptor ${fd} at ${text}, where a later redirection could reopen it to write`);
  return text === '/dev/null' ? judgement('read_only') : withPath(r, 'read');
}

function hereString(r: Redirect, text: string | undefined): Judgement {
  if (text === undefined || startsWithTilde(r.target)) return judgement('unparseable', 'a here-string with expansions');
  if (Buffer.byteLength(text) > MAX_HERE_STRING_BYTES)
    return judgement('execute', `a here-string over ${MAX_HERE_STRING_BYTES} bytes, which bash may write to a temporary file`);
  if (r.fd !== undefined && r.fd !== 0) return judgement('execute', `a here-string on descriptor ${r.fd}`);
  return judgement('read_only');
}

/** /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N and /proc/…/fd/N: names of open descriptors. */
function isDescriptorAlias(path: string): boolean {
  return /^\/dev\/(stdin|stdout|stderr|fd)(\/|$)/.test(path) || /^\/proc\/[^/]+\/(task\/[^/]+\/)?fd(info)?(\/|$)/.test(path);
}

function withPath(r: Redirect, access: 'read' | 'write', type: Judgement['type'] = 'read_only', reason?: string): Judgement {
  try {
    const path = { ...wordPath(r.target), access };
    return judgement(type, reason ?? (access === 'write' ? `writes to ${path.path}` : undefined), { paths: [path] });
  } catch (err) {
    if (!(err instanceof NotReadOnly)) throw err;
    return judgement('execute', err.message);
  }
}

/** Home and system locations a command in a workspace has no business writing to. */
function isSensitivePath(p: string): boolean {
  return (
    /^(~|\$HOME|\$\{HOME\})(\/|$)/.test(p) ||
    /(^|\/)\.ssh(\/|$)/.test(p) ||
    /^\/(etc|usr|bin|sbin|boot|dev|lib|var|root|sys|proc)(\/|$)/.test(p) ||
    /(^|\/)\.(bashrc|zshrc|profile|bash_profile|zprofile|gitconfig|npmrc)$/.test(p)
  );
}
