// A task log as the commands that read one (replay, resume, restore) take it: every line whole
// and known to this build, or an InputError (exit 2) naming the file and the line that is not.
import * as fs from 'node:fs';
import { loadLog, type LoadedLog } from '../node/jsonl-store.js';
import { InputError, UsageError } from './args.js';

/**
 * The log's events, or an InputError that says why it cannot be `doing` (replayed, resumed,
 * restored): not a Keel log, or a line that is damaged or unknown to this build (named by its
 * number). A last line cut off mid-write is a crash's, not damage: the events before it count.
 */
export function readTaskLog(file: string, given: string, doing = 'replayed'): LoadedLog {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile())
    throw new UsageError(`${given} is not a file: give a task log written by keel run --log.`);
  let loaded: LoadedLog;
  try {
    loaded = loadLog(file);
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
