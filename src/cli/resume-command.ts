// `keel resume LOG`: continues a task whose run was interrupted (Ctrl+C twice, a crash, kill -9)
// from its log, as a reloaded window resumes one in VS Code: the runtime is rebuilt from the
// events, a call that was approved or running when the run stopped is asked again (never re-run
// blindly; refused without a terminal), and the run goes on, appending to the same log. Only a
// log sealed by this user's key is continued (task-log.ts: its header and its "for this task"
// approvals would act for the user). The approvals, command rules and sandbox mode are this
// command line's — its flags, or their defaults — narrowed by the log's header: a header may take
// authority away, never give it. It runs through the same task path as `keel run`
// (src/cli/task-run.ts): the same output modes, result record and exit status. `--approve-plan`
// instead continues a task whose Plan run ended with a plan: the approval is sent and the task
// goes on in Agent mode. A Plan run needs no approvals, so its header has none to narrow with:
// approving the plan is when the user gives them, on this command line; the header's deny rules
// and a stricter sandbox still hold. A task stopped cleanly (one Ctrl+C, SIGTERM: its open calls
// were closed) resumes by a message telling the model to go on, said on stderr; `keel continue`
// (continue-command.ts) sends one of the user's own.
import * as path from 'node:path';
import { isLiveStatus, replay, type RunPolicy } from '../kernel/index.js';
import { existingLogKey, logKeyFile } from '../node/log-seal.js';
import type { LoadedLog } from '../node/jsonl-store.js';
import { lockLog } from '../node/log-lock.js';
import { InputError, parseResumeArgs, type RunOptions } from './args.js';
import { approveWords, narrowedBy, narrowPolicy } from './policy-ceiling.js';
import { runAtTerminal, type CliIo } from './run.js';
import { readTaskLog, requireSealed } from './task-log.js';
import { noPlanWaiting, planReplyInput } from '../compose/plan-approval.js';
import { runPolicy, withPolicy } from './task-runtime.js';

export async function runResumeCommand(argv: string[], io: CliIo & { cwd: string }): Promise<number> {
  const { options, log, approvePlan } = parseResumeArgs(argv, io.cwd);
  const file = path.resolve(io.cwd, log);
  const loaded = readSealedLog(file, log, io.env, 'resumed');
  const state = replay(loaded.events);
  const status = state.status;
  if (approvePlan) {
    const resumed = planPolicy(options, loaded.policy, io.stderr);
    // The plan a Plan run ended with, carried out in Agent mode: the message the editor's Approve plan sends.
    const why = noPlanWaiting(state);
    const send = planReplyInput({ type: 'approve' });
    if (why || !send) throw new InputError(`${log} has no plan waiting for approval: ${why ?? 'nothing to send'}.`);
    return runAtTerminal(resumed, io, { type: 'resume', log: file, events: loaded.events, send });
  }
  const resumed = resumedPolicy(options, loaded.policy, io.stderr);
  if (status === 'cancelled') {
    // Stopped cleanly (Ctrl+C, SIGTERM): its open calls were closed, so going on is a message.
    io.stderr.write(`keel: ${log} was stopped; resuming sends it "${GO_ON}" (keel continue ${log} "…" sends your own)\n`);
    return runAtTerminal(resumed, io, { type: 'resume', log: file, events: loaded.events, send: { text: GO_ON } });
  }
  if (!isLiveStatus(status))
    throw new InputError(
      `${log} holds a task that was not interrupted (it ${ENDED[status] ?? 'has not started'}): there is nothing to resume; keel continue ${log} "…" sends it a follow-up.`,
    );
  return runAtTerminal(resumed, io, { type: 'resume', log: file, events: loaded.events });
}

/** What `keel resume` sends a task that was stopped cleanly. */
const GO_ON = 'Go on with the task from where it was stopped.';

/**
 * The log `keel resume` or `keel continue` appends to: not being written by another process,
 * every line readable, and sealed by this user's key (task-log.ts).
 */
export function readSealedLog(file: string, given: string, env: NodeJS.ProcessEnv, doing: string): LoadedLog {
  const key = existingLogKey(env);
  refuseWhileWritten(file, given);
  const loaded = readTaskLog(file, given, doing, key);
  requireSealed(loaded, given, logKeyFile(env), key);
  return loaded;
}

/**
 * A log another process is writing is not read at all: what it holds is changing, and the answer
 * the user needs is who is writing it (the run itself takes the lock again, src/cli/task-run.ts).
 */
function refuseWhileWritten(file: string, given: string): void {
  const probe = lockLog(file, given);
  if (probe.type === 'busy') throw new InputError(probe.message);
  probe.release();
}

/**
 * The command line's policy narrowed by the header's, and a notice when the two differ: what the
 * header took away, or what the interrupted run approved that this command line does not.
 */
export function resumedPolicy(options: RunOptions, header: RunPolicy | undefined, stderr: NodeJS.WritableStream): RunOptions {
  if (!header) return options;
  const given = runPolicy(options);
  const narrowed = narrowPolicy(given, header);
  const taken = narrowedBy(given, narrowed);
  if (taken.length) stderr.write(`keel: the run this resumes was started with less, so this resume does not ${taken.join('; ')}\n`);
  noticeUnused(header, narrowed, stderr);
  return withPolicy(options, narrowed);
}

/** Says what the interrupted run approved that this command line does not give again. */
function noticeUnused(header: RunPolicy, narrowed: RunPolicy, stderr: NodeJS.WritableStream): void {
  const unused = narrowedBy(header, narrowed).filter((t) => !t.startsWith('sandbox'));
  if (unused.length)
    stderr.write(
      `keel: the interrupted run approved ${approveWords(header)}; this resume approves ${approveWords(narrowed)} — approvals come from this command line (give them again to continue as it ran)\n`,
    );
}

/**
 * The policy a plan is carried out under: this command line's approvals and allow rules, with
 * every deny rule of the Plan run's header and the stricter of the two sandbox modes.
 */
function planPolicy(options: RunOptions, header: RunPolicy | undefined, stderr: NodeJS.WritableStream): RunOptions {
  if (!header) return options;
  const given = runPolicy(options);
  const narrowed = narrowPolicy(given, { ...given, commandsDeny: header.commandsDeny, ...sandboxOf(header) });
  noticeUnused(header, narrowed, stderr);
  return withPolicy(options, narrowed);
}

function sandboxOf(p: RunPolicy): Pick<RunPolicy, 'sandbox'> {
  return p.sandbox ? { sandbox: p.sandbox } : {};
}

const ENDED: Record<string, string> = {
  completed: 'completed',
  failed: 'failed',
  cancelled: 'was stopped',
  idle: 'is waiting for a message',
};
