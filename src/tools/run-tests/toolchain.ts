// The project's own toolchain, so tests run as the project runs them: a workspace virtualenv's
// Python (the system python3 imports the installed package, not the checkout), Poetry, uv or
// pipenv; the package manager package.json names; Go and Cargo workspaces. The report's first
// line names the interpreter or tool and its version, and says when the project asks for a Node
// other than the one that will run the tests.
import type { Workspace } from '../../kernel/index.js';

export interface Toolchain {
  /** What runs Python tests: a workspace venv's interpreter, or a project manager's `run`. */
  python: string;
  /** Why that Python (for the report). */
  pythonBecause?: string;
  /** npm, pnpm, yarn or bun, from packageManager or the lock file. */
  packageManager: 'npm' | 'pnpm' | 'yarn' | 'bun';
  /** Yarn 2 or later (packageManager says so, or .yarnrc.yml is there): its workspaces command differs. */
  yarnBerry?: true;
  /** The Node version the project asks for, and where it says so. */
  nodeWanted?: { version: string; from: string };
}

const VENVS = ['.venv', 'venv'];
const decoder = new TextDecoder();

export async function detectToolchain(ws: Workspace, names: ReadonlySet<string>, pkg: PackageJson | undefined): Promise<Toolchain> {
  const pm = packageManager(names, pkg);
  const berry = pm === 'yarn' && (names.has('.yarnrc.yml') || /^yarn@(?:[2-9]|\d{2,})/.test(String(pkg?.packageManager ?? '')));
  return {
    ...(await python(ws, names)),
    packageManager: pm,
    ...(berry ? { yarnBerry: true as const } : {}),
    ...(await nodeWanted(ws, names, pkg)),
  };
}

export interface PackageJson {
  scripts?: Record<string, unknown>;
  dependencies?: object;
  devDependencies?: object;
  packageManager?: unknown;
  engines?: { node?: unknown };
  workspaces?: unknown;
}

async function python(ws: Workspace, names: ReadonlySet<string>): Promise<Pick<Toolchain, 'python' | 'pythonBecause'>> {
  for (const venv of VENVS.filter((v) => names.has(v))) {
    // Listed, not followed: a venv's python is a link to an interpreter outside the workspace.
    const bins = new Set((await ws.readDir(`${venv}/bin`).catch(() => [])).map((e) => e.path));
    const bin = ['python', 'python3'].find((b) => bins.has(`${venv}/bin/${b}`));
    if (bin) return { python: `${venv}/bin/${bin}`, pythonBecause: `the workspace's ${venv}` };
  }
  if (names.has('uv.lock')) return { python: 'uv run --offline python', pythonBecause: 'uv.lock' };
  if (names.has('poetry.lock')) return { python: 'poetry run python', pythonBecause: 'poetry.lock' };
  if (names.has('Pipfile') || names.has('Pipfile.lock')) return { python: 'pipenv run python', pythonBecause: 'Pipfile' };
  return { python: 'python3' };
}

function packageManager(names: ReadonlySet<string>, pkg: PackageJson | undefined): Toolchain['packageManager'] {
  const declared = typeof pkg?.packageManager === 'string' ? /^(npm|pnpm|yarn|bun)@/.exec(pkg.packageManager)?.[1] : undefined;
  if (declared) return declared as Toolchain['packageManager'];
  if (names.has('pnpm-lock.yaml')) return 'pnpm';
  if (names.has('yarn.lock')) return 'yarn';
  if (names.has('bun.lockb') || names.has('bun.lock')) return 'bun';
  return 'npm';
}

async function nodeWanted(ws: Workspace, names: ReadonlySet<string>, pkg: PackageJson | undefined): Promise<Pick<Toolchain, 'nodeWanted'>> {
  for (const file of ['.nvmrc', '.node-version'].filter((f) => names.has(f))) {
    const text = decoder
      .decode(await ws.readFile(file).catch(() => new Uint8Array()))
      .trim()
      .split('\n')[0]
      ?.trim();
    if (text) return { nodeWanted: { version: text, from: file } };
  }
  const engines = pkg?.engines?.node;
  return typeof engines === 'string' ? { nodeWanted: { version: engines, from: 'package.json engines.node' } } : {};
}

/** True when `have` (e.g. "v20.20.2") meets what the project asks ("18", "v18.17", ">=18", "^20.1", "20.x", "lts/*"). */
export function nodeSatisfies(have: string, wanted: string): boolean | undefined {
  const major = Number(/^v?(\d+)/.exec(have)?.[1]);
  const spec = wanted.trim();
  const m = /^(>=|\^|~)?\s*v?(\d+)(?:\.(?:\d+|x|\*))*$/.exec(spec);
  if (!m || Number.isNaN(major)) return undefined;
  const want = Number(m[2]);
  return m[1] === '>=' ? major >= want : major === want;
}
