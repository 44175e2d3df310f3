// Finds the project's test command when the model gives none: package.json's test script,
// then the JS runners' configs (run with npx --no-install: a missing runner is an error, never a
// download), a monorepo's runner, deno, pytest (a config, or test files at the root, under tests/
// or test/ at any depth, or under src/; with none of its config files, `--rootdir=.` so its
// conftest search stops at the workspace), go, cargo, a Makefile's `test` target, CMake, Gradle,
// Maven and node's built-in runner (detect-layouts.ts).
import type { DirEntry, Workspace } from '../../kernel/index.js';
import { pytestConfigured } from '../policy/runner-roots.js';
import { cmakeCommand, denoCommand, jvmCommand, monorepoCommand } from './detect-layouts.js';
import { detectToolchain, type PackageJson, type Toolchain } from './toolchain.js';

export interface DetectedCommand {
  command: string;
  /** What gave it away, for the observation. */
  because: string;
  /** The project's toolchain as detected (interpreter, package manager, the Node it asks for). */
  toolchain?: Toolchain;
}

const NPM_PLACEHOLDER = /no test specified/;
const PY_TEST_FILE = /(?:^|\/)(?:test_[^/]*|[^/]*_test|conftest)\.py$/;
/** How deep and how wide the look for Python test files goes (tests/unit/…, src/pkg/tests/…). */
const PY_SEARCH_DEPTH = 3;
const PY_SEARCH_DIRS = 60;
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];
/** A rule whose targets include `test` (not a `test := …` variable). */
const MAKE_TEST_RULE = /^(?:[^\s:#=]+[ \t]+)*test(?:[ \t]+[^\s:#=]+)*[ \t]*::?(?!=)/m;
const decoder = new TextDecoder();

export async function detectTestCommand(ws: Workspace): Promise<DetectedCommand | undefined> {
  const names = new Set((await ws.readDir('').catch(() => [])).map((e) => e.path));
  const read = async (p: string) => (names.has(p) ? decoder.decode(await ws.readFile(p).catch(() => new Uint8Array())) : '');
  const pkg = parseJson(await read('package.json'));
  const toolchain = await detectToolchain(ws, names, pkg);
  const found = await detect(ws, names, read, pkg, toolchain);
  return found && { ...found, toolchain };
}

async function detect(
  ws: Workspace,
  names: Set<string>,
  read: (p: string) => Promise<string>,
  pkg: PackageJson | undefined,
  tc: Toolchain,
): Promise<Omit<DetectedCommand, 'toolchain'> | undefined> {
  const script = pkg?.scripts?.test;
  if (typeof script === 'string' && !NPM_PLACEHOLDER.test(script)) {
    const run = tc.packageManager === 'bun' ? 'bun run test' : `${tc.packageManager} test`;
    return { command: run, because: `package.json scripts.test is "${script}"` };
  }
  const deps = { ...pkg?.dependencies, ...pkg?.devDependencies } as Record<string, unknown>;
  const has = (re: RegExp) => [...names].some((n) => re.test(n));
  if ('vitest' in deps || has(/^vitest\.config\./)) return { command: 'npx --no-install vitest run', because: 'vitest is configured' };
  if ('jest' in deps || has(/^jest\.config\./)) return { command: 'npx --no-install jest', because: 'jest is configured' };
  if ('mocha' in deps || has(/^\.mocharc/)) return { command: 'npx --no-install mocha', because: 'mocha is configured' };
  const layout = monorepoCommand(names, pkg, tc) ?? denoCommand(names);
  if (layout) return layout;
  const pytest = await pytestConfig(names, read, ws);
  if (pytest)
    return {
      command: `${tc.python} -m pytest${pytest === 'configured' ? '' : ' --rootdir=.'}`,
      because: `${pytest === 'configured' ? 'a pytest configuration' : 'Python test files'}${tc.pythonBecause ? `; Python from ${tc.pythonBecause}` : ''}`,
    };
  if (names.has('go.work')) return { command: `go test -v ${goWorkspaceDirs(await read('go.work'))}`, because: 'go.work (a Go workspace)' };
  if (names.has('go.mod')) return { command: 'go test -v ./...', because: 'go.mod' };
  if (names.has('Cargo.toml'))
    return /^\[workspace\]/m.test(await read('Cargo.toml'))
      ? { command: 'cargo test --workspace', because: 'Cargo.toml (a Cargo workspace)' }
      : { command: 'cargo test', because: 'Cargo.toml' };
  for (const makefile of MAKEFILES.filter((m) => names.has(m)))
    if (MAKE_TEST_RULE.test(await read(makefile))) return { command: 'make test', because: `${makefile} has a test target` };
  const build = cmakeCommand(names) ?? jvmCommand(names);
  if (build) return build;
  if (pkg || (await hasNodeTests(ws))) return { command: 'node --test', because: 'a Node project without a test script' };
  return undefined;
}

/** go.work's `use` folders as package patterns ("./a/... ./b/..."): `./...` stops at the workspace root. */
function goWorkspaceDirs(goWork: string): string {
  const uses = [...goWork.matchAll(/^\s*use\s+\(([^)]*)\)|^\s*use\s+(\S+)/gm)].flatMap((m) =>
    (m[1] ?? m[2]!).split(/\s+/).filter((d) => d && !d.startsWith('//')),
  );
  // `./a`, `a` and `a/` are ./a; `.` is the root; `../b` stays a parent's folder (go accepts it as a used module).
  const dirs = uses.map((d) => d.replace(/\/+$/, '').replace(/^(?:\.\/)+/, '') || '.');
  const pattern = (d: string) => (d === '.' ? './...' : d.startsWith('../') || d.startsWith('/') ? `${d}/...` : `./${d}/...`);
  return dirs.length ? dirs.map(pattern).join(' ') : './...';
}

/** `configured`: a file that ends pytest's config search is at the root; `files`: only test files. */
async function pytestConfig(
  names: Set<string>,
  read: (p: string) => Promise<string>,
  ws: Workspace,
): Promise<'configured' | 'files' | undefined> {
  if (await pytestConfigured(async (n) => names.has(n), read)) return 'configured';
  if (names.has('conftest.py') || [...names].some((n) => PY_TEST_FILE.test(n))) return 'files';
  const roots = ['tests', 'test', 'src'].filter((d) => names.has(d));
  return roots.length > 0 && (await hasPythonTests(ws, roots)) ? 'files' : undefined;
}

/** Breadth-first through the given folders, a few levels deep and a bounded number of folders. */
async function hasPythonTests(ws: Workspace, roots: string[]): Promise<boolean> {
  let level = roots;
  let visited = 0;
  for (let depth = 0; depth < PY_SEARCH_DEPTH && level.length; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (visited++ >= PY_SEARCH_DIRS) return false;
      const entries: DirEntry[] = await ws.readDir(dir).catch(() => []);
      if (entries.some((e) => e.type === 'file' && PY_TEST_FILE.test(e.path))) return true;
      next.push(
        ...entries.filter((e) => e.type === 'directory' && !/(?:^|\/)(?:node_modules|\.|__pycache__)/.test(e.path)).map((e) => e.path),
      );
    }
    level = next;
  }
  return false;
}

async function hasNodeTests(ws: Workspace): Promise<boolean> {
  const entries = await ws.readDir('test').catch(() => []);
  return entries.some((e) => /\.test\.[cm]?js$/.test(e.path));
}

function parseJson(text: string): PackageJson | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
