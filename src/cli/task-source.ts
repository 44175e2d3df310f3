// Where `keel run`'s task (and `keel continue`'s message) comes from: the command line, stdin
// (`-`), or a file (`--task-file FILE`). A long brief on the command line hits the system's
// "Argument list too long"; a pipeline has it in a file or another program's output. Read whole
// before anything runs, capped, as UTF-8 text; an empty, missing, oversized or binary source is
// the user's error (exit 2), said in one line.
import * as fs from 'node:fs';
import { isatty } from 'node:tty';
import { InputError, UsageError } from './cli-errors.js';

/** A task is instructions, not data: a megabyte is far past any brief. */
export const MAX_TASK_BYTES = 1024 * 1024;

export interface TaskSources {
  /** The positional task: text, `-` for stdin, or absent. */
  given: string | undefined;
  taskFile: string | undefined;
  /** What `keel run TASK` is called in messages ("task", "message"). */
  what: string;
  /** Reads all of stdin; only called for `-`. */
  readStdin(): Buffer;
}

export function taskText(sources: TaskSources): string {
  const { given, taskFile, what } = sources;
  if (taskFile !== undefined && given !== undefined)
    throw new UsageError(`Give the ${what} once: on the command line, as - (stdin) or with --task-file, not two of them.`);
  if (taskFile !== undefined) return checked(readTaskFile(taskFile), `--task-file ${taskFile}`, what);
  if (given === '-') return checked(sources.readStdin(), 'stdin', what);
  return given ?? '';
}

function readTaskFile(file: string): Buffer {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new InputError(`--task-file ${file} is not a file.`);
    if (stat.size > MAX_TASK_BYTES) throw tooLarge(`--task-file ${file}`);
    return fs.readFileSync(file);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`--task-file ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
  }
}

function checked(bytes: Buffer, source: string, what: string): string {
  if (bytes.length > MAX_TASK_BYTES) throw tooLarge(source);
  if (bytes.includes(0)) throw new InputError(`${source} holds binary data, not a ${what}.`);
  const text = bytes.toString('utf8');
  if (!text.trim()) throw new UsageError(`${source} is empty: it should hold the ${what}.`);
  return text.replace(/\s+$/, '');
}

function tooLarge(source: string): InputError {
  return new InputError(`${source} is over ${MAX_TASK_BYTES / 1024 / 1024} MiB; a task is instructions, not data.`);
}

/**
 * All of this process's stdin; a terminal is refused rather than waited on. Read from fd 0
 * without touching process.stdin, whose stream would make a pipe non-blocking (EAGAIN).
 */
export function readProcessStdin(): Buffer {
  if (isatty(0)) throw new UsageError('- reads the task from stdin, which is a terminal here: pipe it in (… | keel run -).');
  return fs.readFileSync(0);
}
