// Builds the command structure bash would: lists, and-or chains, pipelines, simple commands
// (assignments, words, redirections) and the compound commands we model — subshells, `{ … }`,
// if, while, until and for — so each part can be judged with the directory it runs in.
// `case`, `select`, `function`, `coproc`, `[[ … ]]` and anything bash would reject are refused.
import { lex } from './shell-lexer.js';
import { isBare, leadingBareText, type Redirect, type Token, type Word } from './shell-word.js';

export interface ShellList {
  items: AndOr[];
}

export interface AndOr {
  pipelines: Pipeline[];
  /** Ended by `&`: runs in a subshell of its own. */
  background: boolean;
}

export interface Pipeline {
  commands: ShellCommand[];
}

export interface SimpleCommand {
  type: 'simple';
  /** `NAME=value` words before the program. */
  assignments: Word[];
  words: Word[];
  redirects: Redirect[];
}

export interface CompoundCommand {
  type: 'compound';
  kind: 'subshell' | 'group' | 'if' | 'while' | 'until' | 'for';
  /** In order: conditions and bodies. */
  lists: ShellList[];
  /** The words a `for` loop iterates over. */
  words: Word[];
  redirects: Redirect[];
}

export type ShellCommand = SimpleCommand | CompoundCommand;

export type ParseResult = { type: 'ok'; list: ShellList; steps: number } | { type: 'refused'; reason: string; steps: number };

const REFUSED_KEYWORDS = new Map([
  ['case', '`case` statements'],
  ['select', '`select` loops'],
  ['function', 'function definitions'],
  ['coproc', 'coprocesses (coproc)'],
  ['[[', '[[ … ]] tests (arithmetic and pattern contexts)'],
]);
const MISPLACED = new Set(['then', 'elif', 'else', 'fi', 'do', 'done', '}', 'esac']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

class ParseRefusal extends Error {}

function refuse(what: string): never {
  throw new ParseRefusal(what);
}

export function parseCommandLine(src: string): ParseResult {
  const lexed = lex(src);
  if (lexed.type === 'refused') return lexed;
  const parsed = parseTokens(lexed.tokens);
  return { ...parsed, steps: lexed.steps };
}

/** Parses a token list (a whole line or a substitution's body). */
export function parseTokens(tokens: Token[]): { type: 'ok'; list: ShellList } | { type: 'refused'; reason: string } {
  try {
    const p = new Parser(tokens);
    const list = p.list(new Set());
    p.expectEnd();
    return { type: 'ok', list };
  } catch (err) {
    if (err instanceof ParseRefusal) return { type: 'refused', reason: err.message };
    throw err;
  }
}

/** `NAME=…` or `NAME+=…` with an unquoted name: an assignment when it comes before the program. */
export function isAssignment(w: Word): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(leadingBareText(w));
}

class Parser {
  private pos = 0;

  constructor(private readonly tokens: Token[]) {}

  expectEnd(): void {
    if (this.pos < this.tokens.length) refuse(`a misplaced ${describe(this.tokens[this.pos]!)}`);
  }

  /** Commands separated by `;`, `&` or newlines, up to `)`, the end, or a reserved word in `stops`. */
  list(stops: ReadonlySet<string>): ShellList {
    const items: AndOr[] = [];
    for (;;) {
      this.skipNewlines();
      const t = this.tokens[this.pos];
      if (!t || (t.type === 'op' && t.op === ')') || this.atWord(stops)) return { items };
      const item = this.andOr();
      items.push(item);
      const sep = this.tokens[this.pos];
      if (sep?.type !== 'op' || (sep.op !== ';' && sep.op !== '&' && sep.op !== '\n')) return { items };
      item.background = sep.op === '&';
      this.pos++;
    }
  }

  private nonEmptyList(stops: ReadonlySet<string>, where: string): ShellList {
    const list = this.list(stops);
    if (list.items.length === 0) refuse(`an empty ${where}`);
    return list;
  }

  private andOr(): AndOr {
    const pipelines = [this.pipeline()];
    while (this.atOp('&&') || this.atOp('||')) {
      this.pos++;
      this.skipNewlines();
      pipelines.push(this.pipeline());
    }
    return { pipelines, background: false };
  }

  private pipeline(): Pipeline {
    for (;;) {
      if (this.atWord(['!'])) this.pos++;
      else if (this.atWord(['time'])) {
        this.pos++;
        if (this.atWord(['-p'])) this.pos++;
      } else break;
    }
    const commands = [this.command()];
    while (this.atOp('|') || this.atOp('|&')) {
      this.pos++;
      this.skipNewlines();
      commands.push(this.command());
    }
    return { commands };
  }

  private command(): ShellCommand {
    const t = this.tokens[this.pos];
    if (t?.type === 'op' && t.op === '(') {
      this.pos++;
      const body = this.nonEmptyList(new Set(), 'subshell');
      this.expectOp(')');
      return this.compound('subshell', [body]);
    }
    if (t?.type === 'word') {
      const keyword = [...REFUSED_KEYWORDS.keys()].find((k) => isBare(t.word, k));
      if (keyword) refuse(REFUSED_KEYWORDS.get(keyword)!);
      if (this.atWord(MISPLACED)) refuse(`a misplaced \`${leadingBareText(t.word)}\``);
      if (isBare(t.word, '{')) return this.group();
      if (isBare(t.word, 'if')) return this.ifCommand();
      if (isBare(t.word, 'while') || isBare(t.word, 'until')) return this.loop(isBare(t.word, 'while') ? 'while' : 'until');
      if (isBare(t.word, 'for')) return this.forLoop();
    }
    return this.simple();
  }

  private simple(): SimpleCommand {
    const cmd: SimpleCommand = { type: 'simple', assignments: [], words: [], redirects: [] };
    for (let t = this.tokens[this.pos]; t && t.type !== 'op'; t = this.tokens[++this.pos]) {
      if (t.type === 'redirect') cmd.redirects.push(t.redirect);
      else if (cmd.words.length === 0 && isAssignment(t.word)) cmd.assignments.push(t.word);
      else if (cmd.words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*\[/.test(leadingBareText(t.word)) && hasEquals(t.word))
        refuse('an array subscript assignment');
      else cmd.words.push(t.word);
    }
    if (cmd.words.length + cmd.assignments.length + cmd.redirects.length === 0) {
      const t = this.tokens[this.pos];
      refuse(t ? `a misplaced ${describe(t)}` : 'an incomplete command');
    }
    if (this.atOp('(')) refuse('a function definition or a misplaced (');
    return cmd;
  }

  private group(): CompoundCommand {
    this.pos++;
    const body = this.nonEmptyList(new Set(['}']), '{ } group');
    this.expectWord('}');
    return this.compound('group', [body]);
  }

  private ifCommand(): CompoundCommand {
    this.pos++;
    const lists = [this.nonEmptyList(new Set(['then']), 'if condition')];
    this.expectWord('then');
    lists.push(this.nonEmptyList(new Set(['elif', 'else', 'fi']), 'then branch'));
    while (this.atWord(['elif'])) {
      this.pos++;
      lists.push(this.nonEmptyList(new Set(['then']), 'elif condition'));
      this.expectWord('then');
      lists.push(this.nonEmptyList(new Set(['elif', 'else', 'fi']), 'then branch'));
    }
    if (this.atWord(['else'])) {
      this.pos++;
      lists.push(this.nonEmptyList(new Set(['fi']), 'else branch'));
    }
    this.expectWord('fi');
    return this.compound('if', lists);
  }

  private loop(kind: 'while' | 'until'): CompoundCommand {
    this.pos++;
    const condition = this.nonEmptyList(new Set(['do']), `${kind} condition`);
    this.expectWord('do');
    const body = this.nonEmptyList(new Set(['done']), 'loop body');
    this.expectWord('done');
    return this.compound(kind, [condition, body]);
  }

  private forLoop(): CompoundCommand {
    this.pos++;
    const name = this.tokens[this.pos];
    if (name?.type !== 'word' || !NAME.test(leadingBareText(name.word)) || name.word.parts.length !== 1)
      refuse('a for loop without a plain name');
    this.pos++;
    this.skipNewlines();
    const words: Word[] = [];
    if (this.atWord(['in'])) {
      for (this.pos++; this.tokens[this.pos]?.type === 'word'; this.pos++) words.push((this.tokens[this.pos] as { word: Word }).word);
      if (!this.atOp(';') && !this.atOp('\n')) refuse('a for loop word list not ended by ; or a newline');
      this.pos++;
    } else if (this.atOp(';')) this.pos++;
    this.skipNewlines();
    this.expectWord('do');
    const body = this.nonEmptyList(new Set(['done']), 'loop body');
    this.expectWord('done');
    return { ...this.compound('for', [body]), words };
  }

  private compound(kind: CompoundCommand['kind'], lists: ShellList[]): CompoundCommand {
    const redirects: Redirect[] = [];
    for (let t = this.tokens[this.pos]; t?.type === 'redirect'; t = this.tokens[++this.pos]) redirects.push(t.redirect);
    if (this.tokens[this.pos]?.type === 'word') refuse(`a word after a ${kind} command`);
    return { type: 'compound', kind, lists, words: [], redirects };
  }

  private skipNewlines(): void {
    while (this.atOp('\n')) this.pos++;
  }

  private atOp(op: string): boolean {
    const t = this.tokens[this.pos];
    return t?.type === 'op' && t.op === op;
  }

  private atWord(words: Iterable<string>): boolean {
    const t = this.tokens[this.pos];
    if (t?.type !== 'word') return false;
    for (const w of words) if (isBare(t.word, w)) return true;
    return false;
  }

  private expectOp(op: string): void {
    if (!this.atOp(op)) refuse(`a missing ${op}`);
    this.pos++;
  }

  private expectWord(word: string): void {
    if (!this.atWord([word])) refuse(`a missing \`${word}\``);
    this.pos++;
  }
}

function hasEquals(w: Word): boolean {
  return w.parts.some((p) => p.type === 'text' && p.text.includes('='));
}

function describe(t: Token): string {
  if (t.type === 'op') return t.op === '\n' ? 'newline' : `\`${t.op}\``;
  if (t.type === 'redirect') return `redirection ${t.redirect.op}`;
  return `\`${leadingBareText(t.word) || 'word'}\``;
}
