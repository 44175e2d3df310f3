// `keel continue LOG "message"`: a follow-up to a task that has ended — done, failed, stopped,
// or waiting for a message — sent as the next user message and run as `keel resume` runs (the
// same task path, output modes, result record and exit status), appending to the same log. A
// task interrupted mid-run has its open calls closed first ("Not run: the task was interrupted"),
// as a message sent in VS Code does. The authority rules are resume's: only a log sealed by this
// user's key, not being written by another process, and the approvals from this command line,
// the log's header only narrowing them. `--mode` sends the message in that mode.
import * as path from 'node:path';
import { parseContinueArgs } from './args.js';
import { readSealedLog, resumedPolicy } from './resume-command.js';
import { runAtTerminal, type CliIo } from './run.js';

export async function runContinueCommand(argv: string[], io: CliIo & { cwd: string }): Promise<number> {
  const { options, log, message } = parseContinueArgs(argv, io.cwd);
  const file = path.resolve(io.cwd, log);
  const loaded = readSealedLog(file, log, io.env, 'continued');
  const continued = resumedPolicy(options, loaded.policy, io.stderr);
  const send = { text: message, ...(options.mode ? { mode: options.mode } : {}) };
  return runAtTerminal(continued, io, { type: 'resume', log: file, events: loaded.events, send });
}
