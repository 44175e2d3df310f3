// Environment settings every shell command runs with, so that the forms the classifier calls
// read-only really only read: without GIT_OPTIONAL_LOCKS=0, `git status` refreshes and rewrites
// .git/index (it takes .git/index.lock). Anything that runs classified commands (run_command,
// the differential test against bash) sets these.
export const COMMAND_ENV: Readonly<Record<string, string>> = { GIT_OPTIONAL_LOCKS: '0' };
