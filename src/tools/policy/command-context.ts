// The folders test runners and git start in, checked against the workspace: each resolved as
// the kernel would open it (links followed, never out of the workspace), then the runner's config
// search (runner-roots.ts) or git's repository (git-repository.ts) checked from there.
import { WorkspaceError, type Workspace } from '../../kernel/index.js';
import type { CommandClassification, LocatedProgram } from './command-class.js';
import { resolveFrom } from './command-paths.js';
import { gitRepositoryProblem } from './git-repository.js';
import { runnerRootProblem } from './runner-roots.js';
import type { RunnerName } from './test-runners.js';

/** Why a read-only command or test run must ask because of where it runs, or undefined. `cwd` is workspace-relative. */
export async function commandContextProblem(cls: CommandClassification, cwd: string, ws: Workspace): Promise<string | undefined> {
  if (cls.type !== 'read_only' && cls.type !== 'test_run') return undefined;
  for (const l of cls.located ?? []) {
    const problem = await locatedProblem(l, cwd, ws);
    if (problem) return `The command ${problem}.`;
  }
  return undefined;
}

async function locatedProblem(l: LocatedProgram, cwd: string, ws: Workspace): Promise<string | undefined> {
  let dir: string;
  try {
    dir = await resolveFrom(ws, cwd, l.cwd);
  } catch (err) {
    const outside = err instanceof WorkspaceError && err.code === 'outside_workspace';
    return outside ? `runs ${l.name} in ${l.cwd}, outside the workspace` : `runs ${l.name} in ${l.cwd}, which could not be checked`;
  }
  if (l.kind === 'git') return gitRepositoryProblem(ws, dir);
  return runnerRootProblem(ws, l.name as RunnerName, dir);
}
