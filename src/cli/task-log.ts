// A task log as the commands that read one (replay, resume, restore) take it: every line whole
// and known to this build, or an InputError (exit 2) naming the file and the line that is not;
// for `keel resume`, also sealed by this user's key (log-seal.ts), or an InputError saying why
// not and what to do instead. And the key a new log is sealed with.
import * as fs from 'node:fs';
import { loadLog, type LoadedLog } from '../node/jsonl-store.js';
import { userLogKey, type LogSealKey } from '../node/log-seal.js';
import { InputError, UsageError } from './args.js';

/**
 * The log's events, or an InputError that says why it cannot be `doing` (replayed, resumed,
 * restored): not a Keel log, or a line that is damaged or unknown to this build (named by its
 * number). A last line cut off mid-write is a crash's, not damage: the events before it count.
 */
export function readTaskLog(file: string, given: string, doing = 'replayed', key?: LogSealKey): LoadedLog {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile())
    throw new UsageError(`${given} is not a file: give a task log written by keel run --log.`);
  let loaded: LoadedLog;
  try {
    loaded = loadLog(file, key);
  } catch (err) {
    throw new InputError(`${given} cannot be ${doing}: ${(err as Error).message}`);
  }
  const bad = loaded.invalid[0];
  if (bad) {
    const last = loaded.events.at(-1)?.seq ?? 0;
    const next =
      doing === 'replayed' ? `replay stops there. Replay the part before it with --until ${last}.` : `the task cannot be ${doing} past it.`;
    throw new InputError(`${given}:${bad.line} cannot be read (${bad.reason}); ${next}`);
  }
  if (!loaded.events.some((e) => e.type === 'user_message')) throw new InputError(`${given} holds no recorded task.`);
  return loaded;
}

/** Instead of continuing a log Keel cannot vouch for: start again, and look at the old one as data. */
const START_AGAIN = (given: string) => `Start the task again with keel run (keel replay ${given} shows what it did, as data).`;

/**
 * Refuses a log whose seal does not verify with the user's key: its header's approvals and the
 * task's "for this task" approvals would act for the user, so only a log this user's Keel wrote,
 * unchanged, is continued. `keyFile`: where the key is (or would be) kept.
 */
export function requireSealed(loaded: LoadedLog, given: string, keyFile: string, key: LogSealKey | undefined): void {
  const seal = loaded.seal;
  if (seal.type === 'verified') return;
  if (seal.type === 'unsealed')
    throw new InputError(
      `${given} carries no seal, so keel resume cannot tell that Keel wrote it as it stands (a log of a Keel before logs were sealed, of the editor, or with its seal removed). ${START_AGAIN(given)}`,
    );
  if (!key)
    throw new InputError(
      `${given} is sealed, but this user has no log key (${keyFile}): another user's or machine's Keel wrote it, or the key was removed. ${START_AGAIN(given)}`,
    );
  if (seal.type === 'broken' && seal.otherKey)
    throw new InputError(
      `${given} was sealed with another log key than ${keyFile} (another user's or machine's Keel): it is resumed only where it was written. ${START_AGAIN(given)}`,
    );
  const line = seal.type === 'broken' ? seal.line : 1;
  throw new InputError(
    `${given}:${line} was changed after Keel wrote it (its seal does not verify): a log something else rewrote is never resumed. ${START_AGAIN(given)}`,
  );
}

/**
 * The key a new log is sealed with. One that cannot be read or made costs the seal (said on
 * stderr: keel resume will not continue that log), never the run.
 */
export function sealingKey(env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream): LogSealKey | undefined {
  try {
    return userLogKey(env);
  } catch (err) {
    stderr.write(`keel: this log is not sealed (${(err as Error).message}); keel resume will not continue it\n`);
    return undefined;
  }
}
