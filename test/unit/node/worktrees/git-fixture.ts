// A real git repository in a scratch folder for the worktree tests, with Keel's config folder
// beside it (never inside), so each test sees the layout `keel run --worktree` makes.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findRepo, runGit, sessionLayout, type RepoInfo, type SessionLayout } from '../../../../src/node/worktrees/index.js';
import { scratchDir } from '../../../support/scratch.js';

export interface GitFixture {
  top: string;
  repo: RepoInfo;
  layout: SessionLayout;
  env: NodeJS.ProcessEnv;
  git(...args: string[]): string;
  write(rel: string, text: string): void;
  read(rel: string): string;
}

export async function gitFixture(files: Record<string, string> = { 'a.txt': 'one\ntwo\nthree\n' }): Promise<GitFixture> {
  const dir = fs.realpathSync(scratchDir('worktrees'));
  const top = path.join(dir, 'main');
  fs.mkdirSync(top);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', ...args], { cwd: top, encoding: 'utf8' });
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(top, rel)), { recursive: true });
    fs.writeFileSync(path.join(top, rel), text);
  };
  git('init', '-q', '-b', 'main');
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  const found = await findRepo(runGit, top);
  if (found.type !== 'repo') throw new Error(found.reason);
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config') };
  const read = (rel: string) => fs.readFileSync(path.join(top, rel), 'utf8');
  return { top, repo: found.repo, layout: sessionLayout(found.repo, env), env, git, write, read };
}

/** The paths `git worktree list` knows besides the main folder. */
export function gitWorktreePaths(f: GitFixture): string[] {
  return f
    .git('worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length))
    .filter((p) => p !== f.top);
}
