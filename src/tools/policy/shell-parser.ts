// Builds the command structure bash would: lists, and-or chains, pipelines, simple commands
// (assignments, words, redirections) and the compound commands we model — subshells, `{ … }`,
// if, while, until and for — so each part can be judged with the directory it runs in.
// `case`, `select`, `function`, `coproc`, `[[ … ]]` and anything bash would reject are refused.
import { arrayStream, ShellRefusal, tokenStream, type TokenStream } from './shell-lexer.js';
import { isBare, leadingBareText, type Redirect, type Token, type Word } from './shell-word.js';

export interface ShellList {
  items: AndOr[];
}

interface AndOr {
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

export type ParseResult = { type: 'ok'; list: ShellList } | { type: 'refused'; reason: string };

const REFUSED_KEYWORDS = new Map([
  ['case', '`case` statements'],
  ['select', '`select` loops'],
  ['function', 'function definitions'],
  ['coproc', 'coprocesses (coproc)'],
  ['[[', '[[ … ]] tests (arithmetic and pattern contexts)'],
]);
const MISPLACED = new Set(['then', 'elif', 'else', 'fi', 'do', 'done', '}', 'esac']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Compound commands nested deeper than this are refused (and never overflow the stack). */
const MAX_NESTING = 64;

function refuse(what: string): never {
  throw new ShellRefusal(what);
}

/**
 * Parses a whole command line, handing each top-level pipeline to `onPipeline` as soon as it is
 * read, so a long line (even one long `&&` chain) is never held whole. Whether a top-level chain
 * ends with `&` is not waited for: its pipelines are handed over as if it ran in the foreground.
 * A refusal anywhere, even after pipelines were handed over, wins.
 */
export function parseLine(
  src: string,
  onPipeline: (pipeline: Pipeline) => void,
): { type: 'ok'; pipelines: number } | { type: 'refused'; reason: string } {
  return refusable(() => {
    const p = new Parser(tokenStream(src));
    let pipelines = 0;
    p.list(new Set(), (pipeline) => {
      pipelines++;
      onPipeline(pipeline);
    });
    p.expectEnd();
    return { type: 'ok', pipelines };
  });
}

/** Parses a token list (a substitution's body). */
export function parseTokens(tokens: readonly Token[]): ParseResult {
  return refusable(() => {
    const p = new Parser(arrayStream(tokens));
    const list = p.list(new Set());
    p.expectEnd();
    return { type: 'ok', list };
  });
}

function refusable<T>(parse: () => T): T | { type: 'refused'; reason: string } {
  try {
    return parse();
  } catch (err) {
    if (err instanceof ShellRefusal) return { type: 'refused', reason: err.message };
    throw err;
  }
}

/** `NAME=…` or `NAME+=…` with an unquoted name: an assignment when it comes before the program. */
function isAssignment(w: Word): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(leadingBareText(w));
}

class Parser {
  private nesting = 0;

  constructor(private readonly tokens: TokenStream) {}

  expectEnd(): void {
    const t = this.tokens.peek();
    if (t) refuse(`a misplaced ${describe(t)}`);
  }

  private skip(): void {
    this.tokens.next();
  }

  /** Commands separated by `;`, `&` or newlines, up to `)`, the end, or a reserved word in `stops`. */
  /** With `onPipeline`, each pipeline is handed over as soon as it is read, and not kept. */
  list(stops: ReadonlySet<string>, onPipeline?: (pipeline: Pipeline) => void): ShellList {
    const items: AndOr[] = [];
    for (;;) {
      this.skipNewlines();
      const t = this.tokens.peek();
      if (!t || (t.type === 'op' && t.op === ')') || this.atWord(stops)) return { items };
      const item = this.andOr(onPipeline);
      const sep = this.tokens.peek();
      const separated = sep?.type === 'op' && (sep.op === ';' || sep.op === '&' || sep.op === '\n');
      if (separated) {
        item.background = sep.op === '&';
        this.skip();
      }
      if (!onPipeline) items.push(item);
      if (!separated) return { items };
    }
  }

  private nonEmptyList(stops: ReadonlySet<string>, where: string): ShellList {
    const list = this.list(stops);
    if (list.items.length === 0) refuse(`an empty ${where}`);
    return list;
  }

  private andOr(onPipeline?: (pipeline: Pipeline) => void): AndOr {
    const pipelines: Pipeline[] = [];
    const take = (p: Pipeline) => (onPipeline ? onPipeline(p) : pipelines.push(p));
    take(this.pipeline());
    while (this.atOp('&&') || this.atOp('||')) {
      this.skip();
      this.skipNewlines();
      take(this.pipeline());
    }
    return { pipelines, background: false };
  }

  private pipeline(): Pipeline {
    for (;;) {
      if (this.atWord(['!'])) this.skip();
      else if (this.atWord(['time'])) {
        this.skip();
        if (this.atWord(['-p'])) this.skip();
      } else break;
    }
    const commands = [this.command()];
    while (this.atOp('|') || this.atOp('|&')) {
      this.skip();
      this.skipNewlines();
      commands.push(this.command());
    }
    return { commands };
  }

  private command(): ShellCommand {
    if (++this.nesting > MAX_NESTING) refuse('commands nested too deeply');
    try {
      return this.commandAt(this.tokens.peek());
    } finally {
      this.nesting--;
    }
  }

  private commandAt(t: Token | undefined): ShellCommand {
    if (t?.type === 'op' && t.op === '(') {
      this.skip();
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
    for (let t = this.tokens.peek(); t && t.type !== 'op'; this.skip(), t = this.tokens.peek()) {
      if (t.type === 'redirect') cmd.redirects.push(t.redirect);
      else if (cmd.words.length === 0 && isAssignment(t.word)) cmd.assignments.push(t.word);
      else if (cmd.words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*\[/.test(leadingBareText(t.word)) && hasEquals(t.word))
        refuse('an array subscript assignment');
      else cmd.words.push(t.word);
    }
    if (cmd.words.length + cmd.assignments.length + cmd.redirects.length === 0) {
      const t = this.tokens.peek();
      refuse(t ? `a misplaced ${describe(t)}` : 'an incomplete command');
    }
    if (this.atOp('(')) refuse('a function definition or a misplaced (');
    return cmd;
  }

  private group(): CompoundCommand {
    this.skip();
    const body = this.nonEmptyList(new Set(['}']), '{ } group');
    this.expectWord('}');
    return this.compound('group', [body]);
  }

  private ifCommand(): CompoundCommand {
    this.skip();
    const lists = [this.nonEmptyList(new Set(['then']), 'if condition')];
    this.expectWord('then');
    lists.push(this.nonEmptyList(new Set(['elif', 'else', 'fi']), 'then branch'));
    while (this.atWord(['elif'])) {
      this.skip();
      lists.push(this.nonEmptyList(new Set(['then']), 'elif condition'));
      this.expectWord('then');
      lists.push(this.nonEmptyList(new Set(['elif', 'else', 'fi']), 'then branch'));
    }
    if (this.atWord(['else'])) {
      this.skip();
      lists.push(this.nonEmptyList(new Set(['fi']), 'else branch'));
    }
    this.expectWord('fi');
    return this.compound('if', lists);
  }

  private loop(kind: 'while' | 'until'): CompoundCommand {
    this.skip();
    const condition = this.nonEmptyList(new Set(['do']), `${kind} condition`);
    this.expectWord('do');
    const body = this.nonEmptyList(new Set(['done']), 'loop body');
    this.expectWord('done');
    return this.compound(kind, [condition, body]);
  }

  private forLoop(): CompoundCommand {
    this.skip();
    const name = this.tokens.peek();
    if (name?.type !== 'word' || !NAME.test(leadingBareText(name.word)) || name.word.parts.length !== 1)
      refuse('a for loop without a plain name');
    this.skip();
    this.skipNewlines();
    const words: Word[] = [];
    if (this.atWord(['in'])) {
      this.skip();
      for (let t = this.tokens.peek(); t?.type === 'word'; this.skip(), t = this.tokens.peek()) words.push(t.word);
      if (!this.atOp(';') && !this.atOp('\n')) refuse('a for loop word list not ended by ; or a newline');
      this.skip();
    } else if (this.atOp(';')) this.skip();
    this.skipNewlines();
    this.expectWord('do');
    const body = this.nonEmptyList(new Set(['done']), 'loop body');
    this.expectWord('done');
    return { ...this.compound('for', [body]), words };
  }

  private compound(kind: CompoundCommand['kind'], lists: ShellList[]): CompoundCommand {
    const redirects: Redirect[] = [];
    for (let t = this.tokens.peek(); t?.type === 'redirect'; this.skip(), t = this.tokens.peek()) redirects.push(t.redirect);
    if (this.tokens.peek()?.type === 'word') refuse(`a word after a ${kind} command`);
    return { type: 'compound', kind, lists, words: [], redirects };
  }

  private skipNewlines(): void {
    while (this.atOp('\n')) this.skip();
  }

  private atOp(op: string): boolean {
    const t = this.tokens.peek();
    return t?.type === 'op' && t.op === op;
  }

  private atWord(words: Iterable<string>): boolean {
    const t = this.tokens.peek();
    if (t?.type !== 'word') return false;
    for (const w of words) if (isBare(t.word, w)) return true;
    return false;
  }

  private expectOp(op: string): void {
    if (!this.atOp(op)) refuse(`a missing ${op}`);
    this.skip();
  }

  private expectWord(word: string): void {
    if (!this.atWord([word])) refuse(`a missing \`${word}\``);
    this.skip();
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
