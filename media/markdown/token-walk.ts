// Small walks over marked's tokens: the inline runs a block owns (lexed once the block is
// finished, and again when a reference definition arrives later), the definitions it holds, and
// whether it holds raw HTML.
import type { Links, Token, Tokens } from 'marked';

/** One inline run as marked's lexer queues it: source text and the array its tokens fill. */
export interface InlineRun {
  readonly src: string;
  readonly tokens: Token[];
}

/** A run of a finished block, with the tokens that were there before inline lexing (a task's checkbox). */
export interface KeptRun extends InlineRun {
  readonly keep: number;
}

/** The token arrays directly inside `token`: children, list items' blocks, table cells. */
function childArrays(token: Token): Token[][] {
  if (token.type === 'list') return (token as Tokens.List).items.map((item) => item.tokens);
  if (token.type === 'table') {
    const table = token as Tokens.Table;
    return [...table.header, ...table.rows.flat()].map((cell) => cell.tokens);
  }
  return 'tokens' in token && Array.isArray(token.tokens) ? [token.tokens] : [];
}

/** The queued inline runs that belong to `tokens` (the queue may also hold runs of other tokens). */
export function inlineRunsOf<R extends InlineRun>(tokens: Token[], queue: readonly R[]): R[] {
  const byArray = new Map(queue.map((run) => [run.tokens, run]));
  const runs: R[] = [];
  const visit = (list: Token[]): void => {
    const run = byArray.get(list);
    if (run) runs.push(run);
    else for (const token of list) for (const child of childArrays(token)) visit(child);
  };
  visit(tokens);
  return runs;
}

/** Adds the definitions in `tokens` to `links` (the first of a label wins, as in a whole document); returns the new labels. */
export function addDefinitions(tokens: Token[], links: Links): string[] {
  const added: string[] = [];
  const visit = (list: Token[]): void => {
    for (const token of list) {
      if (token.type === 'def') {
        if (!(token.tag in links)) {
          links[token.tag] = { href: token.href, title: token.title };
          added.push(token.tag);
        }
      } else if (token.type === 'blockquote' || token.type === 'list') {
        for (const child of childArrays(token)) visit(child);
      }
    }
  };
  visit(tokens);
  return added;
}

/** True when raw HTML appears anywhere in `tokens`: an HTML block or an inline tag. */
export function holdsRawHtml(tokens: Token[]): boolean {
  return tokens.some((token) => token.type === 'html' || childArrays(token).some(holdsRawHtml));
}
