// A small POSIX-shell lexer, enough to classify commands by what they are rather than by
// their prefix: quotes, escapes, `$(…)`, backticks, `${…}`, process substitution, operators
// and redirections. Command substitutions are returned as text, to be parsed in turn.

export interface Word {
  /** The text after quote removal; expansions are kept literally. */
  value: string;
  /** Contains an expansion ($x, ${x}, $(…), `…`) whose value is only known at run time. */
  dynamic: boolean;
  /** Has an unquoted glob character. */
  glob: boolean;
}

type Token =
  | { type: 'word'; word: Word }
  | { type: 'op'; value: ';' | '&&' | '||' | '|' | '|&' | '&' | '(' | ')' }
  | { type: 'redirect'; op: string; fd: string; target: Word | undefined };

export interface LexResult {
  tokens: Token[];
  /** Command lines found inside $(…), `…`, <(…) and >(…), in order. */
  substitutions: string[];
  /** Set when the text uses syntax we do not understand well enough to judge. */
  unsupported?: string;
}

const OPERATORS = ['&&', '||', '|&', ';;', ';', '&', '|', '(', ')'] as const;
const REDIRECTS = ['&>>', '&>', '<<<', '<<', '>>', '>|', '>&', '<&', '<>', '>', '<'];

export function lex(src: string): LexResult {
  return new Lexer(src).run();
}

class Lexer {
  private i = 0;
  private readonly tokens: Token[] = [];
  private readonly substitutions: string[] = [];
  private unsupported: string | undefined;

  constructor(private readonly src: string) {}

  run(): LexResult {
    const s = this.src;
    while (this.i < s.length && !this.unsupported) {
      const c = s[this.i]!;
      if (c === ' ' || c === '\t') this.i++;
      else if (c === '\n') this.newline();
      else if (c === '#') this.skipComment();
      else if (c === '\\' && s[this.i + 1] === '\n') this.i += 2;
      else if (!this.operator() && !this.redirect('')) this.word();
    }
    return { tokens: this.tokens, substitutions: this.substitutions, ...(this.unsupported ? { unsupported: this.unsupported } : {}) };
  }

  private newline(): void {
    this.tokens.push({ type: 'op', value: ';' });
    this.i++;
  }

  private skipComment(): void {
    const nl = this.src.indexOf('\n', this.i);
    this.i = nl === -1 ? this.src.length : nl;
  }

  private operator(): boolean {
    const s = this.src;
    if ((s[this.i] === '<' || s[this.i] === '>') && s[this.i + 1] === '(') return false;
    if (s.startsWith('&>', this.i)) return false;
    for (const op of OPERATORS) {
      if (!s.startsWith(op, this.i)) continue;
      if (op === ';;') return this.fail('case statements');
      this.tokens.push({ type: 'op', value: op });
      this.i += op.length;
      return true;
    }
    return false;
  }

  private redirect(fd: string): boolean {
    const s = this.src;
    if ((s[this.i] === '<' || s[this.i] === '>') && s[this.i + 1] === '(') return false;
    const op = REDIRECTS.find((r) => s.startsWith(r, this.i));
    if (!op) return false;
    if (op === '<<') return this.fail('here-documents');
    this.i += op.length;
    while (s[this.i] === ' ' || s[this.i] === '\t') this.i++;
    const target = this.atWordEnd() ? undefined : this.readWord();
    this.tokens.push({ type: 'redirect', op, fd, target });
    return true;
  }

  private atWordEnd(): boolean {
    const c = this.src[this.i];
    return c === undefined || ' \t\n;&|()<>'.includes(c);
  }

  private word(): void {
    const start = this.i;
    const w = this.readWord();
    // `2>file`: digits directly followed by a redirection are its file descriptor.
    if (/^\d+$/.test(w.value) && this.i === start + w.value.length && this.redirect(w.value)) return;
    this.tokens.push({ type: 'word', word: w });
  }

  private readWord(): Word {
    const s = this.src;
    const w: Word = { value: '', dynamic: false, glob: false };
    while (this.i < s.length && !this.unsupported) {
      const c = s[this.i]!;
      if ((c === '<' || c === '>') && s[this.i + 1] === '(') {
        this.substitution(this.i + 2, ')');
        w.dynamic = true;
      } else if (this.atWordEnd()) break;
      else if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        if (end === -1) return this.failWord(w, 'an unclosed quote');
        w.value += s.slice(this.i + 1, end);
        this.i = end + 1;
      } else if (c === '"') this.doubleQuoted(w);
      else if (c === '\\') [w.value, this.i] = [w.value + (s[this.i + 1] ?? ''), this.i + 2];
      else if (c === '$' || c === '`') this.dollar(w);
      else {
        if (c === '*' || c === '?' || c === '[') w.glob = true;
        [w.value, this.i] = [w.value + c, this.i + 1];
      }
    }
    return w;
  }

  private doubleQuoted(w: Word): void {
    const s = this.src;
    this.i++;
    while (this.i < s.length && s[this.i] !== '"' && !this.unsupported) {
      const c = s[this.i]!;
      if (c === '\\' && '\\"$`\n'.includes(s[this.i + 1] ?? '')) [w.value, this.i] = [w.value + s[this.i + 1], this.i + 2];
      else if (c === '$' || c === '`') this.dollar(w);
      else [w.value, this.i] = [w.value + c, this.i + 1];
    }
    if (s[this.i] !== '"') return void this.fail('an unclosed quote');
    this.i++;
  }

  /** `$x`, `${…}`, `$(…)`, `$((…))` or a backtick substitution, at this.i. */
  private dollar(w: Word): void {
    const s = this.src;
    const start = this.i;
    if (s[this.i] === '`') this.substitution(this.i + 1, '`');
    else if (s.startsWith('$((', this.i)) this.arithmetic();
    else if (s.startsWith('$(', this.i)) this.substitution(this.i + 2, ')');
    else if (s.startsWith('${', this.i)) this.braced();
    else if (/[A-Za-z_0-9@*#?$!-]/.test(s[this.i + 1] ?? '')) {
      this.i++;
      if (/[A-Za-z_]/.test(s[this.i]!)) while (/[A-Za-z_0-9]/.test(s[this.i] ?? '')) this.i++;
      else this.i++;
    } else [w.value, this.i] = [`${w.value}$`, this.i + 1];
    if (this.i > start + 1 || s[start] === '`') {
      w.value += s.slice(start, this.i);
      w.dynamic = true;
    }
  }

  private substitution(from: number, close: ')' | '`'): void {
    const end = close === '`' ? this.src.indexOf('`', from) : matchingParen(this.src, from);
    if (end === -1) return void this.fail('an unclosed substitution');
    this.substitutions.push(this.src.slice(from, end));
    this.i = end + 1;
  }

  private arithmetic(): void {
    const end = this.src.indexOf('))', this.i + 3);
    if (end === -1) return void this.fail('unclosed arithmetic');
    if (/[`$]\(|`/.test(this.src.slice(this.i + 3, end))) return void this.fail('substitution inside arithmetic');
    this.i = end + 2;
  }

  private braced(): void {
    const end = this.src.indexOf('}', this.i + 2);
    if (end === -1) return void this.fail('an unclosed ${');
    const body = this.src.slice(this.i + 2, end);
    // ${x@P} expands the value as a prompt, which runs command substitutions inside it.
    if (/@[A-Za-z]/.test(body)) return void this.fail(`the \${…@${body.split('@')[1]}} expansion, which can run hidden commands`);
    if (/[`$]|\{/.test(body)) return void this.fail('nested expansions inside ${…}');
    this.i = end + 1;
  }

  private fail(what: string): boolean {
    this.unsupported ??= what;
    this.i = this.src.length;
    return true;
  }

  private failWord(w: Word, what: string): Word {
    this.fail(what);
    return w;
  }
}

/** Index of the `)` closing a `(` just before `from`, skipping quotes and nested parens. */
function matchingParen(s: string, from: number): number {
  let depth = 1;
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === "'") {
      i = s.indexOf("'", i + 1);
      if (i === -1) return -1;
    } else if (c === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}
