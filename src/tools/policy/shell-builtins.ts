// Bash builtins that only read or print, in the forms bash gives no hidden meaning: `cd DIR`
// (tracked), echo, printf (never -v), test and [ (never -v or -R, which evaluate subscripts),
// set with a few error-handling flags, type, exit. `set` alone, `export -p`, `declare -p` print
// the environment and are not here.
import { readPath } from './command-class.js';
import { fixedOperands, notModelled, notReadOnly, options, parseArgs, POSIX, textOperands, wordPath, wordText } from './program-args.js';
import type { ProgramResult, ProgramSpec } from './read-only-programs.js';
import { hasGlob, startsWithTilde, staticValue, type Word } from './shell-word.js';

const TEST_OPERATORS = new Set(
  '! ( ) -a -o = == != < > -eq -ne -lt -le -gt -ge -nt -ot -ef -e -f -d -r -w -x -s -L -h -b -c -p -S -g -u -k -O -G -N -t -z -n'.split(
    ' ',
  ),
);
const SET_OPTION_NAMES = new Set(['pipefail', 'errexit', 'nounset']);

function cd(args: readonly Word[]): ProgramResult {
  let rest = args;
  while (rest.length && ['-L', '--'].includes(staticValue(rest[0]!) ?? '')) rest = rest.slice(1);
  const [dir, ...extra] = rest;
  if (!dir) notReadOnly('cd with no folder goes to the home folder');
  if (extra.length) notReadOnly('cd takes one folder');
  if (startsWithTilde(dir)) notReadOnly('cd ~ goes to a home folder');
  if (hasGlob(dir)) notReadOnly('cd to a glob pattern');
  const target = wordText(dir);
  if (target === '' || target === '-' || target.startsWith('-')) notReadOnly(`cd ${target || "''"} does not name a folder we can follow`);
  const path = wordPath(dir).path;
  return { paths: [readPath(path)], cd: path };
}

function echo(args: readonly Word[]): ProgramResult {
  let i = 0;
  while (i < args.length && /^-[neE]+$/.test(staticValue(args[i]!) ?? '')) i++;
  return { paths: textOperands(args.slice(i)) };
}

function printf(args: readonly Word[]): ProgramResult {
  const first = args[0] ? staticValue(args[0]) : undefined;
  if (first?.startsWith('-v')) notModelled('printf -v assigns to a variable, and a subscript there runs commands');
  const rest = first === '--' ? args.slice(1) : args;
  if (rest[0] && wordText(rest[0]).startsWith('-')) notReadOnly('printf with an option');
  return { paths: textOperands(rest) };
}

/** Every operand that is not an operator may name a file (-f x, x -nt y): all are checked. */
function testExpression(args: readonly Word[]): ProgramResult {
  const paths = [];
  for (const w of args) {
    if (hasGlob(w)) notReadOnly('a glob in a test expression expands into several arguments');
    const text = wordText(w);
    if (text === '-v' || text === '-R') notModelled(`test ${text} evaluates a variable name, and a subscript there runs commands`);
    if (!TEST_OPERATORS.has(text)) paths.push(wordPath(w));
  }
  return { paths };
}

function bracket(args: readonly Word[]): ProgramResult {
  const last = args[args.length - 1];
  if (!last || staticValue(last) !== ']') notReadOnly('[ without a closing ]');
  return testExpression(args.slice(0, -1));
}

/** `set -e`, `set -u`, `set -o pipefail` and their combinations; nothing that changes parsing or prints. */
function set(args: readonly Word[]): ProgramResult {
  if (args.length === 0) notReadOnly('set with no arguments prints every variable');
  for (let i = 0; i < args.length; i++) {
    const text = wordText(args[i]!);
    if (/^[-+][eu]+$/.test(text)) continue;
    if (!/^[-+][eu]*o$/.test(text)) notReadOnly(`set ${text} changes how the shell runs later commands`);
    const name = args[i + 1] ? staticValue(args[i + 1]!) : undefined;
    if (!name || !SET_OPTION_NAMES.has(name)) notReadOnly(`set -o ${name ?? ''} is not one of pipefail, errexit, nounset`);
    i++;
  }
  return { paths: [] };
}

const TYPE_OPTIONS = options('-a', '-f', '-p', '-P', '-t');

function type(args: readonly Word[]): ProgramResult {
  fixedOperands(parseArgs(args, TYPE_OPTIONS, POSIX).operands);
  return { paths: [] };
}

const PWD_OPTIONS = options('-L', '-P');

function pwd(args: readonly Word[]): ProgramResult {
  if (parseArgs(args, PWD_OPTIONS, POSIX).operands.length) notReadOnly('pwd takes no operands');
  return { paths: [] };
}

function exit(args: readonly Word[]): ProgramResult {
  const codes = fixedOperands(args);
  if (codes.length > 1 || (codes[0] !== undefined && !/^\d+$/.test(codes[0]))) notReadOnly('exit takes one number');
  return { paths: [] };
}

const ignoresArguments = (args: readonly Word[]): ProgramResult => ({ paths: textOperands(args) });

export const BUILTIN_PROGRAMS: Record<string, ProgramSpec> = {
  cd: { judge: cd, builtinOnly: true },
  pwd: { judge: pwd },
  echo: { judge: echo },
  printf: { judge: printf },
  test: { judge: testExpression },
  '[': { judge: bracket },
  true: { judge: ignoresArguments },
  false: { judge: ignoresArguments },
  ':': { judge: ignoresArguments, builtinOnly: true },
  set: { judge: set, builtinOnly: true },
  type: { judge: type, builtinOnly: true },
  exit: { judge: exit, builtinOnly: true },
};
