// A session's whole change against the commit it started from: what its worktree holds now —
// committed on the branch or not, new files included, the linked dependency folders left out —
// read through a temporary index so the worktree's own index is never touched.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { excludeLinks } from './dependencies.js';
import { type GitRunner, gitOut, WorktreeError } from './git.js';
import type { SessionRecord } from './session-store.js';

export interface SessionChanges {
  /** Paths changed, relative to the repository's top. */
  files: string[];
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
    const names = await gitOut(git, record.path, ['diff', '--cached', '--name-only', '-z', record.base], what, env);
    const patch = await gitOut(git, record.path, ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff', record.base], what, env);
    return { files: names.split('\0').filter(Boolean), patch };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
