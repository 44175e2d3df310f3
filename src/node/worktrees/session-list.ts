// What `keel worktree list` shows: Keel's sessions for the repository, each checked against git's
// own `worktree list` (a folder deleted by hand is said to be missing, as `git worktree prune`
// would find it; a session whose Keel process is gone is said to have stopped), and the worktrees
// Keel made under its folder that no record tracks any more — listed for cleanup, never deleted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type GitRunner, gitOut } from './git.js';
import type { RepoInfo } from './repo.js';
import { sessionChanges } from './session-changes.js';
import { readRecords, type SessionLayout, type SessionRecord } from './session-store.js';
import { processAlive } from '../process-alive.js';

interface GitWorktree {
  path: string;
  branch: string | undefined;
  /** git's `prunable` mark: its folder is gone. */
  prunable: boolean;
}

export interface SessionRow {
  record: SessionRecord;
  /** The status in words: the record's, or what the folder and the process say now (one source for every host). */
  status: string;
  /** Files changed against the base; undefined when the folder is gone. */
  filesChanged: number | undefined;
}

export interface SessionListing {
  sessions: SessionRow[];
  /** Worktrees under Keel's folder no record names: for the person to remove. */
  untracked: GitWorktree[];
  unreadable: string[];
}

async function gitWorktrees(git: GitRunner, top: string): Promise<GitWorktree[]> {
  const out = await gitOut(git, top, ['worktree', 'list', '--porcelain'], 'git worktree list failed');
  const trees: GitWorktree[] = [];
  for (const block of out.split('\n\n')) {
    const lines = block.split('\n');
    const at = lines.find((l) => l.startsWith('worktree '));
    if (!at) continue;
    const branch = lines.find((l) => l.startsWith('branch '))?.slice('branch refs/heads/'.length);
    trees.push({ path: at.slice('worktree '.length), branch, prunable: lines.some((l) => l.startsWith('prunable')) });
  }
  return trees;
}

export async function listSessions(git: GitRunner, repo: RepoInfo, layout: SessionLayout): Promise<SessionListing> {
  const trees = await gitWorktrees(git, repo.top);
  const { records, unreadable } = readRecords(layout);
  const sessions: SessionRow[] = [];
  for (const record of records) sessions.push(await sessionRow(git, record, trees));
  const tracked = new Set(records.map((r) => r.path));
  const mine = (fs.existsSync(layout.trees) ? fs.realpathSync(layout.trees) : layout.trees) + path.sep;
  const untracked = trees.filter((t) => t.path.startsWith(mine) && !tracked.has(t.path));
  return { sessions, untracked, unreadable };
}

async function sessionRow(git: GitRunner, record: SessionRecord, trees: readonly GitWorktree[]): Promise<SessionRow> {
  const tree = trees.find((t) => t.path === record.path);
  if (!fs.existsSync(record.path))
    return { record, status: 'missing: its folder was deleted by hand (git worktree prune drops it)', filesChanged: undefined };
  if (!tree) return { record, status: 'not a git worktree any more', filesChanged: undefined };
  const changes = await sessionChanges(git, record).catch(() => undefined);
  return { record, status: liveStatus(record), filesChanged: changes?.files.length };
}

/** A run's result status in words; Keel's own (created, running, applied) are words already. */
const STATUS_WORDS: Record<string, string> = { over_budget: 'stopped at its cap' };

/** "running" only while the process that runs it lives; otherwise Keel was stopped mid-run. */
function liveStatus(record: SessionRecord): string {
  if (record.status !== 'running' || record.pid === undefined) return STATUS_WORDS[record.status] ?? record.status;
  return processAlive(record.pid) ? 'running' : 'stopped (Keel exited mid-run)';
}
