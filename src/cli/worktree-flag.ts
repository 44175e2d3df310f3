// `keel run --worktree[=NAME]`: a flag whose value is optional, which node's parseArgs cannot
// say, so it is taken out of the arguments before they are parsed (args.ts).
import { UsageError } from './cli-errors.js';

/** A bare word after --worktree is its name unless it is the last argument (then it is the task). */
const WORKTREE_NAME_WORD = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * `--worktree`, `--worktree=NAME` and `--worktree NAME` (its value is optional, which parseArgs
 * cannot say): taken out of the arguments before they are parsed.
 */
export function takeWorktreeFlag(args: readonly string[]): { args: string[]; worktree?: { name?: string } } {
  const at = args.findIndex((a) => a === '--worktree' || a.startsWith('--worktree='));
  if (at < 0) return { args: [...args] };
  if (args.slice(at + 1).some((a) => a === '--worktree' || a.startsWith('--worktree='))) throw new UsageError('--worktree is given twice.');
  const flag = args[at]!;
  const rest = [...args.slice(0, at), ...args.slice(at + 1)];
  if (flag.startsWith('--worktree=')) return { args: rest, worktree: { name: flag.slice('--worktree='.length) } };
  const next = args[at + 1];
  if (next !== undefined && WORKTREE_NAME_WORD.test(next) && at + 2 < args.length)
    return { args: [...args.slice(0, at), ...args.slice(at + 2)], worktree: { name: next } };
  return { args: rest, worktree: {} };
}

/**
 * `keel resume LOG [run flags]`: the run's options (no task: it is in the log) and the log. The
 * approvals and sandbox mode are these flags' (their defaults when none is given): the log's
 * header may only narrow them (resume-command.ts).
 */
