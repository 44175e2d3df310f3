// Finds the project's test command when the model gives none: package.json's test script,
// then the JS runners' configs (run with npx --no-install: a missing runner is an error, never a
// download), pytest, go, cargo, and node's built-in runner.
import type { Workspace } from '../../kernel/index.js';

export interface DetectedCommand {
  command: string;
  /** What gave it away, for the observation. */
  because: string;
}

const NPM_PLACEHOLDER = /no test specified/;
const decoder = new TextDecoder();

export async function detectTestCommand(ws: Workspace): Promise<DetectedCommand | undefined> {
  const names = new Set((await ws.readDir('').catch(() => [])).map((e) => e.path));
  const read = async (p: string) => (names.has(p) ? decoder.decode(await ws.readFile(p).catch(() => new Uint8Array())) : '');
  const pkg = parseJson(await read('package.json'));
  const script = pkg?.scripts?.test;
  if (typeof script === 'string' && !NPM_PLACEHOLDER.test(script))
    return { command: 'npm test', because: `package.json scripts.test is "${script}"` };
  const deps = { ...pkg?.dependencies, ...pkg?.devDependencies } as Record<string, unknown>;
  const has = (re: RegExp) => [...names].some((n) => re.test(n));
  if ('vitest' in deps || has(/^vitest\.config\./)) return { command: 'npx --no-install vitest run', because: 'vitest is configured' };
  if ('jest' in deps || has(/^jest\.config\./)) return { command: 'npx --no-install jest', because: 'jest is configured' };
  if ('mocha' in deps || has(/^\.mocharc/)) return { command: 'npx --no-install mocha', because: 'mocha is configured' };
  if (await isPytest(names, read, ws)) return { command: 'python3 -m pytest', because: 'a pytest configuration or tests folder' };
  if (names.has('go.mod')) return { command: 'go test -v ./...', because: 'go.mod' };
  if (names.has('Cargo.toml')) return { command: 'cargo test', because: 'Cargo.toml' };
  if (pkg || (await hasNodeTests(ws))) return { command: 'node --test', because: 'a Node project without a test script' };
  return undefined;
}

async function isPytest(names: Set<string>, read: (p: string) => Promise<string>, ws: Workspace): Promise<boolean> {
  if (names.has('pytest.ini') || names.has('conftest.py')) return true;
  if (/\[tool\.pytest/.test(await read('pyproject.toml'))) return true;
  if (/\[tool:pytest\]/.test(await read('setup.cfg')) || /\[pytest\]/.test(await read('tox.ini'))) return true;
  for (const dir of ['tests', 'test']) {
    if (!names.has(dir)) continue;
    const entries = await ws.readDir(dir).catch(() => []);
    if (entries.some((e) => /\/(test_.*|.*_test)\.py$|\/conftest\.py$/.test(e.path))) return true;
  }
  return false;
}

async function hasNodeTests(ws: Workspace): Promise<boolean> {
  const entries = await ws.readDir('test').catch(() => []);
  return entries.some((e) => /\.test\.[cm]?js$/.test(e.path));
}

function parseJson(text: string): { scripts?: Record<string, unknown>; dependencies?: object; devDependencies?: object } | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
