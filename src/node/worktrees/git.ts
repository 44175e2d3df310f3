// Git, run as a program with its arguments as a list (never a shell string), in the C locale so
// its messages read the same everywhere and with no terminal prompt (a credential helper asking
// would hang a headless run). A failure becomes a WorktreeError carrying git's first line.
// Keel's own git calls run no program the repository names: no hooks (worktree add would run
// post-checkout, merge post-merge) and no fsmonitor (git status would start it) — a file in
// .git is not authority to run code on Keel's behalf.
import { execFile } from 'node:child_process';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** How a module runs git; a test passes one that fails at a chosen step (a full disk). */
export type GitRunner = (cwd: string, args: readonly string[], env?: Readonly<Record<string, string>>) => Promise<GitResult>;

/** A worktree operation that cannot be done, said in one line for the person. */
export class WorktreeError extends Error {
  override name = 'WorktreeError';
}

const MAX_OUTPUT = 256 * 1024 * 1024;
const NO_REPOSITORY_PROGRAMS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];

export const runGit: GitRunner = (cwd, args, env = {}) =>
  new Promise((resolve) => {
    const options = {
      cwd,
      maxBuffer: MAX_OUTPUT,
      env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', ...env },
    };
    execFile('git', [...NO_REPOSITORY_PROGRAMS, ...args], options, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0;
      const missing = (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
      resolve({ code, stdout: String(stdout), stderr: missing ? 'git is not installed (not on PATH)' : String(stderr) });
    });
  });

/** git's first line of complaint, without its `fatal:`/`error:` prefix. */
export function gitComplaint(r: GitResult): string {
  const line = r.stderr.split('\n').find((l) => l.trim()) ?? `git exited with ${r.code}`;
  return line.replace(/^(fatal|error): /, '').trim();
}

/** Runs git and returns its output, or throws a WorktreeError saying what failed. */
export async function gitOut(
  git: GitRunner,
  cwd: string,
  args: readonly string[],
  what: string,
  env?: Record<string, string>,
): Promise<string> {
  const r = await git(cwd, args, env);
  if (r.code !== 0) throw new WorktreeError(`${what}: ${gitComplaint(r)}`);
  return r.stdout;
}
