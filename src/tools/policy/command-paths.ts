// Checks the files a classified command names against the workspace, the way the kernel will
// open them: each path resolved segment by segment from the real directory the command runs in
// (so `link/../x` goes where the link leads), globs expanded against the folders they would
// list, folders a program reads recursively searched for secrets. Writes outside the workspace
// are refused; a read-only command that reads outside, a secret or through a risky glob asks.
import { WorkspaceError, type Workspace } from '../../kernel/index.js';
import type { CommandClassification, CommandPath } from './command-class.js';
import { segmentHasGlob, segmentMatcher, splitPattern, unescapeSegment } from './glob-match.js';
import { isSecretFile, protectedPathReason } from './protected-paths.js';

export interface PathProblem {
  type: 'deny' | 'ask';
  reason: string;
}

/** Matches of one glob we are willing to check; more and the command asks. */
const MAX_MATCHES = 1000;
/** Entries a recursive read may cover before the command asks instead of searching further. */
const MAX_WALK = 20_000;
/** Folders a recursive search does not enter: dependencies and repository internals hold no secret of the user's. */
const WALK_SKIPS = new Set(['node_modules', '.git']);

class Unchecked extends Error {}

/** The first problem with the files the command writes (any class), or undefined. `cwd` is workspace-relative. */
export async function commandWriteProblem(cls: CommandClassification, cwd: string, ws: Workspace): Promise<PathProblem | undefined> {
  for (const p of cls.paths) {
    const problem = p.access === 'write' ? await writeProblem(p, cwd, ws) : undefined;
    if (problem) return problem;
  }
  return undefined;
}

/** Why a read-only command (or test run) must ask about a file it reads, or undefined. */
export async function commandReadProblem(cls: CommandClassification, cwd: string, ws: Workspace): Promise<string | undefined> {
  if (cls.type !== 'read_only' && cls.type !== 'test_run') return undefined;
  for (const p of cls.paths) {
    const reason = p.access === 'read' ? await readProblem(p, cwd, ws) : undefined;
    if (reason) return reason;
  }
  return undefined;
}

async function writeProblem(p: CommandPath, cwd: string, ws: Workspace): Promise<PathProblem | undefined> {
  if (p.glob) return { type: 'ask', reason: `The command writes to ${p.path}, a pattern whose file cannot be known in advance.` };
  try {
    const rel = await resolveFrom(ws, cwd, p.path);
    const why = protectedPathReason(p.path, rel, cwd);
    return why ? { type: 'ask', reason: `The command writes to ${rel || '.'}, which ${why}; it always asks.` } : undefined;
  } catch (err) {
    if (isOutside(err)) return { type: 'deny', reason: `The command writes to ${p.path}, outside the workspace.` };
    return { type: 'ask', reason: `The command writes to ${p.path}, which could not be checked: ${(err as Error).message}` };
  }
}

async function readProblem(p: CommandPath, cwd: string, ws: Workspace): Promise<string | undefined> {
  try {
    const targets = p.glob ? await expandGlob(ws, cwd, p.path) : [await resolveFrom(ws, cwd, p.path)];
    for (const rel of targets) {
      if (isSecretFile(rel)) return `The command reads ${rel}, which may hold secrets.`;
      const found = p.recursive ? await secretUnder(ws, rel, p.followsLinks === true) : undefined;
      if (found) return `The command reads everything under ${rel || '.'}, including ${found}.`;
    }
    return undefined;
  } catch (err) {
    if (isOutside(err)) return `The command reads ${p.path}, outside the workspace.`;
    return `The command reads ${p.path}, which could not be checked: ${(err as Error).message}`;
  }
}

function isOutside(err: unknown): boolean {
  return (
    (err instanceof WorkspaceError || (err as Error)?.name === 'WorkspaceError') && (err as WorkspaceError).code === 'outside_workspace'
  );
}

function outside(path: string): WorkspaceError {
  return new WorkspaceError('outside_workspace', `${path} is outside the workspace.`);
}

/**
 * The canonical workspace path the kernel opens for `path` from `cwd`: `..` is taken from the
 * real folder reached so far, not from the text, since the kernel follows each link first.
 */
export async function resolveFrom(ws: Workspace, cwd: string, path: string): Promise<string> {
  if (path.startsWith('~')) throw outside(path);
  if (path.startsWith('/')) {
    if (path.split('/').includes('..')) throw new Unchecked('an absolute path with .. in it');
    return ws.resolve(path);
  }
  let current = await ws.resolve(cwd);
  for (const seg of path.split('/')) current = await step(ws, current, seg, path);
  return current;
}

async function step(ws: Workspace, current: string, seg: string, whole: string): Promise<string> {
  if (seg === '' || seg === '.') return current;
  if (seg === '..') {
    if (current === '') throw outside(whole);
    return current.includes('/') ? current.slice(0, current.lastIndexOf('/')) : '';
  }
  return ws.resolve(current ? `${current}/${seg}` : seg);
}

/** Every file a bash pattern may expand to, each resolved; throws when one leads outside. */
async function expandGlob(ws: Workspace, cwd: string, pattern: string): Promise<string[]> {
  if (pattern.startsWith('~') || pattern.startsWith('/')) throw outside(pattern);
  let current = [await ws.resolve(cwd)];
  for (const seg of splitPattern(pattern)) {
    const next: string[] = [];
    for (const dir of current) {
      if (!segmentHasGlob(seg)) next.push(await step(ws, dir, unescapeSegment(seg), pattern));
      else next.push(...(await matchIn(ws, dir, seg, pattern)));
    }
    if (next.length > MAX_MATCHES) throw new Unchecked(`${pattern} matches too many files to check`);
    current = next;
  }
  return current;
}

async function matchIn(ws: Workspace, dir: string, seg: string, pattern: string): Promise<string[]> {
  const matches = segmentMatcher(seg);
  const entries = await ws.readDir(dir).catch(() => []);
  const names = entries.map((e) => e.path.slice(e.path.lastIndexOf('/') + 1));
  // bash before 5.2 lets `.*` match `.` and `..`: check them too.
  if (seg.startsWith('.') || seg.startsWith('\\.')) names.push('.', '..');
  const out: string[] = [];
  for (const name of names.filter(matches)) {
    if (name.startsWith('-')) throw new Unchecked(`${pattern} matches ${name}, which the program would take for an option`);
    out.push(await step(ws, dir, name, pattern));
  }
  return out;
}

/** A secret file (or, when the program follows links, a link) under a folder, or undefined. */
async function secretUnder(ws: Workspace, rel: string, followsLinks: boolean): Promise<string | undefined> {
  if ((await ws.stat(rel))?.type !== 'directory') return undefined;
  const queue = [rel];
  let seen = 0;
  for (let i = 0; i < queue.length; i++) {
    for (const e of await ws.readDir(queue[i]!)) {
      if (++seen > MAX_WALK) throw new Unchecked(`${rel || '.'} holds too many files to search for secrets`);
      const name = e.path.slice(e.path.lastIndexOf('/') + 1);
      if (isSecretFile(e.path)) return `${e.path}, which may hold secrets`;
      if (e.type === 'directory' && !WALK_SKIPS.has(name)) queue.push(e.path);
      if (e.type === 'other' && followsLinks) return `${e.path}, a link it would follow`;
    }
  }
  return undefined;
}
