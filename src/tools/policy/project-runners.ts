// The project's own test commands beyond the plain runners: package managers' test scripts
// (pnpm, yarn, bun, npm workspaces), monorepo task runners (turbo, nx, lerna), build tools
// (make, CMake and CTest, Maven, Gradle) and deno test. Each runs what the workspace defines —
// a Makefile, CMakeLists.txt, turbo.json's tasks — or looks above the workspace and may download,
// so it is a test run only inside the test-run sandbox, where all of that is contained (no
// network, the home folder and the workspace's parents out of reach, protected paths
// read-only): `sandboxOnly` says why. A form that would reach the network from outside the
// sandbox (Maven or Gradle without offline) says so; other words make the command `execute`.
import type { CommandPath } from './command-class.js';
import { type ExactArgs, exactOptions, type ExactTable, given, parseExact } from './exact-args.js';
import { NotReadOnly, notReadOnly } from './program-args.js';
import { staticValue, type Word } from './shell-word.js';

export type ProjectForm = { type: 'test_run'; paths: CommandPath[]; sandboxOnly: string } | { type: 'network'; reason: string };

type Form = (args: readonly Word[]) => ProjectForm | undefined;

/** Task names that run tests: `test`, `test:unit`, `check`. */
const TEST_TASK = /^(?:test|tests|check)(?::[\w:.-]+)?$/;

const contained = (paths: CommandPath[], sandboxOnly: string): ProjectForm => ({ type: 'test_run', paths, sandboxOnly });

const WHY = {
  packageManager: (pm: string) =>
    `${pm} looks for its workspace and settings in parent folders and may download the version the project pins`,
  taskRunner: (tool: string, config: string) => `${tool} runs the tasks ${config} defines`,
  make: 'make runs the recipes of the Makefile, which a test run may have written',
  cmake: 'CMake builds and runs what CMakeLists.txt defines, which a test run may have written',
  maven: 'Maven runs the plugins pom.xml configures',
  gradle: "Gradle runs the project's build scripts",
  deno: 'deno looks for deno.json in parent folders and may fetch remote modules',
};

/** The words of a package manager's test script: nothing may follow them (they would reach the script). */
function scriptWords(rest: readonly Word[], forms: readonly string[][]): boolean | undefined {
  const words = rest.map((w) => staticValue(w));
  const form = forms.find((f) => f.every((word, i) => words[i] === word));
  if (!form) return undefined;
  if (words.length > form.length) notReadOnly(`${form.join(' ')} with more words passes them to the test script, which Keel cannot see`);
  return true;
}

const TEST_SCRIPT = [['test'], ['t'], ['run', 'test'], ['run-script', 'test']];

/** Options before the script; an unknown one leaves the command to the package manager's other rules. */
function leading(args: readonly Word[], table: ExactTable): ExactArgs | undefined {
  try {
    return parseExact(args, table, true);
  } catch (err) {
    if (err instanceof NotReadOnly) return undefined;
    throw err;
  }
}

const PNPM = exactOptions(`
  -r --recursive, --if-present, --parallel, --stream, --no-bail, --bail, -w --workspace-root, --aggregate-output,
  --sequential, -s --silent, --filter -F =text, --reporter =text, --workspace-concurrency =text
`);

function pnpm(args: readonly Word[]): ProjectForm | undefined {
  const a = leading(args, PNPM);
  if (!a || !scriptWords(a.rest, TEST_SCRIPT)) return undefined;
  return contained([], WHY.packageManager('pnpm'));
}

const YARN = exactOptions('-s --silent');
const YARN_FOREACH = exactOptions(`
  -A --all, -p --parallel, -v --verbose, -t --topological, --topological-dev, -i --interlaced, -R --recursive,
  -W --worktree, --include =text, --exclude =text, -j --jobs =text
`);

/** `yarn test`, `yarn run test`, `yarn workspaces run test` (yarn 1), `yarn workspaces foreach … run test` (yarn 2+). */
function yarn(args: readonly Word[]): ProjectForm | undefined {
  const a = leading(args, YARN);
  if (!a) return undefined;
  const words = a.rest.map((w) => staticValue(w));
  if (words[0] === 'workspaces' && words[1] === 'foreach') {
    const each = leading(a.rest.slice(2), YARN_FOREACH);
    if (!each || !scriptWords(each.rest, [['run', 'test']])) return undefined;
  } else if (words[0] === 'workspaces') {
    if (!scriptWords(a.rest.slice(1), [['run', 'test']])) return undefined;
  } else if (!scriptWords(a.rest, [['test'], ['run', 'test']])) return undefined;
  return contained([], WHY.packageManager('yarn'));
}

const BUN_TEST = exactOptions('--bail, --only, --todo, --timeout =text, -t --test-name-pattern =text, --rerun-each =text');

/** `bun run test` (the script), `bun test [filters]` (bun's own runner). */
function bun(args: readonly Word[]): ProjectForm | undefined {
  const first = args[0] ? staticValue(args[0]) : undefined;
  if (first === 'test') {
    parseExact(args.slice(1), BUN_TEST);
    return contained([], WHY.packageManager('bun'));
  }
  return scriptWords(args, [['run', 'test']]) ? contained([], WHY.packageManager('bun')) : undefined;
}

const TURBO = exactOptions(`
  --filter -F =text, --concurrency =text, --continue, --force, --no-cache, --output-logs =text, --log-order =text,
  --no-daemon, --only, --ui =text, --env-mode =text, --log-prefix =text
`);

/** Operands that are all test tasks (at least one). */
function testTasks(operands: readonly string[], tool: string): void {
  if (operands.length === 0 || operands.some((t) => !TEST_TASK.test(t)))
    notReadOnly(`${tool} ${operands.join(' ')} runs tasks other than the tests`);
}

/** `turbo run test`, `turbo test` (turbo 2). */
function turbo(args: readonly Word[]): ProjectForm | undefined {
  const a = parseExact(args, TURBO);
  const tasks = a.operands[0] === 'run' ? a.operands.slice(1) : a.operands;
  if (!tasks.some((t) => TEST_TASK.test(t))) return undefined;
  testTasks(tasks, 'turbo');
  return contained([], WHY.taskRunner('turbo', 'turbo.json and package.json'));
}

const NX = exactOptions(`
  -t --target --targets =text, -p --projects =text, --exclude =text, --parallel =text, --skip-nx-cache, --output-style =text,
  --nxBail, --verbose, --all, -c --configuration =text
`);

/** `nx run-many -t test`, `nx affected -t test`, `nx test PROJECT`, `nx run PROJECT:test`. */
function nx(args: readonly Word[]): ProjectForm | undefined {
  const a = parseExact(args, NX);
  const [command, ...rest] = a.operands;
  const targets = a.options.filter((o) => ['-t', '--target', '--targets'].includes(o.name)).flatMap((o) => o.value!.split(','));
  const why = WHY.taskRunner('nx', 'nx.json and project.json');
  if (command === 'run-many' || command === 'affected') {
    if (rest.length) notReadOnly(`nx ${command} with operands`);
    testTasks(targets, 'nx');
    return contained([], why);
  }
  if (command && TEST_TASK.test(command) && rest.length <= 1 && targets.length === 0) return contained([], why);
  if (command === 'run' && rest.length === 1 && TEST_TASK.test(rest[0]!.slice(rest[0]!.lastIndexOf(':') + 1))) return contained([], why);
  return undefined;
}

const LERNA = exactOptions(`
  --stream, --parallel, --no-bail, --no-prefix, --include-dependencies, --scope =text, --ignore =text, --concurrency =text,
  --since =text
`);

function lerna(args: readonly Word[]): ProjectForm | undefined {
  const a = parseExact(args, LERNA);
  if (a.operands[0] !== 'run') return undefined;
  testTasks(a.operands.slice(1), 'lerna run');
  return contained([], WHY.taskRunner('lerna', 'lerna.json and package.json'));
}

const MAKE = exactOptions('-k --keep-going, -s --silent --quiet, --no-print-directory, -j, -j* =text, --jobs =text');
const MAKE_TARGETS = new Set(['test', 'tests', 'check']);

/** `make test`, `make -j4 check`: the test targets only (a variable on the command line is no target). */
function make(args: readonly Word[]): ProjectForm | undefined {
  const a = parseExact(args, MAKE);
  if (!a.operands.some((t) => MAKE_TARGETS.has(t))) return undefined;
  if (a.operands.some((t) => !MAKE_TARGETS.has(t))) notReadOnly(`make ${a.operands.join(' ')} builds more than the test targets`);
  return contained([], WHY.make);
}

const CMAKE_CONFIGURE = exactOptions('-S -S* =read, -B -B* =write, -G =text, -D =text, -D* =text, -Wno-dev, -Wdev, --fresh');
const CMAKE_BUILD = exactOptions(`
  --build =write, --target -t =text, -j --parallel =text, -j* =text, --config =text, --clean-first, -v --verbose
`);

/** `cmake -S . -B build [-D…]` (configure into a build folder) and `cmake --build build`. */
function cmake(args: readonly Word[]): ProjectForm | undefined {
  const build = args.some((w) => staticValue(w) === '--build');
  const a = parseExact(args, build ? CMAKE_BUILD : CMAKE_CONFIGURE);
  if (a.operands.length) notReadOnly(`cmake ${a.operands.join(' ')}: a source or build folder given without -S or -B`);
  if (!build && !given(a, '-B')) return undefined;
  return contained(a.paths, WHY.cmake);
}

const CTEST = exactOptions(`
  --test-dir =read, --output-on-failure, -j --parallel =text, -j* =text, -C --build-config =text, -R --tests-regex =text,
  -E --exclude-regex =text, -L --label-regex =text, -V --verbose, -VV --extra-verbose, -Q --quiet, --timeout =text,
  --no-tests =text, --rerun-failed, --stop-on-failure, -N --show-only, --output-junit =write, --schedule-random,
  --repeat =text, --progress, --no-compress-output
`);

function ctest(args: readonly Word[]): ProjectForm {
  const a = parseExact(args, CTEST);
  if (a.operands.length) notReadOnly(`ctest ${a.operands.join(' ')}`);
  return contained(a.paths, WHY.cmake);
}

const MVN = exactOptions(`
  -o --offline, -q --quiet, -B --batch-mode, -e --errors, -X --debug, -fae --fail-at-end, -ff --fail-fast, -am --also-make,
  -amd --also-make-dependents, -ntp --no-transfer-progress, -pl --projects =text, -T --threads =text, -D =text, -D* =text
`);
const MVN_GOALS = new Set(['clean', 'test', 'verify', 'surefire:test']);

/** `mvn -o test` (and ./mvnw): offline, the test goals only. */
function maven(args: readonly Word[]): ProjectForm | undefined {
  const a = parseExact(args, MVN);
  if (!a.operands.some((g) => g === 'test' || g === 'verify' || g === 'surefire:test')) return undefined;
  if (a.operands.some((g) => !MVN_GOALS.has(g))) notReadOnly(`mvn ${a.operands.join(' ')} runs more than the tests`);
  if (!given(a, '-o', '--offline'))
    return { type: 'network', reason: 'mvn without -o may download plugins and dependencies (mvn -o test runs unasked in the sandbox)' };
  return contained([], WHY.maven);
}

const GRADLE = exactOptions(`
  --offline, -q --quiet, --console =text, --no-daemon, --daemon, --tests =text, --continue, -i --info, -s --stacktrace,
  -S --full-stacktrace, --warning-mode =text, -x --exclude-task =text, --no-build-cache, --build-cache, --rerun-tasks,
  --parallel, --no-parallel, -P* =text
`);
const GRADLE_TASK = /^(?::?[\w.-]+:)*(?:test|check|clean|cleanTest)$/;

/** `gradle --offline test`, `./gradlew --offline test`, `:app:test`. */
function gradle(args: readonly Word[]): ProjectForm | undefined {
  const a = parseExact(args, GRADLE);
  if (!a.operands.some((t) => GRADLE_TASK.test(t) && !/clean\w*$/.test(t))) return undefined;
  if (a.operands.some((t) => !GRADLE_TASK.test(t))) notReadOnly(`gradle ${a.operands.join(' ')} runs more than the tests`);
  if (!given(a, '--offline'))
    return {
      type: 'network',
      reason: 'Gradle without --offline may download plugins and dependencies (./gradlew --offline test runs unasked in the sandbox)',
    };
  return contained([], WHY.gradle);
}

const ALLOW = ['read', 'write', 'env', 'net', 'run', 'sys', 'ffi', 'hrtime', 'import'].map((p) => `--allow-${p}, --allow-${p}=* =text`);
const DENO_TEST = exactOptions(`
  -A --allow-all, ${ALLOW.join(', ')}, --no-check, --check, --filter =text, --fail-fast, --parallel, --no-prompt,
  -q --quiet, --reporter =text, --doc, --frozen, --cached-only, --no-remote, --permit-no-files, --trace-leaks, --shuffle
`);

function deno(args: readonly Word[]): ProjectForm | undefined {
  if (!args[0] || staticValue(args[0]) !== 'test') return undefined;
  const a = parseExact(args.slice(1), DENO_TEST);
  return contained(
    [...a.paths, ...a.operands.map((p): CommandPath => ({ path: p.startsWith('~') ? `./${p}` : p, access: 'read' }))],
    WHY.deno,
  );
}

/** Each program by the name written. */
export const PROJECT_RUNNERS: Readonly<Record<string, Form>> = {
  pnpm,
  yarn,
  bun,
  turbo,
  nx,
  lerna,
  make,
  cmake,
  ctest,
  mvn: maven,
  mvnw: maven,
  gradle,
  gradlew: gradle,
  deno,
};

/** The task runners `npx --no-install` may start (the installed copy, never a download). */
export const NPX_TASK_RUNNERS: Readonly<Record<string, Form>> = { turbo, nx, lerna };
