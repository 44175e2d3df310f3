// Environment settings the command lines the model runs with run_command get (and the
// differential test against bash), so the forms the classifier calls read-only really only read:
// - git refreshes its index and rewrites .git/index: `git status` unless optional locks are off,
//   `git diff` (work tree against index) unless diff.autoRefreshIndex is false;
// - git runs the program core.fsmonitor names on status and diff: the command-line setting
//   (GIT_CONFIG_*) outranks every config file; a partial clone fetches missing objects on a
//   read unless lazy fetching is off (git 2.44 and later read GIT_NO_LAZY_FETCH);
// - npm checks the registry for a newer npm and writes a debug log under ~/.npm/_logs on every
//   run, `npm test` included.
// GIT_CONFIG_COUNT replaces one the user set. run_tests adds none of them: a suite reads its
// environment (a release check's `git diff --exit-code` fails on a file whose stat changed when
// the index is not refreshed), and inside the test-run sandbox .git is read-only, the network and
// the home folder's logs out of reach anyway.
export const COMMAND_ENV: Readonly<Record<string, string>> = {
  GIT_OPTIONAL_LOCKS: '0',
  GIT_NO_LAZY_FETCH: '1',
  GIT_CONFIG_COUNT: '2',
  GIT_CONFIG_KEY_0: 'diff.autoRefreshIndex',
  GIT_CONFIG_VALUE_0: 'false',
  GIT_CONFIG_KEY_1: 'core.fsmonitor',
  GIT_CONFIG_VALUE_1: 'false',
  NPM_CONFIG_UPDATE_NOTIFIER: 'false',
  NPM_CONFIG_LOGS_MAX: '0',
};
