// A session's whole change against the commit it started from: what its worktree holds now —
// committed on the branch or not, new files included, the linked dependency folders left out —
// read through a temporary index so the worktree's own index is never touched.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { excludeLinks } from './dependencies.js';
import { type GitRunner, gitOut, WorktreeError } from './git.js';
import type { SessionRecord } from './session-store.js';

interface ChangedFile {
  path: string;
  change: 'added' | 'modified' | 'deleted';
}

export interface SessionChanges {
  /** Paths changed, relative to the repository's top. */
  files: string[];
  /** The same paths with what happened to each (renames are a deletion and an addition). */
  changed: ChangedFile[];
  /** A binary-safe patch `git apply` takes. */
  patch: string;
}

export async function sessionChanges(git: GitRunner, record: SessionRecord): Promise<SessionChanges> {
  if (!fs.existsSync(record.path)) throw new WorktreeError(`the worktree folder of ${record.name} is gone (${record.path})`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-session-index-'));
  const env = { GIT_INDEX_FILE: path.join(dir, 'index') };
  try {
    const what = `reading the changes of ${record.name}`;
    await gitOut(git, record.path, ['read-tree', record.base], what, env);
    await gitOut(git, record.path, ['add', '--all', '--', '.', ...excludeLinks(record.dependencies)], what, env);
    const names = await gitOut(git, record.path, ['diff', '--cached', '--name-status', '--no-renames', '-z', record.base], what, env);
    const patch = await gitOut(git, record.path, ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff', record.base], what, env);
    const changed = changedFiles(names);
    return { files: changed.map((c) => c.path), changed, patch };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const CHANGE: Record<string, ChangedFile['change']> = { A: 'added', D: 'deleted' };

/** `--name-status -z`: a status letter, then its path, each ended by NUL. */
function changedFiles(out: string): ChangedFile[] {
  const parts = out.split('\0').filter(Boolean);
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) files.push({ path: parts[i + 1]!, change: CHANGE[parts[i]![0]!] ?? 'modified' });
  return files;
}
