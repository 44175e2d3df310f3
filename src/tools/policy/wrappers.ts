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
  /**
   * Why the wrapper runs the inner command unasked only inside the test-run sandbox (it is a
   * test run at least): corepack may download the package manager, poetry, pipenv and uv run it
   * in an environment they keep outside the workspace.
   */
  sandboxOnly?: string;
}

/** undefined: not a form this wrapper wraps (`poetry add`): the program is judged by its other rules. */
type Wrapper = (args: readonly Word[]) => Unwrapped | Judgement | undefined;

const exec = (inner: readonly Word[], builtins = false): Unwrapped => ({ type: 'unwrapped', inner, builtins });

function withOptions(table: OptionTable, leading = 0): (args: readonly Word[]) => Unwrapped {
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

/** `corepack pnpm|yarn|npm …`: the package manager the project pins, from corepack's cache. */
function corepack(args: readonly Word[]): Unwrapped | undefined {
  const pm = args[0] ? staticValue(args[0]) : undefined;
  if (!pm || !/^(?:pnpm|yarn|npm)(?:@[\w.+-]+)?$/.test(pm)) return undefined;
  const inner: Word[] = [{ parts: [{ type: 'text', text: pm.replace(/@.*/, ''), quoted: true }] }, ...args.slice(1)];
  return { ...exec(inner), sandboxOnly: 'corepack may download the package manager the project pins' };
}

/** `poetry run`, `pipenv run`: the project's environment, which they keep outside the workspace. */
function projectEnvironment(tool: string): Wrapper {
  return (args) => {
    if (!args[0] || staticValue(args[0]) !== 'run') return undefined;
    return { ...exec(args.slice(1)), sandboxOnly: `${tool} run uses the environment ${tool} keeps outside the workspace` };
  };
}

const UV_RUN = options('--offline, --no-sync, --frozen, --locked, --no-project, -q --quiet');

/** `uv run --offline …`: the workspace's environment as installed (without --offline uv syncs it from the network). */
function uv(args: readonly Word[]): Unwrapped | Judgement | undefined {
  if (!args[0] || staticValue(args[0]) !== 'run') return undefined;
  const parsed = parseArgs(args.slice(1), UV_RUN, POSIX);
  if (!parsed.has('--offline'))
    return judgement('network', 'uv run without --offline may download packages (uv run --offline runs unasked in the sandbox)', {
      programs: ['uv'],
    });
  return { ...exec(parsed.operands), sandboxOnly: 'uv run uses the environment and interpreters uv keeps outside the workspace' };
}

const WRAPPERS: Record<string, Wrapper> = {
  corepack,
  poetry: projectEnvironment('poetry'),
  pipenv: projectEnvironment('pipenv'),
  uv,
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
    if (!result) return undefined;
    if (result.type === 'unwrapped' && result.inner.length === 0 && name !== 'exec') notReadOnly(`${name} with no command`);
    return result;
  } catch (err) {
    if (!(err instanceof NotReadOnly)) throw err;
    return judgement(err.type, `${name}: ${err.message}`, { programs: [name] });
  }
}
