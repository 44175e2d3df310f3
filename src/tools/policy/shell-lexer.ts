// Splits a command line into the tokens bash (`bash --noprofile --norc -c LINE`) would see:
// words (with their quoting), operators and redirections, command substitutions lexed in turn.
// It accepts a small language it models exactly and refuses the rest: ANSI-C and locale quoting,
// arithmetic, here-documents, process substitution, brace expansion, `${…}` beyond plain forms,
// backslashes inside backticks, comments inside substitutions, `case` separators.
import type { Operator, RedirectOp, Token, Word, WordPart } from './shell-word.js';

export type LexResult = { type: 'ok'; tokens: Token[]; steps: number } | { type: 'refused'; reason: string; steps: number };

/** Characters that end an unquoted word. */
const METACHARS = ' \t\n|&;()<>';
/** Characters that end a run of plain unquoted text inside a word. */
const WORD_SPECIAL = ' \t\n|&;()<>\\\'"$`';
const DOUBLE_SPECIAL = '"\\$`';
const MAX_NESTING = 8;
/** `${…}` bodies we model: a name, its length, or a default/alternative made of plain characters. */
const PARAM_BODY = /^(?:#?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])|(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+):?[-+?][A-Za-z0-9 _./,@%+=:-]*)$/;
const ASSIGNMENT_LIKE = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/** What the lexer refuses; the parser refuses with it too. */
export class ShellRefusal extends Error {}

function refuse(what: string): never {
  throw new ShellRefusal(what);
}

/** Lexes a whole command line. `steps` counts the characters examined, for linearity checks. */
export function lex(src: string): LexResult {
  const steps = { n: 0 };
  try {
    return { type: 'ok', tokens: new Lexer(src, 0, steps).tokens('top'), steps: steps.n };
  } catch (err) {
    if (err instanceof ShellRefusal) return { type: 'refused', reason: err.message, steps: steps.n };
    throw err;
  }
}

/** Tokens read one at a time with one of lookahead, so a long line is never held whole. Throws ShellRefusal. */
export interface TokenStream {
  peek(): Token | undefined;
  next(): Token | undefined;
}

export function tokenStream(src: string): TokenStream {
  const lexer = new Lexer(src, 0, { n: 0 });
  let ahead: Token | undefined;
  let done = false;
  const peek = () => {
    if (ahead === undefined && !done) {
      ahead = lexer.next('top', 0);
      done = ahead === undefined;
    }
    return ahead;
  };
  return {
    peek,
    next: () => {
      const t = peek();
      ahead = undefined;
      return t;
    },
  };
}

/** A token list (a substitution's body) as a stream. */
export function arrayStream(tokens: readonly Token[]): TokenStream {
  let i = 0;
  return { peek: () => tokens[i], next: () => tokens[i++] };
}

type Mode = 'top' | 'paren' | 'backtick';

class Lexer {
  i = 0;

  constructor(
    private readonly src: string,
    private readonly depth: number,
    private readonly steps: { n: number },
  ) {}

  /** Tokens up to the end of the text, or (in 'paren' mode) up to the `)` closing a `$(`. */
  tokens(mode: Mode): Token[] {
    const out: Token[] = [];
    let parens = 0;
    for (let t = this.next(mode, parens); t; t = this.next(mode, parens)) {
      if (t.type === 'op' && t.op === '(') parens++;
      if (t.type === 'op' && t.op === ')') parens--;
      out.push(t);
    }
    return out;
  }

  /** The next token; undefined at the end, or (in 'paren' mode, `parens` deep) after the `)` closing a `$(`. */
  next(mode: Mode, parens: number): Token | undefined {
    const s = this.src;
    for (;;) {
      this.steps.n++;
      const c = s[this.i];
      if (c === undefined) {
        if (mode === 'paren') refuse('an unclosed $(');
        return undefined;
      }
      if (c === ' ' || c === '\t') this.i++;
      else if (c === '\\' && s[this.i + 1] === '\n') this.i += 2;
      else if (c === '#') this.comment(mode);
      else if (c === ')' && mode === 'paren' && parens === 0) {
        this.i++;
        return undefined;
      } else return this.operator() ?? this.redirect(undefined) ?? this.wordOrFdRedirect();
    }
  }

  private comment(mode: Mode): void {
    if (mode !== 'top') refuse('a comment inside a command substitution');
    const nl = this.src.indexOf('\n', this.i);
    const end = nl === -1 ? this.src.length : nl;
    this.steps.n += end - this.i;
    this.i = end;
  }

  private operator(): Token | undefined {
    const s = this.src;
    const c = s[this.i];
    const d = s[this.i + 1];
    let op: Operator | undefined;
    if (c === '&') op = d === '&' ? '&&' : d === '>' ? undefined : '&';
    else if (c === '|') op = d === '|' ? '||' : d === '&' ? '|&' : '|';
    else if (c === ';') {
      if (d === ';' || d === '&') refuse('case clause separators (;; ;& ;;&)');
      op = ';';
    } else if (c === '(') {
      if (d === '(') refuse('arithmetic (( … ))');
      op = '(';
    } else if (c === ')' || c === '\n') op = c;
    if (!op) return undefined;
    this.i += op.length;
    return { type: 'op', op };
  }

  private redirect(fd: number | undefined): Token | undefined {
    const op = this.redirectOp();
    if (!op) return undefined;
    this.i += op.length;
    this.skipBlanks();
    const c = this.src[this.i];
    if (c === undefined || METACHARS.includes(c)) refuse(`a redirection (${op}) without a target`);
    const target = this.word();
    return { type: 'redirect', redirect: { op, ...(fd === undefined ? {} : { fd }), target } };
  }

  private redirectOp(): RedirectOp | undefined {
    const s = this.src;
    const c = s[this.i];
    if (c !== '<' && c !== '>' && c !== '&') return undefined;
    const d = s[this.i + 1];
    const e = s[this.i + 2];
    if ((c === '<' || c === '>') && d === '(') refuse('process substitution');
    if (c === '<') {
      if (d === '<') return e === '<' ? '<<<' : refuse('here-documents (<<)');
      return d === '>' ? '<>' : d === '&' ? '<&' : '<';
    }
    if (c === '>') return d === '>' ? '>>' : d === '|' ? '>|' : d === '&' ? '>&' : '>';
    if (c === '&' && d === '>') return e === '>' ? '&>>' : '&>';
    return undefined;
  }

  private skipBlanks(): void {
    const s = this.src;
    for (;;) {
      if (s[this.i] === ' ' || s[this.i] === '\t') this.i++;
      else if (s[this.i] === '\\' && s[this.i + 1] === '\n') this.i += 2;
      else return;
    }
  }

  /** A word, or `N>`/`N<` when the word is a bare file descriptor number touching a redirection. */
  private wordOrFdRedirect(): Token {
    const start = this.i;
    const word = this.word();
    const c = this.src[this.i];
    if (c === '<' || c === '>') {
      const p = word.parts[0];
      const bare = word.parts.length === 1 && p?.type === 'text' && !p.quoted ? p.text : undefined;
      if (bare !== undefined && /^\d+$/.test(bare) && this.i - start === bare.length) return this.redirect(Number(bare))!;
      if (bare !== undefined && /^\{.*\}$/.test(bare)) refuse('a {name} file descriptor redirection');
    }
    return { type: 'word', word };
  }

  private word(): Word {
    const s = this.src;
    const b = new WordBuilder();
    for (;;) {
      this.steps.n++;
      const c = s[this.i];
      if (c === undefined || METACHARS.includes(c)) return b.finish();
      if (c === '\\') this.escaped(b);
      else if (c === "'") this.singleQuoted(b);
      else if (c === '"') this.doubleQuoted(b);
      else if (c === '$') this.dollar(b, false);
      else if (c === '`') this.backtick(b);
      else b.text(this.run(WORD_SPECIAL), false);
    }
  }

  /** The longest run of characters from this.i that are not in `stops`. */
  private run(stops: string): string {
    const s = this.src;
    const start = this.i;
    while (this.i < s.length && !stops.includes(s[this.i]!)) this.i++;
    this.steps.n += this.i - start;
    return s.slice(start, this.i);
  }

  private escaped(b: WordBuilder): void {
    const next = this.src[this.i + 1];
    if (next === undefined) refuse('a backslash at the end of the command');
    if (next !== '\n') b.text(next, true);
    this.i += 2;
  }

  private singleQuoted(b: WordBuilder): void {
    const end = this.src.indexOf("'", this.i + 1);
    if (end === -1) refuse('an unclosed quote');
    b.text(this.src.slice(this.i + 1, end), true);
    this.steps.n += end - this.i;
    this.i = end + 1;
  }

  private doubleQuoted(b: WordBuilder): void {
    const s = this.src;
    this.i++;
    b.text('', true);
    for (;;) {
      this.steps.n++;
      const c = s[this.i];
      if (c === undefined) refuse('an unclosed quote');
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\') {
        const next = s[this.i + 1];
        if (next !== undefined && '$`"\\\n'.includes(next)) {
          if (next !== '\n') b.text(next, true);
          this.i += 2;
        } else {
          b.text('\\', true);
          this.i++;
        }
      } else if (c === '$') this.dollar(b, true);
      else if (c === '`') this.backtick(b);
      else b.text(this.run(DOUBLE_SPECIAL), true);
    }
  }

  /** `$name`, `$1`, `${…}`, `$(…)`, or a literal `$`. */
  private dollar(b: WordBuilder, inDouble: boolean): void {
    const s = this.src;
    const n = s[this.i + 1] ?? '';
    if (n === '(') {
      if (s[this.i + 2] === '(') refuse('arithmetic $(( … ))');
      this.i += 2;
      b.command(this.nested());
    } else if (n === '{') this.braced(b);
    else if (n === '[') refuse('arithmetic $[ … ]');
    else if (n === "'") refuse("ANSI-C quoting $'…'");
    else if (n === '"' && !inDouble) refuse('locale quoting $"…"');
    else if (/[A-Za-z_]/.test(n)) {
      const start = this.i++;
      while (/[A-Za-z0-9_]/.test(s[this.i] ?? '')) this.i++;
      this.steps.n += this.i - start;
      b.param(s.slice(start, this.i));
    } else if (/[0-9@*#?$!-]/.test(n)) {
      b.param(s.slice(this.i, this.i + 2));
      this.i += 2;
    } else {
      b.text('$', inDouble);
      this.i++;
    }
  }

  private braced(b: WordBuilder): void {
    const end = this.src.indexOf('}', this.i + 2);
    if (end === -1) refuse('an unclosed ${');
    const body = this.src.slice(this.i + 2, end);
    if (!PARAM_BODY.test(body)) refuse(`the expansion \${${body.slice(0, 40)}} (only \${name} and \${name:-text} are modelled)`);
    this.steps.n += end - this.i;
    b.param(this.src.slice(this.i, end + 1));
    this.i = end + 1;
  }

  /** The tokens of a `$(…)` body, this.i just after `$(`. */
  private nested(): Token[] {
    if (this.depth >= MAX_NESTING) refuse('command substitutions nested too deeply');
    const sub = new Lexer(this.src, this.depth + 1, this.steps);
    sub.i = this.i;
    const tokens = sub.tokens('paren');
    this.i = sub.i;
    return tokens;
  }

  private backtick(b: WordBuilder): void {
    const end = this.src.indexOf('`', this.i + 1);
    if (end === -1) refuse('an unclosed backtick');
    const body = this.src.slice(this.i + 1, end);
    if (body.includes('\\')) refuse('a backslash inside backticks');
    if (this.depth >= MAX_NESTING) refuse('command substitutions nested too deeply');
    this.steps.n += end - this.i;
    b.command(new Lexer(body, this.depth + 1, this.steps).tokens('backtick'));
    this.i = end + 1;
  }
}

class WordBuilder {
  private readonly parts: WordPart[] = [];

  text(text: string, quoted: boolean): void {
    const last = this.parts[this.parts.length - 1];
    if (last?.type === 'text' && last.quoted === quoted) last.text += text;
    else this.parts.push({ type: 'text', text, quoted });
  }

  param(text: string): void {
    this.parts.push({ type: 'param', text });
  }

  command(tokens: Token[]): void {
    this.parts.push({ type: 'command', tokens });
  }

  finish(): Word {
    refuseBraceExpansion(this.parts);
    const parts = splitTilde(this.parts);
    // `a=~/x` as an argument: bash expands the tilde after `=` and `:` there too.
    const first = parts[0];
    if (first?.type === 'text' && !first.quoted && ASSIGNMENT_LIKE.test(first.text)) {
      if (parts.some((p) => p.type === 'text' && !p.quoted && p.text.includes('~'))) parts.push({ type: 'param', text: '~' });
    }
    return { parts };
  }
}

/** `{a,b}` and `{1..3}` expand to several words; we refuse rather than model brace expansion. */
function refuseBraceExpansion(parts: WordPart[]): void {
  if (!parts.some((p) => p.type === 'text' && !p.quoted && p.text.includes('{'))) return;
  let stream = '';
  for (const p of parts) stream += p.type === 'text' && !p.quoted ? p.text : '\u0000';
  const open = stream.indexOf('{');
  const close = stream.lastIndexOf('}');
  if (open === -1 || close < open) return;
  const inside = stream.slice(open, close);
  if (inside.includes(',') || inside.includes('..')) refuse('brace expansion ({a,b} or {1..3})');
}

/** A leading unquoted `~` up to the first `/` is a tilde prefix bash expands. */
function splitTilde(parts: WordPart[]): WordPart[] {
  const first = parts[0];
  if (first?.type !== 'text' || first.quoted || !first.text.startsWith('~')) return parts;
  const slash = first.text.indexOf('/');
  // The prefix runs on into the next part (quoted or expanded): bash does not expand it.
  if (slash === -1 && parts.length > 1) return parts;
  const end = slash === -1 ? first.text.length : slash;
  const rest: WordPart[] = end < first.text.length ? [{ type: 'text', text: first.text.slice(end), quoted: false }] : [];
  return [{ type: 'tilde', text: first.text.slice(0, end) }, ...rest, ...parts.slice(1)];
}
