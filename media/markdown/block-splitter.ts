// Finds the finished blocks of a streamed markdown reply with marked's own lexer, so the reply
// renders block by block exactly as it renders whole. A top-level block is finished when no text
// appended later can change it:
//  - another block has begun after it on a complete line (the lexer has decided where it ends:
//    a list or a quote that more lines would continue, lazy lines, a setext underline, all
//    belong to the last block), or
//  - it is the last block and ends itself (a closed fence, a heading, a rule) or a blank line
//    has ended it (paragraph, table, quote, definition). Lists and indented code go on across
//    blank lines, so they wait for the next block.
// Two things look further ahead, so they hold a block open: marked lets a definition's title
// span lines, even blank ones (`[a]: /u` then a line opening with a quote), and raw HTML that
// leaves an element open would swallow the blocks after it (the caller tells, see
// `leavesHtmlOpen`). Definitions found later re-render earlier blocks through the caller.
//
// Only complete lines are lexed for this, once per call to `split` (once per frame), and not at
// all while an open fence receives lines that cannot close it: the cost is the open block's
// size, never the reply's.
import { Lexer, type Links, type MarkedOptions, type Token } from 'marked';
import { markdownStats } from './stats.js';
import { addDefinitions, type KeptRun, inlineRunsOf } from './token-walk.js';

/** A finished run of top-level tokens, lexed down to inline tokens. */
export interface FinishedBlock {
  readonly text: string;
  readonly tokens: Token[];
  /** The inline runs inside `tokens`: lexed again when a definition of a label they use arrives. */
  readonly inline: KeptRun[];
}

export interface SplitterOptions {
  /** The options of the Marked instance that renders the blocks (gfm and the like). */
  readonly marked: MarkedOptions;
  /** True when these finished tokens leave an HTML element open that the blocks after would nest in. */
  readonly leavesHtmlOpen?: (tokens: Token[]) => boolean;
}

/**
 * A links table that keeps nothing. Lexing blocks with it, marked keeps every definition as a
 * token (with a real table it drops repeats of a known label), so the tokens' raw texts tile
 * the input and give each block's offset.
 */
const FORGETFUL: Links = new Proxy(Object.create(null) as Links, { set: () => true });

/** A line that might close an open fence (a superset of marked's rule, to decide when to lex). */
const FENCE_CLOSER = /^[ \t]*(?:`{3}|~{3})/m;
const FENCE_OPENER = /^ {0,3}(`{3,}|~{3,})/;
/** Text that may become a definition whose title is still open: `[a]: url` then a quote or paren. */
const OPEN_TITLE = / {0,3}\[(?:\\[\s\S]|[^[\]\\])+\]: *(?:\n[ \t]*)?(?:<[^\n>]*>|[^<\s]\S*)(?: +(?:\n[ \t]*)?| *\n[ \t]*)["'(]/y;

export class BlockSplitter {
  private open = '';
  private heldReturn = false;
  /** Length of `open` already split: text past it holds new complete lines, or none yet. */
  private splitTo = 0;
  /** The last open block is a fence still streaming: new lines need a lex only if one may close it. */
  private fenceOpen = false;
  /** ...and the open text is that fence alone. */
  private fenceAlone = false;
  private readonly known: Links = Object.create(null);
  private fresh: string[] = [];

  constructor(private readonly options: SplitterOptions) {}

  /** The open (unfinished) text. */
  get openText(): string {
    return this.open;
  }

  /** True when the open text is a code fence still streaming. */
  get inFence(): boolean {
    return this.fenceAlone;
  }

  /** Reference definitions found in finished blocks, by label. */
  get links(): Links {
    return this.known;
  }

  /** Labels defined since the last call: blocks that mention them render differently now. */
  takeNewDefinitions(): string[] {
    const labels = this.fresh;
    this.fresh = [];
    return labels;
  }

  /** Adds streamed text. O(chunk): the lexing waits for `split`. */
  push(chunk: string): void {
    let text = this.heldReturn ? `\r${chunk}` : chunk;
    this.heldReturn = text.endsWith('\r');
    if (this.heldReturn) text = text.slice(0, -1);
    this.open += text.replace(/\r\n?/g, '\n');
  }

  /** The blocks finished since the last call, in order. */
  split(): FinishedBlock[] {
    const complete = this.open.lastIndexOf('\n') + 1;
    if (complete <= this.splitTo) return [];
    const added = this.open.slice(this.splitTo, complete);
    this.splitTo = complete;
    if (this.fenceOpen && !FENCE_CLOSER.test(added)) return [];
    return this.finish(this.open.slice(0, complete), false);
  }

  /** Ends the stream: everything open is finished. */
  end(): FinishedBlock[] {
    if (this.heldReturn) this.open += '\n';
    const blocks = this.finish(this.open, true);
    this.open = '';
    this.splitTo = 0;
    this.fenceOpen = false;
    this.fenceAlone = false;
    this.heldReturn = false;
    return blocks;
  }

  /** Re-lexes a finished block's inline runs with the definitions known now. */
  relink(block: FinishedBlock): void {
    const lexer = this.lexer(this.known);
    for (const run of block.inline) {
      run.tokens.length = run.keep;
      lexer.state.inRawBlock = false;
      lexer.inlineTokens(run.src, run.tokens);
    }
  }

  private lexer(links: Links): Lexer {
    const lexer = new Lexer(this.options.marked);
    lexer.tokens.links = links;
    return lexer;
  }

  /** Lexes `text` (the open text's complete lines, or all of it at the end) and cuts off what is finished. */
  private finish(text: string, all: boolean): FinishedBlock[] {
    markdownStats.lexedChars += text.length;
    const lexer = this.lexer(FORGETFUL);
    const tokens = lexer.blockTokens(text, []);
    const tiles = tokens.reduce((n, t) => n + t.raw.length, 0) === text.length;
    if (!tiles && !all) return []; // never seen: then wait for the end, which takes everything
    const count = all ? tokens.length : this.finishedCount(tokens, text);
    const done = tokens.slice(0, count);
    const links: Links = Object.assign(Object.create(null), this.known);
    const added = addDefinitions(done, links);
    lexer.tokens.links = links;
    const inline = inlineRunsOf(done, lexer.inlineQueue).map((run) => ({ ...run, keep: run.tokens.length }));
    for (const run of inline) {
      lexer.state.inRawBlock = false;
      lexer.inlineTokens(run.src, run.tokens);
    }
    const blocks = this.group(done, inline, all);
    Object.assign(this.known, links);
    this.fresh.push(...added);
    const used = blocks.reduce((n, b) => n + b.text.length, 0);
    this.open = this.open.slice(used);
    this.splitTo = Math.max(0, this.splitTo - used);
    const last = tokens.findLastIndex((t) => t.type !== 'space');
    this.fenceOpen = !all && isOpenFence(tokens[last]);
    this.fenceAlone = this.fenceOpen && used === tokens.slice(0, last).reduce((n, t) => n + t.raw.length, 0);
    return blocks;
  }

  /** How many leading tokens no later text can change. */
  private finishedCount(tokens: Token[], text: string): number {
    let last = tokens.length - 1;
    while (last >= 0 && tokens[last]!.type === 'space') last--;
    if (last < 0) return 0;
    let start = text.length - tokens.slice(last).reduce((n, t) => n + t.raw.length, 0);
    let count = endsItself(tokens[last]!, text.slice(start + tokens[last]!.raw.length)) ? tokens.length : last;
    start = 0;
    for (let i = 0; i < count; i++) {
      if (mayOpenTitle(tokens[i]!, text, start)) count = i;
      start += tokens[i]!.raw.length;
    }
    return count;
  }

  /**
   * Groups finished tokens into blocks: a block closes after a token when its HTML leaves no
   * element open; blank lines ride with the block before them. A group still open stays in the
   * open text (unless the stream has ended).
   */
  private group(tokens: Token[], inline: KeptRun[], all: boolean): FinishedBlock[] {
    const blocks: FinishedBlock[] = [];
    let group: Token[] = [];
    const close = (): void => {
      blocks.push(block(group, inline));
      group = [];
    };
    for (const token of tokens) {
      if (token.type === 'space' && group.length === 0 && blocks.length > 0) {
        blocks.push(block([...blocks.pop()!.tokens, token], inline));
        continue;
      }
      group.push(token);
      if (token.type !== 'space' && !this.options.leavesHtmlOpen?.(group)) close();
    }
    if (group.length > 0 && all) close();
    return blocks;
  }
}

function block(tokens: Token[], inline: KeptRun[]): FinishedBlock {
  return { text: tokens.map((t) => t.raw).join(''), tokens, inline: inlineRunsOf(tokens, inline) };
}

/** The last block ends itself, or a blank line after it (`rest`) has ended it. */
function endsItself(token: Token, rest: string): boolean {
  switch (token.type) {
    case 'heading':
    case 'hr':
      return true;
    case 'code':
      return isClosedFence(token);
    case 'paragraph':
    case 'table':
    case 'blockquote':
    case 'def':
      return /^[ \t]*\n/.test(token.raw.endsWith('\n') ? rest : rest.slice(1));
    default:
      return false;
  }
}

function isClosedFence(token: Token): boolean {
  if (token.type !== 'code' || token.codeBlockStyle === 'indented') return false;
  const lines = token.raw.replace(/\n+$/, '').split('\n');
  const opener = FENCE_OPENER.exec(lines[0] ?? '')?.[1];
  return opener !== undefined && lines.length > 1 && new RegExp(`^ {0,3}${opener}[~\`]* *$`).test(lines.at(-1)!);
}

function isOpenFence(token: Token | undefined): boolean {
  return token?.type === 'code' && token.codeBlockStyle !== 'indented' && !isClosedFence(token);
}

/**
 * A definition without a title, or text that may yet become one (`[a]: url` then a quote or
 * paren that nothing has closed yet): marked lets such a title run on over later lines.
 */
function mayOpenTitle(token: Token, text: string, start: number): boolean {
  if (token.type === 'space' || (token.type === 'def' && token.title)) return false;
  OPEN_TITLE.lastIndex = start;
  return OPEN_TITLE.test(text) && !titleDecided(text, OPEN_TITLE.lastIndex);
}

/** Whether the text after a title's opening character (at `from - 1`) already decides where it ends. */
function titleDecided(text: string, from: number): boolean {
  const opener = text[from - 1];
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (opener === '"') {
      if (ch === '\\') i++;
      else if (ch === '"') return true;
    } else if (opener === '(') {
      if (ch === '(' || ch === ')') return true;
    } else if (ch === "'" || (ch === '\n' && text[i + 1] === '\n')) return true;
  }
  return false;
}
