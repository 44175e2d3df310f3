// Test runners: they run the project's code by design, so they are `test_run` — approved like
// reads under `execute` — but only in forms whose every flag is listed here. A flag that loads
// other code (node --import/--require/--loader, mocha --require, pytest -p, go test -exec,
// custom reporters), writes outside the usual places (--outputFile, -coverprofile), watches
// forever or passes arguments on unseen (`npm test -- …`, `go test -args`) makes it `execute`;
// so do argument files (`@FILE`), globs the runner would expand itself, short-option clusters a
// runner's parser reads its own way, and `tsc --noEmit false`. Each form names its runner, whose
// config search (runner-roots.ts) the policy checks against the folder it starts in.
import { type CommandPath, type Judgement, judgement, own } from './command-class.js';
import {
  fixedOperands,
  GNU,
  NotReadOnly,
  notReadOnly,
  options,
  type OptionTable,
  type ParsedArgs,
  parseArgs,
  pathOperands,
  wordText,
} from './program-args.js';
import { NPX_TASK_RUNNERS, PROJECT_RUNNERS, type ProjectForm } from './project-runners.js';
import { hasGlob, staticValue, type Word } from './shell-word.js';

type Runner = (args: readonly Word[]) => CommandPath[];

const NODE = options(`
  --test, --test-reporter =text, --test-name-pattern =text, --test-skip-pattern =text, --test-only,
  --test-concurrency =num, --test-timeout =num, --test-force-exit, --test-shard =text,
  --experimental-test-coverage, --no-warnings, --enable-source-maps, --experimental-strip-types
`);
const NODE_REPORTERS = new Set(['spec', 'tap', 'dot', 'junit', 'lcov']);

const MOCHA = options(`
  -g --grep =text, -f --fgrep =text, -i --invert, -b --bail, -t --timeout =text, -s --slow =text, --recursive,
  --exit, --forbid-only, --forbid-pending, --retries =num, -R --reporter =text, --full-trace,
  -c --colors --color, -C --no-colors --no-color, --sort, --check-leaks, --inline-diffs, --parallel,
  -j --jobs =num, --dry-run, -A --async-only
`);
const MOCHA_REPORTERS = new Set([
  'spec',
  'dot',
  'tap',
  'list',
  'min',
  'json',
  'json-stream',
  'progress',
  'landing',
  'nyan',
  'doc',
  'markdown',
]);

const JEST = options(`
  -t --testNamePattern =text, --bail =?, --ci, -i --runInBand, --verbose, --silent, --passWithNoTests,
  --no-cache, -w --maxWorkers =text, --testPathPattern =text, --testTimeout =num, --colors,
  --detectOpenHandles, --forceExit, --listTests, --noStackTrace, -e --expand, --json, --logHeapUsage
`);

const VITEST = options(`
  -t --testNamePattern =text, --run, --reporter =text, --bail =num, --passWithNoTests, --silent, --allowOnly,
  --retry =num, --maxConcurrency =num, --no-file-parallelism, --globals
`);
const VITEST_REPORTERS = new Set(['default', 'basic', 'verbose', 'dot', 'json', 'tap', 'tap-flat', 'junit', 'hanging-process']);

const TSC = options(`
  --noEmit, -p --project =path, --pretty, --skipLibCheck, --strict, --noUnusedLocals, --noUnusedParameters,
  --listFiles, --extendedDiagnostics, --diagnostics, --explainFiles
`);

const PYTEST = options(`
  -q --quiet, -v --verbose, -x --exitfirst, --maxfail =num, -k =text, -m =text, --tb =text, -s,
  --capture =text, --lf --last-failed, --ff --failed-first, --nf --new-first, --sw --stepwise, -r =text,
  --no-header, --no-summary, --co --collect-only, --durations =num, --strict-markers, -l --showlocals,
  --color =text, --disable-warnings, --runxfail, --setup-show, --rootdir =path, -p =text
`);

const CARGO = options(`
  --release, -q --quiet, -v --verbose, --lib, --bins, --tests, --doc, --all-targets, --workspace --all,
  -p --package =text, --exclude =text, --no-fail-fast, --all-features, -F --features =text,
  --no-default-features, --test =text, --bin =text, -j --jobs =num, --offline, --locked, --frozen, --no-run,
  --color =text
`);
const CARGO_HARNESS = options(`
  --nocapture, --test-threads =num, --exact, --ignored, --include-ignored, --skip =text, --list, --show-output,
  -q --quiet, --color =text
`);

/** go's flag package: `-name`, `--name`, `-name=value` or `-name value`; no clusters. */
const GO_BOOL = new Set(['v', 'short', 'race', 'failfast', 'cover', 'benchmem', 'json', 'trimpath', 'x']);
const GO_VALUE = new Set([
  'run',
  'count',
  'timeout',
  'covermode',
  'bench',
  'benchtime',
  'p',
  'parallel',
  'cpu',
  'tags',
  'skip',
  'list',
  'shuffle',
  'vet',
]);

/** Which runner a form runs: its config search decides where it may read code from (runner-roots.ts). */
export type RunnerName = 'npm' | 'jest' | 'vitest' | 'mocha' | 'tsc' | 'pytest' | 'node' | 'go' | 'cargo';

const NPM = options('--workspaces -ws, --if-present, -w --workspace =text, -s --silent');

interface RunnerForm {
  /** The runner whose config search is checked; none for the forms that run only in the sandbox. */
  runner?: RunnerName;
  paths: CommandPath[];
  sandboxOnly?: string;
  /** The form would reach the network outside the sandbox (Maven, Gradle without offline). */
  network?: string;
}

function fromProject(form: ProjectForm): RunnerForm {
  return form.type === 'network' ? { paths: [], network: form.reason } : { paths: form.paths, sandboxOnly: form.sandboxOnly };
}

/** yargs (jest, mocha) and cac (vitest) read `-tc=FILE` as `-t -c FILE`: one short option per word there. */
const YARGS = { ...GNU, noClusters: true };

function runnerArgs(table: OptionTable, check: (a: ParsedArgs) => void = () => {}, style = GNU): Runner {
  return (args) => {
    refuseArgumentFiles(args);
    const a = parseArgs(args, table, style);
    check(a);
    return [...a.paths, ...runnerOperands(a.operands)];
  };
}

/** `@FILE` reads arguments from a file (tsc, pytest): arguments Keel would never see. */
function refuseArgumentFiles(args: readonly Word[]): void {
  for (const w of args) if ((staticValue(w) ?? '').startsWith('@')) notReadOnly(`${staticValue(w)} reads more arguments from a file`);
}

/**
 * Test files as operands. A runner expands a glob it is given itself (mocha, node --test), with
 * braces and `**` bash would not: a quoted glob, or braces, could reach outside the workspace.
 */
function runnerOperands(operands: readonly Word[]): CommandPath[] {
  for (const w of operands) {
    const text = wordText(w);
    if (/[{}]/.test(text) || (!hasGlob(w) && /[*?[\]]/.test(text)))
      notReadOnly(`${text} is a pattern the runner expands itself, which Keel cannot check`);
  }
  return pathOperands(operands);
}

function only(option: string, allowed: Set<string>) {
  return (a: ParsedArgs) => {
    for (const o of a.options)
      if (o.name === option && !allowed.has(o.value ?? '')) notReadOnly(`${option} ${o.value ?? ''} may load code from a file`);
  };
}

const mocha = runnerArgs(MOCHA, only('-R', MOCHA_REPORTERS), YARGS);
const jest = runnerArgs(JEST, undefined, YARGS);
/** pytest: `-p no:NAME` turns a plugin off; any other `-p` loads one. */
const pytest = runnerArgs(PYTEST, (a) => {
  for (const o of a.options) if (o.name === '-p' && !/^no:[\w.-]+$/.test(o.value ?? '')) notReadOnly(`-p ${o.value ?? ''} loads a plugin`);
});

/**
 * tsc: a boolean option takes a following `true` or `false` as its value (`--noEmit false` emits
 * JavaScript), so those words are read as values, and --noEmit must stay true.
 */
function tsc(args: readonly Word[]): CommandPath[] {
  const rest: Word[] = [];
  let noEmit = false;
  for (let i = 0; i < args.length; i++) {
    const text = staticValue(args[i]!);
    const value = args[i + 1] ? staticValue(args[i + 1]!) : undefined;
    const flag = text !== undefined && TSC.get(text)?.kind === 'none';
    if (flag && (value === 'true' || value === 'false')) {
      if (TSC.get(text!)?.name === '--noEmit') noEmit = value === 'true';
      else rest.push(args[i]!);
      i++;
      continue;
    }
    if (text !== undefined && TSC.get(text)?.name === '--noEmit') noEmit = true;
    rest.push(args[i]!);
  }
  if (!noEmit) notReadOnly('tsc without --noEmit writes compiled files');
  return runnerArgs(TSC)(rest);
}

function vitest(args: readonly Word[]): CommandPath[] {
  const rest = args[0] && staticValue(args[0]) === 'run' ? args.slice(1) : args;
  return runnerArgs(VITEST, only('--reporter', VITEST_REPORTERS), YARGS)(rest);
}

function goTest(args: readonly Word[]): CommandPath[] {
  const packages: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const text = wordText(args[i]!);
    if (hasGlob(args[i]!)) notReadOnly('a glob in go test arguments');
    if (!text.startsWith('-')) {
      packages.push(args[i]!);
      continue;
    }
    const [name, value] = text.replace(/^--?/, '').split(/=(.*)/s) as [string, string | undefined];
    if (GO_BOOL.has(name)) {
      if (value !== undefined && value !== 'true' && value !== 'false') notReadOnly(`-${name}=${value}`);
    } else if (!GO_VALUE.has(name)) notReadOnly(`go test -${name} is not a flag known to be safe`);
    else if (value === undefined) {
      const next = args[++i] ?? notReadOnly(`-${name} needs a value`);
      fixedOperands([next]);
    }
  }
  return pathOperands(packages);
}

function cargoTest(args: readonly Word[]): CommandPath[] {
  const dash = args.findIndex((w) => staticValue(w) === '--');
  const [before, after] = dash === -1 ? [args, []] : [args.slice(0, dash), args.slice(dash + 1)];
  fixedOperands(parseArgs(before, CARGO).operands);
  fixedOperands(parseArgs(after, CARGO_HARNESS).operands);
  return [];
}

const NPX_RUNNERS: Record<string, [RunnerName, Runner]> = {
  mocha: ['mocha', mocha],
  jest: ['jest', jest],
  vitest: ['vitest', vitest],
  tsc: ['tsc', tsc],
};

/** `npm test` (in every workspace with --workspaces): extra arguments would reach a runner we cannot see. */
function npm(args: readonly Word[]): RunnerForm | undefined {
  const argv = args.map((w) => staticValue(w));
  const isScript = ['test', 't', 'tst'].includes(argv[0] ?? '') || (['run', 'run-script'].includes(argv[0] ?? '') && argv[1] === 'test');
  if (!argv.some((w) => ['test', 't', 'tst'].includes(w ?? '')) && !isScript) return undefined;
  let operands: (string | undefined)[];
  try {
    operands = parseArgs(args, NPM).operands.map((w) => staticValue(w));
  } catch (err) {
    if (!(err instanceof NotReadOnly)) throw err;
    if (!isScript) return undefined;
    return notReadOnly('npm test with extra arguments passes them to a test script we cannot see');
  }
  const exact =
    (operands.length === 1 && ['test', 't', 'tst'].includes(operands[0]!)) ||
    (operands.length === 2 && ['run', 'run-script'].includes(operands[0]!) && operands[1] === 'test');
  if (exact) return { runner: 'npm', paths: [] };
  if (isScript) notReadOnly('npm test with extra arguments passes them to a test script we cannot see');
  return undefined;
}

/** `npx --no-install RUNNER …`: never downloads (plain npx may fetch the package and run it). */
function npx(args: readonly Word[]): RunnerForm | undefined {
  if (!args[0] || staticValue(args[0]) !== '--no-install') return undefined;
  const name = args[1] ? (staticValue(args[1]) ?? '') : '';
  const task = own(NPX_TASK_RUNNERS, name)?.(args.slice(2));
  if (task) return fromProject(task);
  const found = own(NPX_RUNNERS, name);
  if (!found) return undefined;
  return { runner: found[0], paths: found[1](args.slice(2)) };
}

/** `node [options] --test [options] [files]`: a word before --test that is no option is a script node runs. */
function node(args: readonly Word[]): RunnerForm | undefined {
  const test = args.findIndex((w) => staticValue(w) === '--test');
  if (test === -1 || args.slice(0, test).some((w) => !(staticValue(w) ?? '').startsWith('-'))) return undefined;
  return { runner: 'node', paths: runnerArgs(NODE, only('--test-reporter', NODE_REPORTERS))(args) };
}

function python(args: readonly Word[]): RunnerForm | undefined {
  if (args.length < 2 || staticValue(args[0]!) !== '-m' || staticValue(args[1]!) !== 'pytest') return undefined;
  return { runner: 'pytest', paths: pytest(args.slice(2)) };
}

function subcommand(sub: string, runner: RunnerName, run: Runner) {
  return (args: readonly Word[]): RunnerForm | undefined =>
    args[0] && staticValue(args[0]) === sub ? { runner, paths: run(args.slice(1)) } : undefined;
}

const plain =
  (runner: RunnerName, run: Runner) =>
  (args: readonly Word[]): RunnerForm => ({ runner, paths: run(args) });

/** Each program by the name written: the runner form its arguments make, or undefined when they make none. */
const RUNNERS: Record<string, (args: readonly Word[]) => RunnerForm | undefined> = {
  node,
  npm,
  npx,
  mocha: plain('mocha', mocha),
  jest: plain('jest', jest),
  vitest: plain('vitest', vitest),
  tsc: plain('tsc', tsc),
  pytest: plain('pytest', pytest),
  'py.test': plain('pytest', pytest),
  python,
  python3: python,
  go: subcommand('test', 'go', goTest),
  cargo: subcommand('test', 'cargo', cargoTest),
};

/** `python3.12` is python3 to the runner forms. */
const runnerName = (name: string) => name.replace(/^(python3?)\.\d+$/, '$1');

/** `test_run` for a runner in an allowed form, `execute` for a runner with other flags, undefined otherwise. */
export function judgeTestRunner(name: string, args: readonly Word[]): Judgement | undefined {
  const project = own(PROJECT_RUNNERS, name);
  const runner = project ? (a: readonly Word[]) => ((p) => p && fromProject(p))(project(a)) : own(RUNNERS, runnerName(name));
  if (!runner) return undefined;
  const programs = [name];
  try {
    const form = runner(args);
    if (!form) return undefined;
    if (form.network) return judgement('network', form.network, { programs });
    const located = form.runner ? [{ kind: 'test_runner' as const, name: form.runner, cwd: '.' }] : [];
    const extra = form.sandboxOnly ? { sandboxOnly: form.sandboxOnly } : {};
    return judgement('test_run', `runs the project's tests (${name})`, { programs, paths: form.paths, located, ...extra });
  } catch (err) {
    if (!(err instanceof NotReadOnly)) throw err;
    return judgement('execute', `${name}: ${err.message}`, { programs });
  }
}

/** Each runner's options, for checking against the runner's own --help where it is installed. */
export const RUNNER_OPTIONS: Readonly<Record<string, OptionTable>> = {
  node: NODE,
  mocha: MOCHA,
  jest: JEST,
  vitest: VITEST,
  tsc: TSC,
  pytest: PYTEST,
  cargo: CARGO,
};
