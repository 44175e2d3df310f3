// `keel restore LOG --to STEP`: puts the workspace's files back as they were right after model
// step STEP of a recorded task (0: before its first change), from the checkpoints its log names —
// through the runtime's restoreFiles, the code the extension's "Restore files to here" runs.
// Files the user changed since the task last wrote them are overwritten only when confirmed at
// the terminal (or with --overwrite). The restore is logged in the task's log as a checkpoint of
// its own, so it can be undone like any other step.
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { parseArgs } from 'node:util';
import { Registry, replay, Runtime, type CheckpointRecord, type RestoreOutcome } from '../kernel/index.js';
import { JsonlLogStore } from '../node/jsonl-store.js';
import { existingLogKey } from '../node/log-seal.js';
import { ScriptedProvider } from '../providers/index.js';
import { InputError, UsageError } from './args.js';
import { cliCheckpoints } from './checkpoints.js';
import { workspaceRoot } from './task-runtime.js';
import { readTaskLog } from './task-log.js';

export interface RestoreIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Exit status: 0 restored (or nothing to do), 1 the overwrite was declined, 2 bad usage or a log that cannot be used. */
export async function runRestoreCommand(argv: string[], io: RestoreIo): Promise<number> {
  const o = parseRestoreArgs(argv, io.cwd);
  const file = path.resolve(io.cwd, o.log);
  const loaded = readTaskLog(file, o.log, 'restored');
  const state = replay(loaded.events);
  const checkpoints = state.checkpoints;
  if (checkpoints.length === 0) throw new InputError(`${o.log} records no checkpoints: there is nothing to restore from.`);
  // A step the task never reached is a mistyped --to, not "the last step": restoring to it would
  // report success for a point that does not exist.
  if (o.to > state.turn)
    throw new InputError(`--to ${o.to}: the task in ${o.log} has ${state.turn} model steps; give a step from 0 to ${state.turn}.`);
  const root = workspaceRoot(o);
  // The restore's own events go on the log's seal (when this user's key sealed it).
  const store = JsonlLogStore.open(file, {}, existingLogKey(io.env));
  const runtime = new Runtime({
    // No model is asked anything: a restore only reads checkpoints and writes files.
    provider: new ScriptedProvider([], { model: 'restore' }),
    registry: new Registry(),
    events: loaded.events,
    checkpoints: cliCheckpoints(root, io.env, `cli-restore-${randomUUID()}`),
    store,
  });
  let outcome: RestoreOutcome;
  try {
    outcome = await runtime.restoreFiles({
      afterSeq: restorePoint(checkpoints, o.to),
      confirmOverwrite: (paths) => (o.overwrite ? Promise.resolve(true) : confirm(paths, io)),
    });
  } finally {
    await store.close();
  }
  io.stdout.write(describe(outcome, o.to));
  return outcome.type === 'declined' ? 1 : 0;
}

/**
 * The seq the workspace is put back to: the checkpoint of the last step up to `to` (0: none), so
 * every later change — later steps, and restores made since — is undone.
 */
function restorePoint(checkpoints: readonly CheckpointRecord[], to: number): number {
  let point = 0;
  for (const c of checkpoints) {
    if (c.kind !== 'step') continue;
    if (c.step > to) break;
    point = c.seq;
  }
  return point;
}

async function confirm(paths: readonly string[], io: RestoreIo): Promise<boolean> {
  if (!io.stdin.isTTY) return false;
  const rl = readline.createInterface({ input: io.stdin, output: io.stdout });
  try {
    const answer = await new Promise<string>((resolve) =>
      rl.question(`Changed since the task last wrote them: ${paths.join(', ')}. Overwrite them? [y/N] `, resolve),
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

function describe(outcome: RestoreOutcome, to: number): string {
  const point = to === 0 ? 'before the task changed them' : `right after step ${to}`;
  if (outcome.type === 'declined')
    return 'Nothing was restored: some files changed since the task last wrote them (restore at a terminal to confirm, or pass --overwrite).\n';
  const lost = outcome.unrestorable.length ? `Not restored (their bytes were not kept): ${outcome.unrestorable.join(', ')}.\n` : '';
  if (outcome.type === 'nothing') return `Nothing to restore: the files are already as they were ${point}.\n${lost}`;
  return `Restored ${outcome.paths.join(', ')} to how they were ${point}.\n${lost}`;
}

function parseRestoreArgs(argv: string[], cwd: string) {
  let parsed: ReturnType<typeof restoreFlags>;
  try {
    parsed = restoreFlags(argv);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('Give exactly one log: keel restore LOG --to STEP.');
  const to = Number(values.to);
  if (values.to === undefined || !Number.isInteger(to) || to < 0)
    throw new UsageError(
      `--to takes the model step to restore to, a whole number (0: before the task's first change; got "${values.to ?? ''}").`,
    );
  return { log: positionals[0]!, to, workspace: values.workspace ?? cwd, overwrite: values.overwrite === true };
}

function restoreFlags(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { to: { type: 'string' }, workspace: { type: 'string' }, overwrite: { type: 'boolean' } },
  });
}
