// `keel run --worktree [NAME] [--from REF]`: the task runs in a new git worktree on its own branch
// (src/node/worktrees/), which is its workspace — its checkpoints, sandbox view and log are the
// worktree's, so nothing writes to the main folder. The session's record follows the run: running
// (with this process's id), then the run's own status, cost and tokens. Outside a git repository
// the person is told and the task runs in the folder, as without the flag.
import * as path from 'node:path';
import { createSession, findRepo, runGit, saveRecord, sessionLayout, type SessionRecord } from '../node/worktrees/index.js';
import type { RunOptions } from './args.js';
import { type CliIo, runTask } from './run.js';

export async function runInWorktree(options: RunOptions, io: CliIo): Promise<number> {
  const { worktree, ...plain } = options;
  const lookup = await findRepo(runGit, path.resolve(options.workspace));
  if (lookup.type === 'not_repo') {
    io.stderr.write(`keel: --worktree: ${lookup.reason}; the task runs in the folder itself\n`);
    return runTask(plain, io);
  }
  const { repo } = lookup;
  const layout = sessionLayout(repo, io.env);
  const request = { task: options.task, caps: options.budget, ...worktree, ...(options.log ? { log: options.log } : {}) };
  const { record, notices } = await createSession(repo, layout, request);
  for (const notice of notices) io.stderr.write(`keel: ${notice}\n`);
  io.stderr.write(`keel: session ${record.name} runs on ${record.branch} in ${record.path}\n`);
  await saveRecord(layout, { ...record, status: 'running', pid: process.pid });
  const sessionOptions: RunOptions = {
    ...plain,
    workspace: record.path,
    log: record.log,
    // The linked dependencies, and the shared git folder the worktree's `.git` file points into
    // (so git reads work in a sandboxed command; writing there stays Keel's and the person's).
    readOnlyFolders: [...record.dependencies.map((name) => path.join(repo.top, name)), repo.commonDir],
  };
  let ended: SessionRecord = { ...record, status: 'failed' };
  const onResult: CliIo['onResult'] = (result) => {
    const tokens = result.tokens.input + result.tokens.output;
    ended = { ...record, status: result.status, costUsd: result.costUsd, tokens };
  };
  try {
    return await runTask(sessionOptions, { ...io, onResult });
  } finally {
    await saveRecord(layout, ended);
  }
}
