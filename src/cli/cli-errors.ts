// The two errors a command line or a file the user gave can cause: both exit 2, one line. Apart
// from the flag parser so the readers of the task (task-source.ts) need not import it.

/** Bad usage: the message and where the help is (main.ts adds it). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * A file or value the user gave cannot be used (a missing --mcp-config, an unreadable log):
 * exit 2 like bad usage, with the message alone (the usage text would not help).
 */
export class InputError extends Error {
  override name = 'InputError';
}
