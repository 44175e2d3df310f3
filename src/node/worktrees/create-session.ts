// Starting a worktree session: a new branch `keel/<name>` from HEAD or the ref given, checked out
// by `git worktree add` in Keel's folder for the repository (never inside the main folder), the
// main folder's dependency folders linked in, and the session's record written last. Whatever
// fails on the way (a full disk, git refusing) is undone — worktree, branch, folder, record — so
// nothing is left half-made, and the error says so. What the person should know (a detached
// HEAD, uncommitted changes not carried, a taken name given a suffix) comes back as notices.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dependencyFolders, linkDependencies } from './dependencies.js';
import { type GitRunner, gitComplaint, runGit, WorktreeError } from './git.js';
import { branchExists, checkSessionName, headState, nameFromTask, type RepoInfo, resolveRef, sessionBranch } from './repo.js';
import { readRecord, removeRecord, saveRecord, type SessionCaps, type SessionLayout, type SessionRecord } from './session-store.js';

export interface SessionRequest {
  /** The name the person gave; absent: one made from the task's words. */
  name?: string;
  /** The ref to start from; absent: HEAD. */
  from?: string;
  task: string;
  caps: SessionCaps;
  /** The log the person named (--log); absent: the session's own under Keel's folder. */
  log?: string;
}

export interface CreatedSession {
  record: SessionRecord;
  notices: string[];
}

const MAX_SUFFIX = 99;

export async function createSession(
  repo: RepoInfo,
  layout: SessionLayout,
  request: SessionRequest,
  git: GitRunner = runGit,
): Promise<CreatedSession> {
  const notices: string[] = [];
  const head = await headState(git, repo.top);
  const base = request.from === undefined ? head.commit : await resolveRef(git, repo.top, request.from);
  if (request.from === undefined && head.branch === undefined)
    notices.push(`HEAD is detached at ${head.commit.slice(0, 12)}: the session starts from that commit`);
  if (head.dirty)
    notices.push(`the main folder has uncommitted changes: the worktree starts from ${request.from ?? 'HEAD'} and does not carry them`);
  const wanted = await checkSessionName(git, repo.top, request.name ?? nameFromTask(request.task));
  const name = await freeName(git, repo, layout, wanted);
  if (name !== wanted) notices.push(`${sessionBranch(wanted)} is taken: this session is ${sessionBranch(name)}`);
  fs.mkdirSync(layout.trees, { recursive: true });
  const record = newRecord(layout, request, name, base);
  await makeWorktree(git, repo, layout, record);
  if (record.dependencies.length) notices.push(`linked ${record.dependencies.join(', ')} from the main folder (read-only to the session)`);
  return { record, notices };
}

function newRecord(layout: SessionLayout, request: SessionRequest, name: string, base: string): SessionRecord {
  return {
    version: 1,
    name,
    branch: sessionBranch(name),
    // Real, as git records it, so Keel's list and git's agree path for path.
    path: path.join(fs.realpathSync(layout.trees), name),
    base,
    from: request.from ?? 'HEAD',
    createdAt: new Date().toISOString(),
    status: 'created',
    log: request.log ? path.resolve(request.log) : path.join(layout.logs, `${name}.jsonl`),
    caps: request.caps,
    dependencies: [],
  };
}

/** The name, or the first `name-N` whose branch, folder and record are all free. */
async function freeName(git: GitRunner, repo: RepoInfo, layout: SessionLayout, name: string): Promise<string> {
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    const taken =
      (await branchExists(git, repo.top, sessionBranch(candidate))) ||
      fs.existsSync(path.join(layout.trees, candidate)) ||
      readRecord(layout, candidate) !== undefined;
    if (!taken) return candidate;
  }
  throw new WorktreeError(`${sessionBranch(name)} and its ${MAX_SUFFIX} numbered variants are all taken; give another name`);
}

/** `git worktree add -b`, the links and the record; on any failure, everything undone. */
async function makeWorktree(git: GitRunner, repo: RepoInfo, layout: SessionLayout, record: SessionRecord): Promise<void> {
  let added = false;
  try {
    fs.mkdirSync(path.dirname(record.log), { recursive: true });
    added = true;
    const r = await git(repo.top, ['worktree', 'add', '--quiet', '-b', record.branch, '--', record.path, record.base]);
    if (r.code !== 0) throw new WorktreeError(gitComplaint(r));
    record.dependencies = linkDependencies(repo.top, record.path, await dependencyFolders(git, repo.top));
    await saveRecord(layout, record);
  } catch (err) {
    if (added) await undoWorktree(git, repo, layout, record);
    throw new WorktreeError(`could not make the worktree for ${record.branch}: ${oneLine(err)}; nothing was left behind`);
  }
}

/** Removes whatever of a session exists: its worktree (or git's note of it), branch, folder and record. */
export async function undoWorktree(git: GitRunner, repo: RepoInfo, layout: SessionLayout, record: SessionRecord): Promise<void> {
  await git(repo.top, ['worktree', 'remove', '--force', '--force', '--', record.path]);
  fs.rmSync(record.path, { recursive: true, force: true });
  await git(repo.top, ['worktree', 'prune']);
  if (await branchExists(git, repo.top, record.branch)) await git(repo.top, ['branch', '-D', '--', record.branch]);
  removeRecord(layout, record.name);
}

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]!.trim();
}
