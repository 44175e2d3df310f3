// Programs that run another program: unwrapped only in the forms modelled exactly, so the inner
// command is judged as if written alone. env (-i, -u NAME, safe assignments; never -S, which
// splits a string into a new command line, or -C), nice -n, timeout, stdbuf, ionice -c/-n,
// command (-v/-V only look a name up), exec. xargs (arguments read at run time) and nohup (may
// write nohup.out) are never read-only, but the command they run is judged all the same.
import { unsafeAssignment, splitAssignment } from './assignments.js';
import { type Judgement, judgement, own } from './command-class.js';
import { fixedOperands, NotReadOnly, notReadOnly, options, type OptionTable, parseArgs, POSIX } from './program-args.js';
import { staticValue, type Word } from './shell-word.js';

export interface Unwrapped {
  type: 'unwrapped';
  inner: readonly Word[];
  /** Whether bash builtins can be the inner program (command) or only executables (env, exec…). */
  builtins: boolean;
  /** Why the wrapper itself is never read-only (xargs, nohup); the inner command is still judged. */
  notReadOnly?: string;
}

type Wrapper = (args: readonly Word[]) => Unwrapped | Judgement;

const exec = (inner: readonly Word[], builtins = false): Unwrapped => ({ type: 'unwrapped', inner, builtins });

function withOptions(table: OptionTable, leading = 0): Wrapper {
  return (args) => {
    const operands = parseArgs(args, table, { ...POSIX, numeric: true }).operands;
    fixedOperands(operands.slice(0, leading));
    return exec(operands.slice(leading));
  };
}

/** Enough of xargs' options to find the command it runs (which is still judged: `xargs rm -rf /`). */
const XARGS = options(`
  -0 --null, -a --arg-file =text, -d --delimiter =text, -E =text, -e --eof =?, -I =text, -i --replace =?,
  -L --max-lines =num, -n --max-args =num, -P --max-procs =num, -r --no-run-if-empty, -s --max-chars =num,
  -t --verbose, -x --exit
`);

const ENV = options('-i --ignore-environment', '-u --unset =text');

function env(args: readonly Word[]): Unwrapped | Judgement {
  const operands = parseArgs(args, ENV, POSIX).operands;
  let i = 0;
  for (; i < operands.length; i++) {
    const text = staticValue(operands[i]!);
    if (text === undefined) notReadOnly('env is given a word computed at run time');
    if (!text.includes('=')) break;
    const { name, value } = splitAssignment(text);
    const unsafe = unsafeAssignment(name, value);
    if (unsafe) notReadOnly(unsafe);
  }
  if (i === operands.length) notReadOnly('env with no command prints the environment');
  return exec(operands.slice(i));
}

const COMMAND = options('-v', '-V');

function command(args: readonly Word[]): Unwrapped | Judgement {
  const parsed = parseArgs(args, COMMAND, POSIX);
  if (parsed.has('-v') || parsed.has('-V')) {
    fixedOperands(parsed.operands);
    return judgement('read_only', undefined, { programs: ['command'] });
  }
  return exec(parsed.operands, true);
}

function execWrapper(args: readonly Word[]): Unwrapped | Judgement {
  const first = args[0] ? staticValue(args[0]) : undefined;
  const inner = first === '--' ? args.slice(1) : args;
  if (inner[0] && staticValue(inner[0])?.startsWith('-'))
    notReadOnly('exec with options runs the program under another name or environment');
  return exec(inner);
}

const WRAPPERS: Record<string, Wrapper> = {
  env,
  command,
  exec: execWrapper,
  nice: withOptions(options('-n --adjustment =num')),
  timeout: withOptions(options('-s --signal =text, -k --kill-after =text, --preserve-status, --foreground, -v --verbose'), 1),
  stdbuf: withOptions(options('-i --input =text, -o --output =text, -e --error =text')),
  ionice: withOptions(options('-c --class =text, -n --classdata =num, -t --ignore')),
  xargs: (args) => ({
    ...withOptions(XARGS)(args),
    notReadOnly: 'xargs runs a command with arguments read at run time',
  }),
  nohup: (args) => ({ ...exec(args), notReadOnly: 'nohup may write nohup.out' }),
};

/** The inner command of a wrapper, a judgement of the wrapper itself, or undefined for other programs. */
export function unwrap(name: string, args: readonly Word[]): Unwrapped | Judgement | undefined {
  const wrapper = own(WRAPPERS, name);
  if (!wrapper) return undefined;
  try {
    const result = wrapper(args);
    if (result.type === 'unwrapped' && result.inner.length === 0 && name !== 'exec') notReadOnly(`${name} with no command`);
    return result;
  } catch (err) {
    if (!(err instanceof NotReadOnly)) throw err;
    return judgement(err.type, `${name}: ${err.message}`, { programs: [name] });
  }
}
