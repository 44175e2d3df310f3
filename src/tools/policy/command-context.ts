// The folders test runners and git start in, checked against the workspace: each resolved as
// the kernel would open it (links followed, never out of the workspace), then the runner's config
// search (runner-roots.ts) or git's repository (git-repository.ts) checked from there. A search
// that climbs out of the workspace is contained by the sandbox, where the workspace's parents are
// out of reach: the run is then sandbox-only; a git repository that reaches out asks.
import { WorkspaceError, type Workspace } from '../../kernel/index.js';
import type { CommandClassification, LocatedProgram } from './command-class.js';
import { resolveFrom } from './command-paths.js';
import { gitRepositoryProblem } from './git-repository.js';
import { runnerRootProblem } from './runner-roots.js';
import type { RunnerName } from './test-runners.js';

export interface ContextProblem {
  /** ask: the run asks; sandbox_only: it runs unasked inside the sandbox only. */
  type: 'ask' | 'sandbox_only';
  reason: string;
}

/** Why a read-only command or test run asks (or needs the sandbox) because of where it runs, or undefined. `cwd` is workspace-relative. */
export async function commandContextProblem(cls: CommandClassification, cwd: string, ws: Workspace): Promise<ContextProblem | undefined> {
  if (cls.type !== 'read_only' && cls.type !== 'test_run') return undefined;
  let contained: ContextProblem | undefined;
  for (const l of cls.located ?? []) {
    const problem = await locatedProblem(l, cwd, ws);
    if (problem?.type === 'ask') return { type: 'ask', reason: `The command ${problem.reason}.` };
    contained ??= problem;
  }
  return contained;
}

async function locatedProblem(l: LocatedProgram, cwd: string, ws: Workspace): Promise<ContextProblem | undefined> {
  const ask = (reason: string | undefined): ContextProblem | undefined => (reason ? { type: 'ask', reason } : undefined);
  let dir: string;
  try {
    dir = await resolveFrom(ws, cwd, l.cwd);
  } catch (err) {
    const outside = err instanceof WorkspaceError && err.code === 'outside_workspace';
    return ask(outside ? `runs ${l.name} in ${l.cwd}, outside the workspace` : `runs ${l.name} in ${l.cwd}, which could not be checked`);
  }
  if (l.kind === 'git') return ask(await gitRepositoryProblem(ws, dir));
  const root = await runnerRootProblem(ws, l.name as RunnerName, dir);
  if (!root) return undefined;
  return { type: root.contained ? 'sandbox_only' : 'ask', reason: root.reason };
}
