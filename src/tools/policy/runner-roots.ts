// Where a test runner looks for what it runs: from the folder it starts in up the tree, until it
// finds its configuration (npm the nearest package.json and its test script, jest a jest.config
// or package.json, mocha a .mocharc and package.json, pytest an ini file, and so on). Unless the
// file that ends the search is in the very folder the runner starts in, the search may climb out
// of the workspace — to a parent repository's test script, .mocharc or conftest.py: the run is
// then contained only by the sandbox, whose view holds none of the workspace's parents (pytest
// with no configuration gets `--rootdir` from run_tests, so its conftest search stops there too).
// A runner started inside node_modules runs a dependency's tests: that asks.
import type { Workspace } from '../../kernel/index.js';
import type { RunnerName } from './test-runners.js';

type Has = (name: string) => Promise<boolean>;
type Read = (name: string) => Promise<string>;

const JS_CONFIG = ['js', 'ts', 'mjs', 'cjs', 'mts', 'cts'];
const anyOf = (has: Has, names: readonly string[]) => Promise.all(names.map(has)).then((found) => found.includes(true));
const withExtensions = (base: string, exts: readonly string[]) => exts.map((e) => `${base}.${e}`);

/** Whether a folder holds a file that ends pytest's search for its configuration. */
export async function pytestConfigured(has: Has, read: Read): Promise<boolean> {
  return (
    (await anyOf(has, ['pytest.ini', '.pytest.ini'])) ||
    /^\[tool\.pytest/m.test(await read('pyproject.toml')) ||
    /^\[pytest\]/m.test(await read('tox.ini')) ||
    /^\[tool:pytest\]/m.test(await read('setup.cfg'))
  );
}

/** For each runner: whether the folder it starts in ends its config search, and what it looks for. */
const ROOTS: Record<RunnerName, { ends(has: Has, read: Read): Promise<boolean>; wants: string }> = {
  npm: { ends: (has) => has('package.json'), wants: 'a package.json' },
  jest: {
    ends: (has) => anyOf(has, ['package.json', ...withExtensions('jest.config', [...JS_CONFIG, 'json'])]),
    wants: 'a package.json or jest.config',
  },
  vitest: {
    ends: (has) => anyOf(has, [...withExtensions('vitest.config', JS_CONFIG), ...withExtensions('vite.config', JS_CONFIG)]),
    wants: 'a vitest.config or vite.config',
  },
  mocha: {
    ends: async (has) =>
      (await has('package.json')) && (await anyOf(has, withExtensions('.mocharc', ['js', 'cjs', 'mjs', 'yaml', 'yml', 'json', 'jsonc']))),
    wants: 'a .mocharc and a package.json',
  },
  tsc: { ends: (has) => has('tsconfig.json'), wants: 'a tsconfig.json' },
  pytest: { ends: pytestConfigured, wants: 'a pytest.ini, or a pyproject.toml, tox.ini or setup.cfg with a pytest section' },
  // node --test reads no configuration file.
  node: { ends: async () => true, wants: '' },
  go: { ends: (has) => has('go.mod'), wants: 'a go.mod' },
  cargo: { ends: (has) => has('Cargo.toml'), wants: 'a Cargo.toml' },
};

const decoder = new TextDecoder();

export interface RootProblem {
  reason: string;
  /** The sandbox contains it (a search that climbs out finds nothing there). */
  contained: boolean;
}

/** Why `runner`, started in `dir` (canonical, workspace-relative), may run code from outside the project, or undefined. */
export async function runnerRootProblem(ws: Workspace, runner: RunnerName, dir: string): Promise<RootProblem | undefined> {
  if (dir.split('/').includes('node_modules'))
    return {
      reason: `the test runner would start in ${dir}, inside node_modules: a dependency's tests and scripts, not the project's`,
      contained: false,
    };
  const at = (name: string) => (dir === '' ? name : `${dir}/${name}`);
  const has: Has = async (name) => (await ws.stat(at(name)).catch(() => undefined))?.type === 'file';
  const read: Read = (name) =>
    ws.readFile(at(name)).then(
      (b) => decoder.decode(b),
      () => '',
    );
  const root = ROOTS[runner];
  if (await root.ends(has, read)) return undefined;
  return {
    reason: `${runner} looks for its configuration from ${dir || 'the workspace root'} upwards, and finds none there (${root.wants}): outside the sandbox it could load one from the workspace's parent folders`,
    contained: true,
  };
}
