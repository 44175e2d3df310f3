// Splits a command line into simple commands (words and redirections), across `;`, `&&`,
// `||`, `|`, `&`, subshells, simple if/while/for bodies and command substitutions, so every
// part can be judged. Anything we cannot follow is reported as unparseable.
import { lex, type Word } from './shell-lexer.js';

export interface Redirect {
  op: string;
  fd: string;
  target: Word | undefined;
}

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
  /** Receives the previous command's output through a pipe. */
  pipedInto: boolean;
}

export type ParsedCommandLine = { type: 'ok'; commands: SimpleCommand[] } | { type: 'unparseable'; reason: string };

const MAX_DEPTH = 8;
/** Words that only shape control flow; the commands around them are what runs. */
const SKIPPED_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}']);
const UNSUPPORTED_KEYWORDS = new Set(['case', 'esac', 'function', 'select', 'coproc']);

export function parseCommandLine(src: string, depth = 0): ParsedCommandLine {
  if (depth > MAX_DEPTH) return { type: 'unparseable', reason: 'command substitutions nested too deeply' };
  const lexed = lex(src);
  if (lexed.unsupported) return { type: 'unparseable', reason: `uses ${lexed.unsupported}` };
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [], pipedInto: false };
  const flush = (pipedNext: boolean): string | undefined => {
    const error = finish(current, commands);
    current = { words: [], redirects: [], pipedInto: pipedNext };
    return error;
  };
  for (const t of lexed.tokens) {
    let error: string | undefined;
    if (t.type === 'word') current.words.push(t.word);
    else if (t.type === 'redirect') current.redirects.push({ op: t.op, fd: t.fd, target: t.target });
    else if (t.value === '(' && current.words.length > 0) error = 'function definitions';
    else error = flush(t.value === '|' || t.value === '|&');
    if (error) return { type: 'unparseable', reason: `uses ${error}` };
  }
  const error = flush(false);
  if (error) return { type: 'unparseable', reason: `uses ${error}` };
  for (const sub of lexed.substitutions) {
    const inner = parseCommandLine(sub, depth + 1);
    if (inner.type === 'unparseable') return inner;
    commands.push(...inner.commands);
  }
  return { type: 'ok', commands };
}

function finish(cmd: SimpleCommand, out: SimpleCommand[]): string | undefined {
  while (cmd.words.length && !cmd.words[0]!.dynamic && SKIPPED_KEYWORDS.has(cmd.words[0]!.value)) cmd.words.shift();
  const first = cmd.words[0];
  if (first && !first.dynamic && UNSUPPORTED_KEYWORDS.has(first.value)) return `\`${first.value}\` statements`;
  // `for x in a b` is a loop header, not a command; its body follows as its own commands.
  if (first && !first.dynamic && first.value === 'for') return undefined;
  if (cmd.words.length || cmd.redirects.length) out.push(cmd);
  return undefined;
}
