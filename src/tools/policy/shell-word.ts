// The shell's tokens and what a word is made of. A word keeps its parts (quoted or unquoted
// text, expansions, command substitutions, a leading tilde) so later steps can tell exactly what
// bash will do with it: glob it, expand it, or pass it on as written.

export type WordPart =
  | { type: 'text'; text: string; quoted: boolean }
  /** `~`, `~user`, `~+`: expanded by bash to a directory outside our sight. */
  | { type: 'tilde'; text: string }
  /** `$x`, `${x}`, `${x:-y}` and a tilde after `=` or `:` in an assignment-like word. */
  | { type: 'param'; text: string }
  /** `$(…)` or a backtick substitution, with its body's tokens. */
  | { type: 'command'; tokens: Token[] };

export interface Word {
  parts: WordPart[];
}

export type Operator = ';' | '&' | '&&' | '||' | '|' | '|&' | '(' | ')' | '\n';
export type RedirectOp = '<' | '>' | '>>' | '>|' | '<>' | '<&' | '>&' | '&>' | '&>>' | '<<<';

export interface Redirect {
  op: RedirectOp;
  /** The file descriptor written before the operator (`2>`), if any. */
  fd?: number;
  target: Word;
}

export type Token = { type: 'word'; word: Word } | { type: 'op'; op: Operator } | { type: 'redirect'; redirect: Redirect };

const GLOB_CHARS = /[*?[]/;

/** The word's value after quote removal, or undefined when bash computes part of it at run time. */
export function staticValue(w: Word): string | undefined {
  let out = '';
  for (const p of w.parts) {
    if (p.type !== 'text') return undefined;
    out += p.text;
  }
  return out;
}

/** The word as a path: its static value, or `~…` when it starts with a tilde bash expands. */
export function pathText(w: Word): string | undefined {
  const [first, ...rest] = w.parts;
  if (first?.type !== 'tilde') return staticValue(w);
  const tail = staticValue({ parts: rest });
  return tail === undefined ? undefined : first.text + tail;
}

export function startsWithTilde(w: Word): boolean {
  return w.parts[0]?.type === 'tilde';
}

/** True when the word has a `*`, `?` or `[` bash will use for pathname expansion. */
export function hasGlob(w: Word): boolean {
  return w.parts.some((p) => p.type === 'text' && !p.quoted && GLOB_CHARS.test(p.text));
}

/** The word as a bash pattern: quoted characters and backslashes escaped with a backslash. */
export function globPattern(w: Word): string | undefined {
  let out = '';
  for (const p of w.parts) {
    if (p.type === 'tilde') out += p.text;
    else if (p.type !== 'text') return undefined;
    else out += p.quoted ? escapePattern(p.text) : p.text.replace(/\\/g, '\\\\');
  }
  return out;
}

export function escapePattern(text: string): string {
  return text.replace(/[\\*?[\]]/g, (c) => `\\${c}`);
}

/** An unquoted word spelled exactly `text`: how bash recognises `if`, `{`, `!`, `time`. */
export function isBare(w: Word, text: string): boolean {
  const p = w.parts[0];
  return w.parts.length === 1 && p?.type === 'text' && !p.quoted && p.text === text;
}

/** Whether any part of the word is computed when it runs ($x, $(…), `…`). */
export function isDynamic(w: Word): boolean {
  return w.parts.some((p) => p.type === 'param' || p.type === 'command');
}

/** The unquoted leading text of the word (where bash looks for `NAME=`), or ''. */
export function leadingBareText(w: Word): string {
  const p = w.parts[0];
  return p?.type === 'text' && !p.quoted ? p.text : '';
}

/** The word as written, expansions kept as source text: for messages and rule prefixes. */
export function displayText(w: Word): string {
  return w.parts.map((p) => (p.type === 'command' ? '$(…)' : p.text)).join('');
}
