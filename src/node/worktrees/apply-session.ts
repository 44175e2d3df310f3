// Landing a session in the main folder, never by a silent overwrite. The default applies the
// session's patch to the main folder's files only after `git apply --check` says every hunk fits:
// if the main folder changed the same lines (committed or not), nothing is written, both sides
// stay as they are, and the files are named. `merge` commits the worktree's state on its branch
// and runs `git merge`: a conflict leaves git's markers in the main folder, as the person asked.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { excludeLinks } from './dependencies.js';
import { type GitRunner, gitComplaint, gitOut, WorktreeError } from './git.js';
import { sessionChanges } from './session-changes.js';
import type { SessionRecord } from './session-store.js';

export type ApplyOutcome =
  | { type: 'applied'; files: string[] }
  | { type: 'nothing' }
  | { type: 'conflict'; files: string[]; detail: string }
  | { type: 'merged'; files: string[] }
  | { type: 'merge_conflict'; files: string[] };

export async function applySession(git: GitRunner, top: string, record: SessionRecord, mode: 'patch' | 'merge'): Promise<ApplyOutcome> {
  return mode === 'merge' ? mergeSession(git, top, record) : applyPatch(git, top, record);
}

async function applyPatch(git: GitRunner, top: string, record: SessionRecord): Promise<ApplyOutcome> {
  const { files, patch } = await sessionChanges(git, record);
  if (!patch.trim()) return { type: 'nothing' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-session-patch-'));
  const file = path.join(dir, 'session.patch');
  try {
    fs.writeFileSync(file, patch);
    const check = await git(top, ['apply', '--check', '--binary', '--', file]);
    if (check.code !== 0) return { type: 'conflict', files: refusedFiles(check.stderr, files), detail: gitComplaint(check) };
    await gitOut(git, top, ['apply', '--binary', '--', file], `applying ${record.name}`);
    return { type: 'applied', files };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The files `git apply --check` names ("patch failed: a.ts:3", "b.ts: already exists…"). */
function refusedFiles(stderr: string, changed: readonly string[]): string[] {
  const named = new Set<string>();
  for (const line of stderr.split('\n')) {
    const failed = /^error: patch failed: (.+):\d+$/.exec(line);
    const other =
      /^error: (.+?): (already exists in working directory|does not exist in index|No such file or directory|patch does not apply)$/.exec(
        line,
      );
    const file = failed?.[1] ?? other?.[1];
    if (file && changed.includes(file)) named.add(file);
  }
  return [...named];
}

async function mergeSession(git: GitRunner, top: string, record: SessionRecord): Promise<ApplyOutcome> {
  const { files } = await sessionChanges(git, record);
  await commitWorktree(git, record);
  const r = await git(top, ['merge', '--no-ff', '--no-edit', '--end-of-options', record.branch]);
  if (r.code === 0) return { type: 'merged', files };
  const unmerged = await git(top, ['diff', '--name-only', '--diff-filter=U', '-z']);
  const conflicted = unmerged.stdout.split('\0').filter(Boolean);
  if (conflicted.length) return { type: 'merge_conflict', files: conflicted };
  throw new WorktreeError(`git merge of ${record.branch} refused: ${gitComplaint(r.stderr ? r : { ...r, stderr: r.stdout })}`);
}

/** Commits what the worktree holds on its branch (if anything), so the branch is the session's change. */
async function commitWorktree(git: GitRunner, record: SessionRecord): Promise<void> {
  const what = `committing the session ${record.name} on ${record.branch}`;
  await gitOut(git, record.path, ['add', '--all', '--', '.', ...excludeLinks(record.dependencies)], what);
  const staged = await git(record.path, ['diff', '--cached', '--quiet']);
  if (staged.code === 0) return;
  const identity = ['-c', 'user.name=Keel', '-c', 'user.email=keel@localhost'];
  const named = (await git(record.path, ['config', 'user.email'])).code === 0;
  await gitOut(
    git,
    record.path,
    [...(named ? [] : identity), 'commit', '--quiet', '--no-verify', '-m', `keel: session ${record.name}`],
    what,
  );
}
