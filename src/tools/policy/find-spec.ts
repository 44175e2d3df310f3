// find, read-only: starting points, then an expression made only of tests and printing actions.
// -exec/-execdir/-ok/-okdir run programs, -delete deletes, -fprint*/-fls write files, -L and
// -follow walk through links out of the tree: none is listed, so they ask.
import type { CommandPath } from './command-class.js';
import { notReadOnly, pathOperands, wordPath, wordText } from './program-args.js';
import type { ProgramResult, ProgramSpec } from './read-only-programs.js';
import { hasGlob, startsWithTilde, type Word } from './shell-word.js';

type FindArg = 'none' | 'text' | 'path';

const NO_VALUE =
  '-print -print0 -ls -prune -quit -true -false -not ! -a -and -o -or ( ) , -depth -d -xdev -mount -noleaf -daystart -empty ' +
  '-readable -writable -executable -nouser -nogroup -ignore_readdir_race -noignore_readdir_race -help -version';
const TEXT_VALUE =
  '-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -lname -ilname -type -xtype -size -mtime -mmin ' +
  '-atime -amin -ctime -cmin -used -perm -user -group -uid -gid -links -inum -maxdepth -mindepth -fstype -printf';
const PATH_VALUE = '-newer -anewer -cnewer -samefile';

const PRIMARIES = new Map<string, FindArg>([
  ...NO_VALUE.split(' ').map((p): [string, FindArg] => [p, 'none']),
  ...TEXT_VALUE.split(' ').map((p): [string, FindArg] => [p, 'text']),
  ...PATH_VALUE.split(' ').map((p): [string, FindArg] => [p, 'path']),
]);
const EXPRESSION_START = new Set(['(', ')', '!', ',']);

function judgeFind(args: readonly Word[]): ProgramResult {
  let i = 0;
  while (i < args.length && ['-P', '-H'].includes(wordText(args[i]!))) i++;
  const starts: Word[] = [];
  for (; i < args.length; i++) {
    const text = wordText(args[i]!);
    if (text.startsWith('-') || EXPRESSION_START.has(text)) break;
    starts.push(args[i]!);
  }
  const paths: CommandPath[] = pathOperands(starts);
  while (i < args.length) {
    const w = args[i]!;
    if (hasGlob(w)) notReadOnly('an unquoted pattern in a find expression is expanded by bash first');
    const text = wordText(w);
    const kind = PRIMARIES.get(text) ?? notReadOnly(`find ${text} is not known to be read-only`);
    if (kind === 'none') {
      i++;
      continue;
    }
    // find always takes the next word as the value, even one starting with `-` (-mtime -1).
    const value = args[i + 1] ?? notReadOnly(`find ${text} needs a value`);
    if (hasGlob(value)) notReadOnly(`the value of find ${text} is expanded by bash first`);
    if (startsWithTilde(value) && kind !== 'path') notReadOnly(`the value of find ${text} starts with ~`);
    if (kind === 'path') paths.push(wordPath(value));
    else wordText(value);
    i += 2;
  }
  return { paths };
}

export const FIND: ProgramSpec = { judge: judgeFind };
