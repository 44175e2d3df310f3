// Redirections: bash opens /dev/tcp/HOST/PORT and /dev/udp/… as network connections, on any
// descriptor and with any operator, so those (and targets computed at run time, which could be
// one) are `network`. Any other write names a file to write; a read names a file to read.
import { judgement, type Judgement } from './command-class.js';
import { NotReadOnly, wordPath } from './program-args.js';
import { displayText, pathText, startsWithTilde, type Redirect } from './shell-word.js';

const HARMLESS_WRITES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

export function judgeRedirect(r: Redirect): Judgement {
  const text = pathText(r.target);
  if (r.op === '<<<') return hereString(r, text);
  if (text === undefined) {
    const shown = displayText(r.target);
    if (WRITE_OPS.has(r.op) && isSensitivePath(shown)) return judgement('dangerous', `writes to ${shown}`);
    return judgement('network', `redirects to or from a file named at run time (${shown}), which could be /dev/tcp`);
  }
  if (/^\/dev\/(tcp|udp)\//.test(text.replace(/\/+/g, '/'))) return judgement('network', `opens a network connection (${text})`);
  // `2>&1`, `>&-`, `<&3`: duplicating or closing a descriptor names no file.
  if ((r.op === '>&' || r.op === '<&') && /^(\d+-?|-)$/.test(text)) return judgement('read_only');
  if (r.op === '<&') return judgement('execute', `an unusual redirection (<&${text})`);
  if (r.op === '<') return text === '/dev/null' ? judgement('read_only') : withPath(r, 'read');
  if (!WRITE_OPS.has(r.op) && r.op !== '>&') return judgement('execute', `an unusual redirection (${r.op})`);
  if (HARMLESS_WRITES.has(text)) return judgement('read_only');
  const sensitive = isSensitivePath(text);
  return withPath(r, 'write', sensitive ? 'dangerous' : 'execute');
}

function hereString(r: Redirect, text: string | undefined): Judgement {
  if (text === undefined || startsWithTilde(r.target)) return judgement('unparseable', 'a here-string with expansions');
  return judgement('read_only');
}

function withPath(r: Redirect, access: 'read' | 'write', type: Judgement['type'] = 'read_only'): Judgement {
  try {
    const path = { ...wordPath(r.target), access };
    return judgement(type, access === 'write' ? `writes to ${path.path}` : undefined, { paths: [path] });
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
