// `keel resume LOG`: continues a task whose run was interrupted (Ctrl+C twice, a crash, kill -9)
// from its log, as a reloaded window resumes one in VS Code: the runtime is rebuilt from the
// events, a call that was approved or running when the run stopped is asked again (never re-run
// blindly; refused without a terminal), and the run goes on, appending to the same log. The
// approvals and command rules are the log header's unless flags are given. It runs through the
// same task path as `keel run` (src/cli/task-run.ts): the same output modes, result record and
// exit status. `--approve-plan` instead continues a task whose Plan run ended with a plan: the
// approval is sent and the task goes on in Agent mode.
import * as path from 'node:path';
import { isLiveStatus, replay } from '../kernel/index.js';
import { InputError, parseResumeArgs, type RunOptions } from './args.js';
import { runAtTerminal, type CliIo } from './run.js';
import { readTaskLog } from './task-log.js';
import { noPlanWaiting, planReplyInput } from '../compose/plan-approval.js';
import { withPolicy } from './task-runtime.js';

export async function runResumeCommand(argv: string[], io: CliIo & { cwd: string }): Promise<number> {
  const { options, log, policyGiven, approvePlan } = parseResumeArgs(argv, io.cwd);
  const file = path.resolve(io.cwd, log);
  const loaded = readTaskLog(file, log, 'resumed');
  const state = replay(loaded.events);
  const status = state.status;
  const resumed: RunOptions = policyGiven || !loaded.policy ? options : withPolicy(options, loaded.policy);
  if (approvePlan) {
    // The plan a Plan run ended with, carried out in Agent mode: the message the editor's Approve plan sends.
    const why = noPlanWaiting(state);
    const send = planReplyInput({ type: 'approve' });
    if (why || !send) throw new InputError(`${log} has no plan waiting for approval: ${why ?? 'nothing to send'}.`);
    return runAtTerminal(resumed, io, { type: 'resume', log: file, events: loaded.events, send });
  }
  if (!isLiveStatus(status))
    throw new InputError(
      `${log} holds a task that was not interrupted (it ${ENDED[status] ?? 'has not started'}): there is nothing to resume.`,
    );
  return runAtTerminal(resumed, io, { type: 'resume', log: file, events: loaded.events });
}

const ENDED: Record<string, string> = {
  completed: 'completed',
  failed: 'failed',
  cancelled: 'was stopped',
  idle: 'is waiting for a message',
};
