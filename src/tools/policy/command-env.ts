// Environment settings every shell command runs with, so that the forms the classifier calls
// read-only really only read. Without them git refreshes its index and rewrites .git/index:
// `git status` unless optional locks are off, `git diff` (work tree against index) unless
// diff.autoRefreshIndex is false. Anything that runs classified commands (run_command, the
// differential test against bash) sets these. GIT_CONFIG_COUNT replaces one the user set.
export const COMMAND_ENV: Readonly<Record<string, string>> = {
  GIT_OPTIONAL_LOCKS: '0',
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'diff.autoRefreshIndex',
  GIT_CONFIG_VALUE_0: 'false',
};
