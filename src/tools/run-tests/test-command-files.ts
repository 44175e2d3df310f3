// Facts about the project's JavaScript that placing an unplaced syntax error needs: the test
// files a command names (its path arguments, and the package script it runs: `uvu test`,
// `mocha 'test/**/*.js'`) and the module kind package.json's "type" gives a file.
import type { Workspace } from '../../kernel/index.js';
import { CHECKABLE } from './js-imports.js';
import type { ModuleKind } from './syntax-check.js';

/** Test files taken from the folders a command names, at most. */
const MAX_TEST_FILES = 30;
const SKIPPED_DIR = /(?:^|\/)(?:node_modules|\.[^/]*)$/;
/** `npm test`, `npm run x`, `pnpm x`, `yarn run x`, `bun run x`: the package script a command runs. */
const SCRIPT_RUN = /^(?:npm|pnpm|yarn|bun)$/;
const decoder = new TextDecoder();

/** The JavaScript files named by the command's path arguments (folders listed), in order. */
export async function commandTestFiles(ws: Workspace, command: string): Promise<string[]> {
  const out: string[] = [];
  for (const word of await commandWords(ws, command)) {
    if (out.length >= MAX_TEST_FILES) break;
    const path = pathPart(word);
    if (path === undefined) continue;
    const stat = await ws.stat(path).catch(() => undefined);
    if (stat?.type === 'file' && CHECKABLE.test(path)) out.push(path);
    else if (stat?.type === 'directory') out.push(...(await filesUnder(ws, path, MAX_TEST_FILES - out.length)));
  }
  return [...new Set(out)];
}

/** The command's words, and those of the package script it runs. */
async function commandWords(ws: Workspace, command: string): Promise<string[]> {
  const words = splitWords(command);
  const script = scriptName(words);
  if (script === undefined) return words;
  const pkg = await readJson(ws, 'package.json');
  const text = (pkg?.scripts as Record<string, unknown> | undefined)?.[script];
  return typeof text === 'string' ? [...words, ...splitWords(text)] : words;
}

function scriptName(words: readonly string[]): string | undefined {
  if (!SCRIPT_RUN.test(words[0] ?? '')) return undefined;
  const rest = words.slice(1).filter((w) => !w.startsWith('-'));
  if (rest[0] === 'test' || rest[0] === 't') return 'test';
  return rest[0] === 'run' || rest[0] === 'run-script' ? rest[1] : undefined;
}

/** Words split at blanks and shell operators, quotes removed. */
function splitWords(text: string): string[] {
  return text
    .split(/\s+|&&|\|\||[;|]/)
    .map((w) => w.replace(/^['"]|['"]$/g, ''))
    .filter(Boolean);
}

/** A word as a path: options are not, and a glob stands for the folder before its first pattern. */
function pathPart(word: string): string | undefined {
  if (word.startsWith('-') || word.includes('=')) return undefined;
  const segments = word.replace(/^\.\//, '').split('/');
  const plain = segments.findIndex((s) => /[*?[{]/.test(s));
  const path = (plain < 0 ? segments : segments.slice(0, plain)).join('/').replace(/\/$/, '');
  return path && path !== '.' ? path : undefined;
}

async function filesUnder(ws: Workspace, dir: string, max: number): Promise<string[]> {
  const out: string[] = [];
  const queue = [dir];
  while (queue.length && out.length < max) {
    const entries = await ws.readDir(queue.shift()!).catch(() => []);
    for (const e of entries.sort((a, b) => (a.path < b.path ? -1 : 1))) {
      if (e.type === 'file' && CHECKABLE.test(e.path) && out.length < max) out.push(e.path);
      else if (e.type === 'directory' && !SKIPPED_DIR.test(e.path)) queue.push(e.path);
    }
  }
  return out;
}

/** The "type" of the package.json nearest the file (inside the workspace), when it says one. */
export async function packageType(ws: Workspace, file: string): Promise<ModuleKind | undefined> {
  const parts = file.split('/').slice(0, -1);
  for (let n = parts.length; n >= 0; n--) {
    const pkg = await readJson(ws, [...parts.slice(0, n), 'package.json'].join('/'));
    if (!pkg) continue;
    return pkg.type === 'module' || pkg.type === 'commonjs' ? pkg.type : undefined;
  }
  return undefined;
}

async function readJson(ws: Workspace, path: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = JSON.parse(decoder.decode(await ws.readFile(path)));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
