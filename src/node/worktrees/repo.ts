// What Keel must know of the folder a worktree session starts from: whether it is in a git
// repository at all (if not, the task runs in the folder as before), its top folder and shared
// git folder, where HEAD is (a branch or a detached commit), whether it has uncommitted changes
// (they are not carried into a worktree, and the person is told), and the checks on names the
// person or the model gives: a session name, the branch made from it, the ref it starts from.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type GitRunner, gitComplaint, gitOut, WorktreeError } from './git.js';

export interface RepoInfo {
  /** The main folder: the top of the main worktree (real path). */
  top: string;
  /** The git folder every worktree shares (real path): what keys Keel's state for this repository. */
  commonDir: string;
}

export type RepoLookup = { type: 'repo'; repo: RepoInfo } | { type: 'not_repo'; reason: string };

export async function findRepo(git: GitRunner, folder: string): Promise<RepoLookup> {
  const r = await git(folder, ['rev-parse', '--path-format=absolute', '--git-common-dir', '--show-toplevel']);
  if (r.code !== 0) return { type: 'not_repo', reason: `${folder} is not in a git repository (${gitComplaint(r)})` };
  const [commonDir, shown] = r.stdout.split('\n');
  if (!commonDir || !shown) return { type: 'not_repo', reason: `${folder} is a bare git repository or its git folder itself` };
  // The main worktree is the common git folder's parent; from inside a linked worktree the top is that one.
  const top = path.basename(commonDir) === '.git' ? path.dirname(commonDir) : shown;
  return { type: 'repo', repo: { top: fs.realpathSync(top), commonDir: fs.realpathSync(commonDir) } };
}

/** A short, stable folder name for a repository: its folder's name and a hash of its git folder. */
export function repoKey(repo: RepoInfo): string {
  const hash = createHash('sha256').update(repo.commonDir).digest('hex').slice(0, 12);
  const base =
    path
      .basename(repo.top)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'repo';
  return `${base}-${hash}`;
}

export interface HeadState {
  /** The branch HEAD is on; undefined when HEAD is detached. */
  branch: string | undefined;
  commit: string;
  /** Uncommitted changes (untracked files too) in the main folder. */
  dirty: boolean;
}

export async function headState(git: GitRunner, top: string): Promise<HeadState> {
  const commit = (await gitOut(git, top, ['rev-parse', '--verify', 'HEAD^{commit}'], 'the repository has no commit yet')).trim();
  const ref = await git(top, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  const status = await gitOut(git, top, ['status', '--porcelain', '--untracked-files=normal'], 'git status failed');
  return { branch: ref.code === 0 ? ref.stdout.trim() : undefined, commit, dirty: status.trim() !== '' };
}

/** The commit a ref names; a ref that looks like an option, or names nothing, is refused. */
export async function resolveRef(git: GitRunner, top: string, ref: string): Promise<string> {
  if (ref.startsWith('-') || /[\0\n]/.test(ref)) throw new WorktreeError(`--from ${JSON.stringify(ref)} is not a ref`);
  const r = await git(top, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (r.code !== 0) throw new WorktreeError(`--from ${JSON.stringify(ref)} names no commit in ${top}`);
  return r.stdout.trim();
}

const SESSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** A session name: a folder name and a branch's last part at once, checked by git's own rule too. */
export async function checkSessionName(git: GitRunner, top: string, name: string): Promise<string> {
  if (!SESSION_NAME.test(name) || name.endsWith('.lock') || name.includes('..'))
    throw new WorktreeError(
      `the session name ${JSON.stringify(name)} is not usable: letters, digits, ".", "_" and "-", starting with a letter or digit, at most 63`,
    );
  const r = await git(top, ['check-ref-format', '--branch', sessionBranch(name)]);
  if (r.code !== 0) throw new WorktreeError(`the branch ${sessionBranch(name)} is not a valid branch name`);
  return name;
}

export function sessionBranch(name: string): string {
  return `keel/${name}`;
}

/** A name from the task's first words when the person gave none ("Fix the tests!" → fix-the-tests). */
export function nameFromTask(task: string): string {
  const words = task.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const name = words.slice(0, 5).join('-').slice(0, 40).replace(/-+$/, '');
  return name || 'session';
}

export async function branchExists(git: GitRunner, top: string, branch: string): Promise<boolean> {
  return (await git(top, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`])).code === 0;
}
