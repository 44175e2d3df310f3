// Whether git, started in a folder of the workspace, works on a repository wholly inside it and
// configured to run nothing: the repository is found from that folder up to the workspace root
// (not above: a repository bigger than the workspace would show files outside it), its .git is a
// folder here (not a file pointing elsewhere, no shared object store or linked worktree), every
// setting of its config and included files is known to run nothing (git-config.ts), and no
// attributes file names a filter or a diff or merge driver git does not build in (a driver is a
// program some config names).
import type { Workspace } from '../../kernel/index.js';
import { includedPath, parseGitConfig, settingProblem } from './git-config.js';

/** Diff drivers git builds in (userdiff.c): patterns for function names, no program. */
const BUILTIN_DIFF = new Set(
  'ada bash bibtex cpp csharp css dts elixir fortran fountain golang html java kotlin markdown matlab objc pascal perl php python ruby rust scheme tex default'.split(
    ' ',
  ),
);
const BUILTIN_MERGE = new Set(['text', 'binary', 'union']);
/** Folders an attributes search does not enter (dependencies; git's own files are read separately). */
const SKIPPED = new Set(['.git', 'node_modules']);
const MAX_ATTRIBUTE_WALK = 50_000;
const MAX_INCLUDE_DEPTH = 5;
const decoder = new TextDecoder();

/** Why git started in `dir` (canonical, workspace-relative) must ask, or undefined. */
export async function gitRepositoryProblem(ws: Workspace, dir: string): Promise<string | undefined> {
  const top = await findTop(ws, dir);
  if (top === undefined) return 'git would look for its repository above the workspace, where it could read and show files outside it';
  const git = join(top, '.git');
  if ((await ws.stat(git))?.type !== 'directory') return `${git} is not a folder: the repository's data is elsewhere`;
  for (const elsewhere of ['commondir', 'objects/info/alternates'])
    if (await exists(ws, join(git, elsewhere))) return `${join(git, elsewhere)} makes git read a repository outside the workspace`;
  return (await configProblem(ws, join(git, 'config'), 0)) ?? (await attributesProblem(ws, top));
}

/** The nearest folder from `dir` up to the root that holds .git; undefined when none does. */
async function findTop(ws: Workspace, dir: string): Promise<string | undefined> {
  for (let at: string | undefined = dir; at !== undefined; at = parentOf(at)) {
    if (await exists(ws, join(at, '.git'))) return at;
  }
  return undefined;
}

async function configProblem(ws: Workspace, file: string, depth: number): Promise<string | undefined> {
  if (depth > MAX_INCLUDE_DEPTH) return 'the git config includes files too deeply to check';
  const text = await read(ws, file);
  if (text === undefined) return depth === 0 ? undefined : `${file}, which the git config includes, could not be read`;
  const parsed = parseGitConfig(text);
  if (parsed.type === 'bad') return `${file} line ${parsed.line} is ${parsed.why}`;
  for (const e of parsed.entries) {
    const problem = settingProblem(e);
    if (problem) return problem;
    const included = includedPath(e);
    if (included === undefined) continue;
    const target = await insidePath(ws, file, included);
    if (target === undefined) return `the git config includes ${included}, outside the workspace`;
    const inner = await configProblem(ws, target, depth + 1);
    if (inner) return inner;
  }
  return undefined;
}

/** An included path, resolved from the including file's folder, if it stays in the workspace. */
async function insidePath(ws: Workspace, from: string, path: string): Promise<string | undefined> {
  if (path.startsWith('~') || path.startsWith('/') || path === '') return undefined;
  const parent = parentOf(from) ?? '';
  return ws.resolve(join(parent, path)).catch(() => undefined);
}

async function attributesProblem(ws: Workspace, top: string): Promise<string | undefined> {
  const found = await attributeFiles(ws, top);
  if (!found) return `the repository holds more than ${MAX_ATTRIBUTE_WALK} entries, too many to check their git attributes`;
  for (const file of [join(top, '.git/info/attributes'), ...found]) {
    const text = await read(ws, file);
    const problem = text === undefined ? undefined : driverNamed(text);
    if (problem) return `${file} ${problem}`;
  }
  return undefined;
}

/** Every .gitattributes under the top folder; undefined when there are too many entries to walk. */
async function attributeFiles(ws: Workspace, top: string): Promise<string[] | undefined> {
  const found: string[] = [];
  const queue = [top];
  let seen = 0;
  for (let i = 0; i < queue.length; i++) {
    for (const e of await ws.readDir(queue[i]!).catch(() => [])) {
      if (++seen > MAX_ATTRIBUTE_WALK) return undefined;
      const name = e.path.slice(e.path.lastIndexOf('/') + 1);
      if (e.type === 'directory' && !SKIPPED.has(name)) queue.push(e.path);
      else if (name === '.gitattributes') found.push(e.path);
    }
  }
  return found;
}

/** What in an attributes file names a driver (a program some config names), or undefined. */
function driverNamed(text: string): string | undefined {
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    for (const attr of line.split(/\s+/).slice(1)) {
      const [name, value] = attr.split('=', 2) as [string, string | undefined];
      if (value === undefined) continue;
      if (name === 'filter') return `names the filter driver ${value}, a program git would run on the files`;
      if (name === 'diff' && !BUILTIN_DIFF.has(value)) return `names the diff driver ${value}, which git does not build in`;
      if (name === 'merge' && !BUILTIN_MERGE.has(value)) return `names the merge driver ${value}, which git does not build in`;
    }
  }
  return undefined;
}

async function read(ws: Workspace, file: string): Promise<string | undefined> {
  return ws.readFile(file).then(
    (b) => decoder.decode(b),
    () => undefined,
  );
}

async function exists(ws: Workspace, path: string): Promise<boolean> {
  return (await ws.stat(path).catch(() => undefined)) !== undefined;
}

function join(dir: string, name: string): string {
  return dir === '' || dir === '.' ? name : `${dir}/${name}`;
}

function parentOf(path: string): string | undefined {
  if (path === '' || path === '.') return undefined;
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}
