// The main folder's installed dependencies, made available in a new worktree the cheap way: a
// symbolic link from the worktree to the main folder's folder, made in milliseconds whatever its
// size. It stays read-only to the session: the model's file tools resolve the link and refuse a
// path outside the workspace (path-resolver.ts), and a sandboxed command sees the target through
// a read-only bind (NodeSandboxOptions.readOnly), so only a command the person lets run
// unsandboxed could write through it. Only top-level folders git ignores are linked: a tracked
// `vendor/` is the branch's own and comes with the checkout.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GitRunner } from './git.js';

/** Folder names installers fill that a repository ignores (npm/pnpm/yarn, Python virtualenvs). */
const DEPENDENCY_FOLDERS = ['node_modules', '.venv', 'venv', '.yarn/cache', 'bower_components'] as const;

/** The dependency folders of the main folder that git ignores there and the worktree lacks. */
export async function dependencyFolders(git: GitRunner, top: string): Promise<string[]> {
  const present = DEPENDENCY_FOLDERS.filter((name) => isRealFolder(path.join(top, name)));
  const ignored: string[] = [];
  for (const name of present) if ((await git(top, ['check-ignore', '--quiet', '--', name])).code === 0) ignored.push(name);
  return ignored;
}

/** Links each folder into the worktree; the absolute targets, for the sandbox's read-only binds. */
export function linkDependencies(top: string, worktree: string, folders: readonly string[]): string[] {
  const linked: string[] = [];
  for (const name of folders) {
    const at = path.join(worktree, name);
    if (fs.existsSync(at)) continue;
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.symlinkSync(path.join(top, name), at, 'dir');
    linked.push(name);
  }
  return linked;
}

/** Git pathspecs leaving the links out: git sees a link as a file, not the ignored folder. */
export function excludeLinks(dependencies: readonly string[]): string[] {
  return dependencies.map((name) => `:(exclude,top)${name}`);
}

function isRealFolder(p: string): boolean {
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  return !!st?.isDirectory();
}
