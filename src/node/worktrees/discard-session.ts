// Discarding a session: its worktree and branch removed with git (a folder deleted by hand is
// pruned from git's list first, as `git worktree prune` does), then Keel's record and the
// session's own log. A log the person named with --log is theirs and stays.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { undoWorktree } from './create-session.js';
import type { GitRunner } from './git.js';
import type { RepoInfo } from './repo.js';
import type { SessionLayout, SessionRecord } from './session-store.js';

export async function discardSession(git: GitRunner, repo: RepoInfo, layout: SessionLayout, record: SessionRecord): Promise<string[]> {
  const notices: string[] = [];
  if (!fs.existsSync(record.path)) notices.push(`${record.path} was already deleted: git's note of it is pruned`);
  await undoWorktree(git, repo, layout, record);
  if (path.dirname(record.log) === layout.logs) fs.rmSync(record.log, { force: true });
  return notices;
}
